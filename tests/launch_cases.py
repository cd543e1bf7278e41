#!/usr/bin/env python3
"""Runs halo-bandwidth under the launchers a cluster uses, and judges each run
as run_cases.py does (every table through scripts/check_table.py).

Suites (one MPI per build: Open MPI or MPICH, told apart by `MPIEXEC --version`):
  slurm_up  the fixture: scripts/slurm_up.sh brings up a one-node Slurm
  srun      srun --mpi=pmix (Open MPI) or --mpi=pmi2 (MPICH) -n 2; srun -O -n 4; bad
            input's exit code 2 through srun; OPENPFC_FD_PROC_GRID through the
            environment; MPICH under --mpi=pmix refused (exit 2, one line)
  nodes     4 and 8 ranks as 2 simulated nodes (each rank in its own UTS namespace,
            hostname node0 or node1), every --method, with --check: the header's
            nodes 2, the rank_host line, OffNodeFaces
  network   the traffic forced onto TCP over loopback (Open MPI btl self,tcp; MPICH
            netmod for local ranks too, UCX tcp only), with --check

Exit status 0 all passed, 1 some failed, 77 (ctest's SKIP_RETURN_CODE) when the
machine cannot do it: not root, no Slurm installed, unshare not permitted. Where
Slurm is installed but will not come up, that is a skip too, unless
HALOBW_REQUIRE_SLURM=1 (CI sets it): then it fails.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_cases  # noqa: E402  (the Runner: judging, the checker; the launcher's kind)

SKIP = 77
TIMEOUT = 180
FAST = ["--iters", "5", "--warmup", "1"]
SLURM_DIR = os.environ.get("HALOBW_SLURM_DIR", "/var/spool/halobw-slurm")
SLURM_CONF = os.path.join(SLURM_DIR, "slurm.conf")
JOB_NAME = "halobw-launch-test"


def skip(reason):
    print(f"SKIP {reason}")
    sys.exit(SKIP)


def require_slurm():
    return os.environ.get("HALOBW_REQUIRE_SLURM", "0") == "1"


def clean_env(extra=None):
    """The caller's environment without another launcher's identity (an outer
    Slurm job, mpiexec's rank variables), plus `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not re.match(r"(SLURM_|PMI_|PMIX_|OMPI_COMM_WORLD_|OMPI_UNIVERSE_|MPI_LOCAL)", k)}
    env.update(extra or {})
    return env


class Launch(run_cases.Runner):
    """A Runner whose launcher is set per group of cases: `self.prefix(ranks)`
    is the command line up to the executable, `self.env` the environment."""

    def __init__(self, args):
        super().__init__(args)
        self.prefix = self.launch
        self.env = clean_env()
        self.exe_wrap = []
        self.timeout = TIMEOUT

    def command(self, ranks, flags):
        return self.prefix(ranks) + self.exe_wrap + [self.exe] + flags

    def run(self, ranks, flags, env=None):
        cmd = self.command(ranks, flags)
        full_env = dict(self.env, **(env or {}))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout, env=full_env)
        except subprocess.TimeoutExpired:
            if cmd[0] == "srun":
                subprocess.run(["scancel", "--name", JOB_NAME], env=full_env, capture_output=True)
            return None, "", f"timed out after {self.timeout} s: {' '.join(cmd)}"
        return p.returncode, p.stdout, p.stderr

    def section(self, title, ranks=2):
        print(f"# {title}: {' '.join(self.command(ranks, ['...']))}")


# ---------------------------------------------------------------- Slurm

def slurm_up(args):
    script = os.path.join(args.scripts_dir, "slurm_up.sh")
    if os.geteuid() != 0:
        skip("Slurm: not root, so no daemons can be started here (scripts/slurm_up.sh needs root)")
    if not shutil.which("srun") or not shutil.which("slurmctld", path=os.environ.get("PATH", "") + ":/usr/sbin"):
        if require_slurm():
            print("FAIL Slurm is not installed (scripts/setup.sh host|mpich installs it), HALOBW_REQUIRE_SLURM=1")
            return 1
        skip("Slurm: not installed (apt-get install --no-install-recommends slurmd slurmctld slurm-client "
             "munge libpmix-dev)")
    p = subprocess.run(["bash", script], capture_output=True, text=True, timeout=120)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode == 0:
        return 0
    if p.returncode == 3 and not require_slurm():
        skip("Slurm cannot run here (see above)")
    if require_slurm():
        print(f"FAIL scripts/slurm_up.sh exit {p.returncode}, HALOBW_REQUIRE_SLURM=1")
        return 1
    skip(f"Slurm did not come up (scripts/slurm_up.sh exit {p.returncode}; see above)")


