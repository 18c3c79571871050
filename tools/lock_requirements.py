"""Write requirements.lock: every distribution `pip install -r requirements.txt` installs here, pinned, heaviest
wheel first (`make lock`; run it after changing requirements.txt).

Why: torch's CUDA build brings about 3 GB of wheels (nvidia-*, triton) that one pip unpacks on one core. The
Makefile's venv step installs the lock's odd and even lines in two pip processes side by side (heaviest first,
so the halves weigh about the same: 56 → 34 s on 2 cores), then requirements.txt itself, which installs
whatever a stale or foreign lock missed: the lock only ever changes how fast the venv is made, never what is in it.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
HEADER = ("# Every distribution requirements.txt installs, pinned, heaviest wheel first (tools/lock_requirements.py;\n"
          "# `make lock` writes it again). The Makefile installs its odd and even lines side by side.\n")


def resolved() -> list[dict]:
    """pip's own resolution of requirements.txt, as for a new venv (installed packages ignored), nothing installed."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--dry-run", "--ignore-installed",
                        "--report", str(report), "-r", str(ROOT / "requirements.txt")], check=True)
        return json.loads(report.read_text(encoding="utf-8"))["install"]


def size(item: dict) -> int:
    """The wheel's size when it lies on this disk, else 0 (the downloaded ones are small)."""
    url = urlparse(item["download_info"]["url"])
    path = Path(unquote(url.path))
    return path.stat().st_size if url.scheme == "file" and path.exists() else 0


def lines(items: list[dict]) -> list[str]:
    pins = [(-size(i), i["metadata"]["name"].lower(), i["metadata"]["version"]) for i in items]
    return [f"{name}=={version}" for _, name, version in sorted(pins)]


def main() -> int:
    pins = lines(resolved())
    text = HEADER + "".join(f"{line}\n" for line in pins)
    if LOCK.exists() and LOCK.read_text(encoding="utf-8") == text:
        print(f"{LOCK.name}: unchanged")
    else:
        LOCK.write_text(text, encoding="utf-8")
        print(f"{LOCK.name}: written ({len(pins)} distributions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
