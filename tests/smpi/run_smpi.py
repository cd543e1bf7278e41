#!/usr/bin/env python3
"""The program under SimGrid's SMPI (preset smpi), through scripts/simulate.

Suites:
  e2e        64 simulated ranks on platforms/fat-tree-1024.xml (8 a node, so 8 nodes), --check on every
             method that works under SMPI (p2p on both packs, persistent on --pack kernel, rma pscw and
             fence, a box stencil, --placement nodes, --overlap, --breakdown, --per-rank): exit 0 and one
             "check ... passed" line per row; the header names the simulator; the methods SMPI gets wrong
             (neighbor, persistent with datatypes) refused: exit 2, one line on stderr naming SMPI, no row;
             a rank that never sends (HALOBW_TEST_HOOK_SKIP_SENDS): exit 4 and one line, from SimGrid's deadlock;
             a send to no rank (HALOBW_TEST_HOOK_BAD_PEER): exit 3 and the rank's error, after its MPI_Abort
  limits     the two 30-line programs beside the refusals: tests/smpi/persistent.c and neighbor.c must
             still fail under this SimGrid. When one passes, SimGrid was fixed: lift the refusal it backs
             (src/exchange/method_p2p.cpp, method_neighbor.cpp) and this case
Exit 77 (ctest: skipped) where smpirun is not installed.
Usage: run_smpi.py --exe HALO_BANDWIDTH --persistent PROGRAM --neighbor PROGRAM SUITE
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIMULATE = os.path.join(ROOT, "scripts", "simulate")
PLATFORM = os.path.join(ROOT, "platforms", "fat-tree-1024.xml")
RANKS = 64
FAST = ["--local", "8", "--iters", "2", "--warmup", "1", "--repeats", "1", "--check"]

# Each case: halo-bandwidth's options beside FAST (every one passes --check).
WORKING = [
    ["--faces"],
    ["--faces", "--pack", "kernel"],
    ["--faces", "--method", "persistent", "--pack", "kernel"],
    ["--faces", "--method", "rma", "--rma-sync", "pscw"],
    ["--faces", "--method", "rma", "--rma-sync", "fence"],
    ["--stencil", "box", "--placement", "nodes"],
    ["--faces", "--overlap", "--breakdown", "--per-rank"],
]
# Each refused case: its options, and what its one line must name.
REFUSED = [
    (["--faces", "--method", "neighbor"], "--method neighbor: SimGrid SMPI"),
    (["--faces", "--method", "persistent"], "--method persistent with MPI datatypes: SimGrid SMPI"),
]


class Failed(Exception):
    pass


def simulate(exe, ranks, flags, program=None, env=None):
    cmd = [sys.executable, SIMULATE, "--platform", PLATFORM, "-n", str(ranks), "--exe", program or exe]
    cmd += ["--"] + flags
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout, p.stderr, " ".join(cmd)


def e2e(args):
    for flags in WORKING:
        rc, out, err, cmd = simulate(args.exe, RANKS, FAST + flags)
        passed = [l for l in out.splitlines() if l.startswith("# check ") and " passed " in l]
        rows = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rc != 0 or not rows or len(passed) != len(rows):
            raise Failed(f"{cmd}\nexit {rc}, {len(rows)} rows, {len(passed)} checks passed\n{out}\n{err}")
        if "# simulated by SimGrid SMPI " not in out or " on platform platforms/fat-tree-1024.xml" not in out:
            raise Failed(f"{cmd}\nthe header does not name the simulator\n{out}")
        print(f"ok: {' '.join(flags)}: {len(rows)} row(s), check passed")
    for flags, fragment in REFUSED:
        rc, out, err, cmd = simulate(args.exe, RANKS, FAST + flags)
        lines = err.strip().splitlines()
        rows = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rc != 2 or len(lines) != 1 or fragment not in lines[0] or rows:
            raise Failed(f"{cmd}\nexpected exit 2, one line naming '{fragment}', no row; got exit {rc}\n"
                         f"stderr:\n{err}\nstdout:\n{out}")
        print(f"ok: {' '.join(flags)}: refused: {lines[0]}")
    # A rank that never sends (the test hook): every other rank waits for good.
    rc, out, err, cmd = simulate(args.exe, RANKS, FAST + ["--faces"], env={"HALOBW_TEST_HOOK_SKIP_SENDS": "1"})
    if rc != 4 or "halo-bandwidth: timeout: SimGrid found every rank waiting" not in err:
        raise Failed(f"HALOBW_TEST_HOOK_SKIP_SENDS=1 {cmd}\nexpected exit 4 and the deadlock line; got exit {rc}\n{err}")
    print("ok: a rank that never sends: exit 4, SimGrid's deadlock named")
    # A send to a rank that does not exist (the test hook): that rank's error line, MPI_Abort, exit 3.
    rc, out, err, cmd = simulate(args.exe, RANKS, FAST + ["--faces"], env={"HALOBW_TEST_HOOK_BAD_PEER": "1"})
    if rc != 3 or "halo-bandwidth: error on rank 1: MPI_Isend failed" not in err or "timeout" in err:
        raise Failed(f"HALOBW_TEST_HOOK_BAD_PEER=1 {cmd}\nexpected exit 3 and rank 1's error; got exit {rc}\n{err}")
    print("ok: a send to no rank: exit 3, the rank's error named")


# Each program, its ranks, and what shows that SMPI still gets it wrong: the
# wrong values it prints (exit 1), or SimGrid's abort.
LIMITS = [
    ("persistent", 2, lambda rc, out, err: rc == 1 and "WRONG values" in out),
    ("neighbor", 4, lambda rc, out, err: rc != 0 and "Not yet implemented: PMPI_Dist_graph_create_adjacent" in err),
]


def limits(args):
    for name, ranks, still_wrong in LIMITS:
        rc, out, err, cmd = simulate(args.exe, ranks, [], getattr(args, name))
        if rc == 0 and "right values" in out:
            raise Failed(f"{cmd}\ntests/smpi/{name}.c passes under this SimGrid: lift the refusal of "
                         f"--method {name} under SMPI, and this case\n{out}")
        if not still_wrong(rc, out, err):
            raise Failed(f"{cmd}\ntests/smpi/{name}.c did not run as expected: exit {rc}\n{out}\n{err}")
        print(f"ok: tests/smpi/{name}.c still fails under SMPI (exit {rc}): the refusal stands")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--exe", required=True)
    p.add_argument("--persistent", required=True)
    p.add_argument("--neighbor", required=True)
    p.add_argument("suite", choices=["e2e", "limits"])
    args = p.parse_args()
    if shutil.which("smpirun") is None:
        print("SKIP: SimGrid's smpirun is not installed (Debian's libsimgrid-dev: scripts/setup.sh smpi)")
        return 77
    try:
        {"e2e": e2e, "limits": limits}[args.suite](args)
    except Failed as e:
        print(f"FAILED: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