def slurm_ready():
    """Whether the fixture's cluster answers, with its node usable."""
    if not shutil.which("srun") or not os.path.exists(SLURM_CONF):
        return False
    try:
        p = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, timeout=20,
                           env=clean_env({"SLURM_CONF": SLURM_CONF}))
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and any(s.strip() in ("idle", "mix", "alloc", "comp") for s in p.stdout.split())


def srun(r):
    if not slurm_ready():
        if require_slurm():
            r.cases += 1
            r.fail("Slurm", f"no cluster answers at SLURM_CONF={SLURM_CONF} (HALOBW_REQUIRE_SLURM=1)")
            return
        skip(f"Slurm: no cluster answers at SLURM_CONF={SLURM_CONF} (the fixture launch/slurm_up skipped)")
    pmi = {"openmpi": "pmix", "mpich": "pmi2"}[r.kind]
    r.env = clean_env({"SLURM_CONF": SLURM_CONF})

    def srun_prefix(*opts):
        return lambda ranks: ["srun", "-J", JOB_NAME, f"--mpi={pmi}", *opts, "-n", str(ranks)]

    r.prefix = srun_prefix()
    r.section(f"{r.kind} under srun --mpi={pmi}")
    r.table(2, ["--axis", "z", "--check", "--sizes", "16"], rows=1,
            expect=["# ranks 2 nodes 1", "# check N=16 passed"])
    # Bad input: each task exits 2, srun passes the 2 to the shell.
    r.rejected(2, ["--sizes", "0"], "--sizes")
    r.rejected(2, ["--axis", "w"], "--axis")
    # The grid from the environment, value and commas intact (srun --export=VAR=1,2,1 would cut it at the comma).
    r.table(2, ["--axis", "y", "--check", "--sizes", "16"], {"OPENPFC_FD_PROC_GRID": "1,2,1"}, rows=1,
            expect=["grid 1x2x1", "grid_source OPENPFC_FD_PROC_GRID"])
    # 4 tasks on fewer cores: -O (overcommit), else the job waits for CPUs for ever.
    r.prefix = srun_prefix("-O")
    r.section(f"{r.kind} under srun -O --mpi={pmi}", 4)
    r.table(4, ["--faces", "--check", "--sizes", "16"], rows=1, expect=["# ranks 4 nodes 1", "# check N=16 passed"])
    if r.kind == "mpich":
        # MPICH's PMI-1/2 client cannot talk to Slurm's PMIx: every task is a job of one rank.
        # The program must see it (SLURM_STEP_NUM_TASKS against MPI_Comm_size) and refuse.
        r.prefix = lambda ranks: ["srun", "-J", JOB_NAME, "--mpi=pmix", "-n", str(ranks)]
        r.section("mpich under srun --mpi=pmix (a PMI it does not speak)")
        r.cases += 1
        what = "mpich under srun --mpi=pmix -n 2: refused"
        rc, out, err = r.run(2, ["--axis", "z", "--check", "--sizes", "16"])
        ours = [l for l in err.splitlines() if l.startswith("halo-bandwidth")]
        if rc != 2 or len(ours) != 1 or "2 tasks" not in ours[0] or "1 rank" not in ours[0] or out.strip():
            r.fail(what, f"exit {rc}, want 2 and one line naming 2 tasks and 1 rank; "
                         f"{len(ours)} error lines\nstdout:\n{out}\nstderr:\n{err}")
        else:
            print(f"ok   {what}: exit 2: {ours[0]}")


# ---------------------------------------------------------------- simulated nodes

def unshare_ok():
    if not shutil.which("unshare"):
        return False
    p = subprocess.run(["unshare", "-u", "sh", "-c", "hostname halobw-probe"], capture_output=True)
    return p.returncode == 0


def node_wrapper(ranks_per_node):
    """Each rank in a new UTS namespace named node<rank / ranks_per_node>; the
    rank from Open MPI's OMPI_COMM_WORLD_RANK or hydra's PMI_RANK."""
    script = ('r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:?no rank variable}}; '
              f'hostname node$((r / {ranks_per_node})) && exec "$0" "$@"')
    return ["unshare", "-u", "sh", "-c", script]


def expect_nodes(r, out, ranks, what):
    """The header names 2 nodes and every rank's host; some face crosses them."""
    if not out:
        return
    per = ranks // 2
    hosts = " ".join(f"{i}:node{i // per}" for i in range(ranks))
    if f"# ranks {ranks} nodes 2 " not in out:
        r.fail(what, f"header does not say 'ranks {ranks} nodes 2'\n{out}")
    elif f"# rank_host {hosts}\n" not in out:
        r.fail(what, f"want '# rank_host {hosts}'\n{out}")
    else:
        cols = [l for l in out.splitlines() if l.startswith("# N ")][0][2:].split()
        rows = [dict(zip(cols, l.split())) for l in out.splitlines() if l and not l.startswith("#")]
        if not rows or not all(int(row["OffNodeFaces"]) > 0 for row in rows):
            r.fail(what, f"OffNodeFaces should be positive on 2 nodes\n{out}")


