"""Same bytes on every CPU: recompute all of generated/ under other CPU kernel paths and require the committed bytes.

torch compiles its CPU kernels once per instruction set and picks the best one the processor has; MKL and
numpy do the same for their own routines. So one machine can stand in for others: ATEN_CPU_CAPABILITY and MKL_CBWR
(and NPY_DISABLE_CPU_FEATURES, OPENBLAS_CORETYPE) make this process take another CPU's path (`default` is the portable code every x86-64 runs). For each
path in PATHS, a copy of what the runner reads (scripts/, generated/ without its manifest, mkdocs.yml) is
recomputed from scratch (`python -m scripts.run --force`: a lost manifest is rebuilt too), checked fresh
(`--check`), and every file of its generated/ compared with the committed one. Timings are left out: they
measure the machine (generated/timings/, machine named in each file).

What these paths do not switch: glibc's libm picks an FMA version of exp, log, sin… on a CPU that has FMA
(measured on glibc 2.36: exp differs in the last bit for 658 of 10⁶ inputs), so the "portable" path here
is not all that a CPU without FMA computes. The trainings whose weights ship (generated/models/) do not
depend on it: they run pinned, libm included, whatever the path (scripts/common/training.py PINNED).

    python -m tools.reproduce           every path in PATHS (`make reproduce`; CI runs it after `make test`)
    python tools/reproduce.py portable   one of them
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# name -> environment: the portable path (what a CPU without AVX2 runs) and AVX2 (most x86-64 machines;
# this one may run AVX-512, as the machine that computed generated/ may have)
# numpy dispatches its own SIMD kernels (float32 exp differs in the last bit between them):
# NPY_DISABLE_CPU_FEATURES turns off the ones above each path (naming one the CPU lacks is harmless);
# numpy's OpenBLAS picks its matrix-product kernels by CPU model (OPENBLAS_CORETYPE names one): an AMD EPYC runs
# others than an Intel AVX-512 machine, and a row's last bits there depend on its place in the product
PATHS = {
    "portable": {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE",
                 "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR", "OPENBLAS_CORETYPE": "Prescott"},
    "avx2": {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "AVX2",
             "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR", "OPENBLAS_CORETYPE": "Haswell"},
}
COMPARED = ("data", "models", "charts", "manifest.json")   # timings/ measure the machine: never compared


def files(folder: Path) -> dict[str, bytes]:
    out = {}
    for part in COMPARED:
        base = folder / part
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        out.update({str(p.relative_to(folder)): p.read_bytes() for p in paths})
    return out


def recompute(name: str, env_extra: dict) -> list[str]:
    """The files of generated/ that differ from the committed ones after a full recompute on one path."""
    with tempfile.TemporaryDirectory(prefix=f"reproduce-{name}-") as tmp:
        proj = Path(tmp)
        shutil.copytree(ROOT / "scripts", proj / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(ROOT / "generated", proj / "generated", ignore=shutil.ignore_patterns(".lock"))
        (proj / "generated" / "manifest.json").unlink()    # from scratch: --force must rebuild it
        shutil.copy(ROOT / "mkdocs.yml", proj / "mkdocs.yml")
        (proj / "node_modules").symlink_to(ROOT / "node_modules")   # the pinned chart fonts
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **env_extra)
        t0 = time.perf_counter()
        for args in (["--force"], ["--check"]):
            proc = subprocess.run([sys.executable, "-m", "scripts.run", *args], cwd=proj, env=env,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                return [f"`scripts.run {' '.join(args)}` failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"]
        print(f"  {name}: recomputed in {time.perf_counter() - t0:.0f} s ({' '.join(f'{k}={v}' for k, v in env_extra.items())})")
        committed, again = files(ROOT / "generated"), files(proj / "generated")
        return sorted(k for k in committed.keys() | again.keys() if committed.get(k) != again.get(k))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", metavar="PATH", help=f"kernel paths to try (default: all of {', '.join(PATHS)})")
    args = ap.parse_args(argv)
    unknown = [p for p in args.paths if p not in PATHS]
    if unknown:
        ap.error(f"unknown path(s) {unknown}: choose from {', '.join(PATHS)}")
    failed = False
    for name in args.paths or PATHS:
        differ = recompute(name, PATHS[name])
        if differ:
            failed = True
            print(f"reproduce: on the {name} path these differ from the committed generated/:\n  "
                  + "\n  ".join(differ) + "\n  (a computation whose bytes depend on the CPU: compute it in "
                  "float64 (scripts/common/training.py float64()), or keep a machine measurement in measure())")
    if not failed:
        print(f"reproduce: generated/ recomputed on {len(args.paths or PATHS)} kernel path(s): the committed bytes")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
