#!/usr/bin/env python3
"""The tests clean up what they make: a suite run with TMPDIR set to a fresh folder leaves that
folder empty (the runners keep every temporary folder in one of their own, removed at exit), and
fails here if anything of it is left.

usage: cleanup_cases.py -- COMMAND...   (a runner and its suite, e.g. feature_cases.py ... hugepages)
Exit status: the runner's when it fails, 1 when it left something, else 0.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if "--" not in sys.argv:
        print(__doc__, file=sys.stderr)
        return 2
    command = sys.argv[sys.argv.index("--") + 1:]
    tmp = tempfile.mkdtemp(prefix="halobw-cleanup-check-")
    try:
        p = subprocess.run(command, env=dict(os.environ, TMPDIR=tmp), capture_output=True, text=True)
        sys.stdout.write(p.stdout[-3000:])
        sys.stderr.write(p.stderr[-3000:])
        if p.returncode != 0:
            print(f"FAIL the suite itself failed (exit {p.returncode})")
            return p.returncode
        # Open MPI's own session folders are its to remove; ours start with halobw-.
        left = sorted(n for n in os.listdir(tmp) if n.startswith("halobw-"))
        if left:
            print(f"FAIL left in TMPDIR: {left}")
            return 1
        print(f"ok   {os.path.basename(command[1]) if len(command) > 1 else command[0]} {command[-1]}: nothing "
              "of ours left in TMPDIR")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