def rma_env(r, ranks, flags, what):
    """Open MPI's osc rdma makes no window where it lacks shared-memory single
    copy (FINDINGS c); the program then exits 2 naming OMPI_MCA_osc=pt2pt. Try
    the default first; set it only where needed, and say so."""
    if r.kind != "openmpi":
        return {}
    rc, _, err = r.run(ranks, flags)
    if rc == 2 and "OMPI_MCA_osc=pt2pt" in err:
        print(f"note {what}: Open MPI's osc rdma made no window here; OMPI_MCA_osc=pt2pt set")
        return {"OMPI_MCA_osc": "pt2pt"}
    return {}


def nodes(r):
    if not unshare_ok():
        skip("simulated nodes: `unshare -u` is not permitted here (it needs root or CAP_SYS_ADMIN)")
    for ranks in (4, 8):
        r.exe_wrap = node_wrapper(ranks // 2)
        r.section(f"{r.kind}, {ranks} ranks as 2 simulated nodes", ranks)
        for method in ("p2p", "persistent", "neighbor", "rma"):
            flags = ["--faces", "--sizes", "12", "--method", method, "--check"] + FAST
            what = f"-n {ranks} on 2 nodes --method {method}"
            env = rma_env(r, ranks, flags, what) if method == "rma" else {}
            out = r.table(ranks, flags, env, rows=1, expect=[f"method {method}", "# check N=12 passed"])
            expect_nodes(r, out, ranks, what)
    r.exe_wrap = []


# ---------------------------------------------------------------- forced network stack

def network(r):
    work = tempfile.mkdtemp(prefix="halobw-network-")
    try:
        if r.kind == "openmpi":
            # No shared memory: the tcp btl, on loopback (its default excludes 127.0.0.0/8).
            r.prefix = lambda ranks: r.launch(ranks) + ["--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"]
            env = {}
        else:
            # ch4:ucx: the netmod for local ranks too, and UCX on TCP over lo alone; its log names the transports.
            r.prefix = r.launch
            env = {"MPIR_CVAR_NOLOCAL": "1", "UCX_TLS": "tcp,self", "UCX_NET_DEVICES": "lo",
                   "UCX_LOG_LEVEL": "info", "UCX_LOG_FILE": os.path.join(work, "ucx.%p.log")}
        r.section(f"{r.kind} over TCP on loopback {' '.join(f'{k}={v}' for k, v in env.items())}")
        r.table(2, ["--axis", "z", "--sizes", "16,24", "--check"] + FAST, env, rows=2,
                expect=["# check N=16 passed", "# check N=24 passed"])
        flags = ["--faces", "--sizes", "12", "--method", "rma", "--check"] + FAST
        if r.kind == "openmpi":
            # osc rdma makes no window over tcp (FINDINGS c): pt2pt, which the program's FUNNELED allows.
            print("note Open MPI over tcp: --method rma with OMPI_MCA_osc=pt2pt (osc rdma makes no window over tcp)")
            env = dict(env, OMPI_MCA_osc="pt2pt")
        r.table(2, flags, env, rows=1, expect=["method rma", "# check N=12 passed"])
        if r.kind == "mpich":
            r.cases += 1
            cfg = []
            for path in glob.glob(os.path.join(work, "ucx.*.log")):
                cfg += [l for l in open(path, errors="replace") if "ep_cfg" in l]
            remote = [l for l in cfg if "tcp/lo" in l]
            shm = [l for l in cfg if re.search(r"\b(sysv|posix|cma|xpmem|knem)/", l)]
            if not remote or shm:
                r.fail("MPICH over UCX tcp", "UCX's endpoints should use tcp/lo and no shared memory:\n" + "".join(cfg))
            else:
                print(f"ok   MPICH's UCX endpoints on tcp/lo only: {remote[0].split('ep_cfg')[1].strip()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe")
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--launcher-kind", choices=["auto", "openmpi", "mpich"], default="auto",
                    help="default: from `MPIEXEC --version`")
    ap.add_argument("--checker")
    ap.add_argument("--system-python", default="/usr/bin/python3")
    ap.add_argument("--tools")
    ap.add_argument("--scripts-dir", help="scripts/ (slurm_up.sh)")
    ap.add_argument("suite", choices=["slurm_up", "srun", "nodes", "network"])
    args = ap.parse_args()
    if args.suite == "slurm_up":
        return slurm_up(args)
    if not args.exe or not args.checker:
        ap.error("--exe and --checker are needed")
    r = Launch(args)
    if r.kind not in ("openmpi", "mpich"):
        skip(f"{args.mpiexec} is neither Open MPI's mpiexec nor MPICH's hydra")
    globals()[args.suite](r)
    print(f"{r.cases - r.failures} passed, {r.failures} failed")
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
