#!/usr/bin/env python3
"""reframe/halo_bandwidth.py under ReFrame (.venv-reframe/, scripts/setup_reframe.sh) on its local
system (reframe/settings.py), 2 ranks under mpirun:

  - every case passes, and the performance report shows each row's Uni_GBps,
    Time_us and phases (--breakdown) for every case;
  - a run whose --check finds a wrong ghost cell (the test hook
    HALOBW_TEST_HOOK_CORRUPT) fails the sanity function, and ReFrame says so;
  - a reference filled in as docs/centres.md says (a copy of the check whose
    REFERENCES has one for the local system) fails the performance stage when
    the row falls short of it.

`mpirun` is the build's MPIEXEC (a script that starts it, first on PATH), so that an MPICH
build runs under MPICH's launcher. Exit 77 (ctest SKIP) without ReFrame.

usage: reframe_cases.py --root REPO --exe HALO_BANDWIDTH --mpiexec MPIEXEC
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
SIZES = ("16", "32")
VARIABLES = ("Uni_GBps", "Time_us", "Pack_us", "Mpi_us", "Stage_us", "Unpack_us")
CASES = 2 * 2 * 2  # direction x pack x method, as reframe/halo_bandwidth.py declares them


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--mpiexec", required=True)
    a = ap.parse_args()
    reframe = os.path.join(a.root, ".venv-reframe", "bin", "reframe")
    if not os.access(reframe, os.X_OK):
        print(f"SKIP: no {reframe}: scripts/setup_reframe.sh (or scripts/setup.sh --tests) installs it")
        return SKIP

    failed = 0
    with tempfile.TemporaryDirectory(prefix="halobw-reframe-") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        # A script, not a link: Intel MPI's hydra finds its proxy beside the path it was started by.
        mpirun = os.path.join(bindir, "mpirun")
        with open(mpirun, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec "{os.path.abspath(a.mpiexec)}" "$@"\n')
        os.chmod(mpirun, 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], TMPDIR=tmp)  # ReFrame's log too

        def reframe_run(name, extra_env=None, *select, check_file=os.path.join(a.root, "reframe", "halo_bandwidth.py")):
            cmd = [reframe, "-C", os.path.join(a.root, "reframe", "settings.py"),
                   "-c", check_file, "--prefix", os.path.join(tmp, name),
                   *select, "-r", "--performance-report", "--nocolor", "-S", f"executable={a.exe}",
                   "-S", "sizes=" + ",".join(SIZES), "-S", "options=--iters,5,--warmup,1"]
            return subprocess.run(cmd, capture_output=True, text=True, env=dict(env, **(extra_env or {})),
                                  timeout=300, cwd=tmp)

        def check(ok, what, p):
            nonlocal failed
            print(("PASS " if ok else "FAIL ") + what)
            if not ok:
                failed += 1
                print(p.stdout[-6000:] + p.stderr[-3000:])

        p = reframe_run("pass")
        check(p.returncode == 0 and re.search(rf"PASSED\s*\] Ran {CASES}/{CASES} test case", p.stdout),
              f"all {CASES} cases pass (direction x pack x method)", p)
        shown = re.findall(r"halo_bandwidth_check %direction=\S+ %pack=\S+ %method=\S+\s*│[^│]*│[^│]*│ "
                           r"(\w+@N\d+)\s*│", p.stdout)
        want = {f"{v}@N{n}" for v in VARIABLES for n in SIZES}
        check(set(shown) == want and len(shown) == CASES * len(want),
              f"the report shows {len(want)} performance variables per case ({', '.join(sorted(want))})", p)

        p = reframe_run("corrupt", {"HALOBW_TEST_HOOK_CORRUPT": "1"},
                        "-n", "halo_bandwidth_check%direction=z%pack=datatype%method=p2p")
        check(p.returncode != 0 and "FAILED" in p.stdout and "sanity" in p.stdout.lower(),
              "a wrong ghost cell fails the sanity function", p)

        # 1000 GB/s on one pair of 16^3 faces: out of reach of any machine.
        with open(os.path.join(a.root, "reframe", "halo_bandwidth.py"), encoding="utf-8") as f:
            text = f.read()
        referenced = os.path.join(tmp, "referenced.py")
        with open(referenced, "w", encoding="utf-8") as f:
            f.write(text.replace("\nREFERENCES = {}\n", "\nREFERENCES = {'local:default': {'z/datatype/p2p': "
                                 "{'Uni_GBps@N16': (1000.0, -0.1, None, 'GB/s')}}}\n", 1))
        p = reframe_run("referenced", None, "-n", "halo_bandwidth_check%direction=z%pack=datatype%method=p2p",
                        check_file=referenced)
        check(p.returncode != 0 and "Failing phase: performance" in p.stdout
              and re.search(r"Uni_GBps@N16=\S+ GB/s, expected 1000.0", p.stdout),
              "a reference for the local system fails the performance stage when a row falls short", p)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
