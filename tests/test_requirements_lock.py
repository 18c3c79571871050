"""requirements.lock (tools/lock_requirements.py) pins what requirements.txt pins, at the same versions: the
venv step installs the lock first, two halves side by side, and a stale lock would only slow it down unseen."""
import re

from conftest import ROOT


def pins(name: str) -> dict[str, str]:
    text = (ROOT / name).read_text(encoding="utf-8")
    found = re.findall(r"^([A-Za-z0-9][\w.-]*)==([^\s#]+)", text, re.M)
    return {re.sub(r"[-_.]+", "-", n).lower(): v for n, v in found}


def test_the_lock_pins_every_requirement_at_its_version():
    lock, wanted = pins("requirements.lock"), pins("requirements.txt")
    assert wanted, "requirements.txt pins nothing?"
    stale = {n: (v, lock.get(n)) for n, v in wanted.items() if lock.get(n) != v}
    assert not stale, f"requirements.lock is stale for {stale} (requirements.txt's pin, the lock's): run `make lock`"


def test_the_lock_is_heaviest_first_so_its_halves_weigh_alike():
    lines = [line for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    assert lines[0].startswith("torch=="), "the heaviest wheel (torch) first: `make lock` writes the order"
    assert all(re.fullmatch(r"[a-z0-9][\w.-]*==\S+", line) for line in lines), "one name==version per line"
