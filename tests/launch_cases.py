#!/usr/bin/env python3
"""Runs halo-bandwidth under the launchers a cluster uses, and judges each run
as run_cases.py does (every table through scripts/check_table.py).

Suites (one MPI per build: Open MPI 4 or 5, or a hydra-launched MPICH 4, MPICH 5 or Intel MPI, told
apart by `MPIEXEC --version`):
  slurm_up  the fixture: scripts/slurm_up.sh brings up a one-node Slurm, and --state FILE
            records whether it was up before
  slurm_down the fixture's clean-up: where slurm_up brought the cluster up, scripts/slurm_down.sh
            with PURGE=1 stops it and removes its folder and the /etc/slurm/slurm.conf link it
            made, and every one is checked gone; a cluster up before the suite is left running
  slurm_clean a cluster of its own in a fresh folder, on its own ports, brought up and torn down:
            nothing of it is left (daemons, folder, the config link)
  srun      srun --mpi=pmix (Open MPI) or --mpi=pmi2 (MPICH) -n 2; srun -O -n 4; bad
            input's exit code 2 through srun; OPENPFC_FD_PROC_GRID through the
            environment; every library under --mpi=none refused, and MPICH under
            --mpi=pmix refused (or, where it speaks PMIx, run whole and checked)
            (exit 2, one line)
  nodes     8 ranks as 2 simulated nodes of 4 and 12 as 3 of 4 (each node's daemon
            started through a fake ssh in a UTS namespace of its own, so MPI sees
            separate nodes: shared memory within, TCP between), --placement linear
            and nodes against OffNode_B and NodeOut_B counted by hand, then every
            --method across the 2 nodes, each on one placement in turn (linear, nodes,
            cart), with --check
  mismatch  this build started by Debian's launcher of the other kind (mpiexec.mpich for an Open MPI
            build, mpiexec.openmpi for MPICH and Intel MPI): each task alone, refused (exit 2, one line
            naming the launcher's tasks and the library), or the library stops in MPI_Init itself,
            naming the PMI it found, with no table
  network   the traffic forced onto TCP (Open MPI btl self,tcp on loopback; MPICH's
            netmod for local ranks too, UCX tcp only; Intel MPI's OFI with libfabric's tcp
            provider alone), with --check

Exit status 0 all passed, 1 some failed, 77 (ctest's SKIP_RETURN_CODE) when the
machine cannot do it: not root, no Slurm installed, unshare not permitted. Where
Slurm is installed but will not come up, that is a skip too, unless
HALOBW_REQUIRE_SLURM=1 (CI sets it): then it fails.
"""
import argparse
import glob
import json
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

def pid_alive(pid_file, name):
    """Whether a pid file names a live process called `name`."""
    try:
        pid = open(pid_file).read().strip()
        return open(f"/proc/{pid}/comm").read().strip() == name
    except OSError:
        return False


def slurm_up(args):
    script = os.path.join(args.scripts_dir, "slurm_up.sh")
    if args.state:
        # Whether this suite brings the cluster up (slurm_down then tears it down) or finds it up.
        up = pid_alive(os.path.join(SLURM_DIR, "slurmctld.pid"), "slurmctld")
        with open(args.state, "w") as f:
            f.write("was-up\n" if up else "started\n")
    if os.geteuid() != 0:
        skip("Slurm: not root, so no daemons can be started here (scripts/slurm_up.sh needs root)")
    if not shutil.which("srun") or not shutil.which("slurmctld", path=os.environ.get("PATH", "") + ":/usr/sbin"):
        if require_slurm():
            print("FAIL Slurm is not installed (scripts/setup.sh --tests host|mpich installs it), HALOBW_REQUIRE_SLURM=1")
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


def leftovers(folder, link_before):
    """What a cluster torn down in `folder` left behind: live daemons of its pid files, the folder,
    a /etc/slurm/slurm.conf link into it that was not there before."""
    left = [f"{name} (pid file {folder}/{name}.pid)" for name in ("slurmctld", "slurmd")
            if pid_alive(os.path.join(folder, f"{name}.pid"), name)]
    if os.path.exists(folder):
        left.append(f"the folder {folder}")
    link = "/etc/slurm/slurm.conf"
    if not link_before and os.path.islink(link) and os.readlink(link) == os.path.join(folder, "slurm.conf"):
        left.append(f"the link {link}")
    return left


def tear_down(args, folder, env=None):
    """scripts/slurm_down.sh with PURGE=1 on the cluster of `folder`; its output."""
    env = {**os.environ, **(env or {}), "HALOBW_SLURM_DIR": folder, "PURGE": "1"}
    p = subprocess.run(["bash", os.path.join(args.scripts_dir, "slurm_down.sh")], capture_output=True, text=True,
                       timeout=120, env=env)
    return p.stdout + p.stderr


def slurm_down(args):
    """The fixture's clean-up: a cluster that slurm_up brought up is stopped and removed."""
    state = open(args.state).read().strip() if args.state and os.path.exists(args.state) else ""
    if state != "started":
        print(f"ok   nothing to tear down: the cluster {'was up before the suite' if state else 'was not started'}")
        return 0
    os.remove(args.state)
    link_was_ours = os.path.islink("/etc/slurm/slurm.conf") and \
        os.readlink("/etc/slurm/slurm.conf") == SLURM_CONF
    sys.stdout.write(tear_down(args, SLURM_DIR))
    left = leftovers(SLURM_DIR, link_before=not link_was_ours)
    if left:
        print(f"FAIL left behind: {'; '.join(left)}")
        return 1
    print(f"ok   the cluster this suite started is stopped, {SLURM_DIR} and its config link removed")
    return 0


def slurm_clean(args):
    """A cluster of its own (a fresh folder, its own ports) up and down: nothing of it survives."""
    import tempfile
    if os.geteuid() != 0:
        skip("Slurm: not root")
    if not shutil.which("slurmctld", path=os.environ.get("PATH", "") + ":/usr/sbin"):
        skip("Slurm: not installed")
    folder = os.path.join(tempfile.mkdtemp(prefix="halobw-slurm-clean-"), "spool")
    link_before = os.path.lexists("/etc/slurm/slurm.conf")
    env = {"HALOBW_SLURM_DIR": folder, "HALOBW_SLURM_PORT": "6837"}
    try:
        p = subprocess.run(["bash", os.path.join(args.scripts_dir, "slurm_up.sh")], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, **env))
        sys.stdout.write(p.stdout + p.stderr)
        if p.returncode != 0:
            skip(f"Slurm did not come up (scripts/slurm_up.sh exit {p.returncode})")
        up = pid_alive(os.path.join(folder, "slurmctld.pid"), "slurmctld")
    finally:
        sys.stdout.write(tear_down(args, folder, env))
    left = leftovers(folder, link_before)
    shutil.rmtree(os.path.dirname(folder), ignore_errors=True)
    if not up or left:
        print(f"FAIL slurmctld up {up}; left behind: {'; '.join(left)}")
        return 1
    print(f"ok   a cluster in {folder} brought up and torn down: no daemon, folder or config link left")
    return 0


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
    # No PMI at all: a task either runs as a job of one rank, which the program must see
    # (SLURM_STEP_NUM_TASKS against MPI_Comm_size) and refuse, or its library stops in MPI_Init itself
    # (Debian's Open MPI 4.1: "direct launched using srun, but OMPI was not built with SLURM's PMI support").
    r.prefix = lambda ranks: ["srun", "-J", JOB_NAME, "--mpi=none", "-n", str(ranks)]
    r.section(f"{r.kind} under srun --mpi=none (no PMI)")
    refused_alone(r, f"{r.kind} under srun --mpi=none -n 2: refused", library_may_refuse=True)
    if r.kind == "mpich":
        # MPICH 4's PMI-1/2 client cannot talk to Slurm's PMIx: every task is a job of one rank, refused
        # as above; MPICH 5 and Intel MPI may see the PMIx and stop in MPI_Init themselves.
        r.prefix = lambda ranks: ["srun", "-J", JOB_NAME, "--mpi=pmix", "-n", str(ranks)]
        # Intel MPI 2021 reads Slurm's PMIx and runs the job whole: then the table must be the 2-rank one.
        r.section("mpich under srun --mpi=pmix (a PMI it may not speak)")
        refused_alone(r, "mpich under srun --mpi=pmix -n 2: refused", library_may_refuse=True, may_run_whole=True)


# What MPI_Get_library_version says first, by the build's kind: the refusal names the library.
LIBRARY_NAMES = {"openmpi": ("Open MPI",), "mpich": ("MPICH", "Intel(R) MPI")}


def refused_alone(r, what, env=None, library_may_refuse=False, may_run_whole=False):
    """2 tasks that each run alone (a launcher whose PMI the library does not speak): exit 2 and one line,
    from the launcher's first task, naming the launcher's 2 tasks and the library that sees 1 rank.
    `library_may_refuse`: or the library itself stops in MPI_Init, naming the PMI it found or lacks (MPICH 5
    under Open MPI's launcher: "unsupported PMI version PMIx"; Open MPI 4.1 under srun --mpi=none: "not built
    with SLURM's PMI support"), with no table and no line of ours.
    `may_run_whole`: or the library does speak that PMI, and the job runs as one of 2 ranks, checked.
    Intel MPI's own start-up warnings ("MPI startup(): PMI server not found ...") go to stdout: they are the
    library's, not a table, and are left out of the stdout that must stay empty."""
    r.cases += 1
    rc, out, err = r.run(2, ["--axis", "z", "--check", "--sizes", "16"], env)
    if may_run_whole and rc == 0 and "# ranks 2 nodes 1" in out and "# check N=16 passed" in out:
        print(f"ok   {what.replace('refused', 'runs whole')}: the library speaks this PMI: 2 ranks, check passed")
        return
    out = "\n".join(l for l in out.splitlines() if not l.startswith("MPI startup():"))
    ours = [l for l in err.splitlines() if l.startswith("halo-bandwidth")]
    init = [l for l in err.splitlines() if "PMI" in l and not l.startswith("halo-bandwidth")]
    if library_may_refuse and rc not in (0, None) and not ours and not out.strip() and init:
        print(f"ok   {what}: the library stops in MPI_Init (exit {rc}): {init[0].strip()}")
        return
    named = ours and "2 tasks" in ours[0] and "sees 1 rank" in ours[0] \
        and any(f"MPI ({n}" in ours[0] for n in LIBRARY_NAMES[r.kind])
    if rc != 2 or len(ours) != 1 or not named or out.strip():
        r.fail(what, f"exit {rc}, want 2 and one line naming 2 tasks and the library ({LIBRARY_NAMES[r.kind]}) "
                     f"that sees 1 rank; {len(ours)} error lines\nstdout:\n{out}\nstderr:\n{err}")
    else:
        print(f"ok   {what}: exit 2: {ours[0]}")


# ---------------------------------------------------------------- the other library's launcher

# Debian's launcher of the other kind, which starts each task of this build as a job of one rank.
OTHER_LAUNCHER = {"openmpi": "mpiexec.mpich", "mpich": "mpiexec.openmpi"}


def mismatch(r):
    other = shutil.which(OTHER_LAUNCHER[r.kind])
    if not other:
        skip(f"no {OTHER_LAUNCHER[r.kind]} here to start a {r.kind} build with the other kind's launcher "
             f"(scripts/setup.sh mpich installs MPICH beside Open MPI)")
    r.prefix = lambda ranks: [other, "-n", str(ranks)]
    r.section(f"{r.kind}'s build under {OTHER_LAUNCHER[r.kind]}")
    # Open MPI's launcher refuses root without these, whichever build it starts.
    refused_alone(r, f"{r.kind}'s build under {OTHER_LAUNCHER[r.kind]} -n 2: refused",
                  {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}, library_may_refuse=True)


# ---------------------------------------------------------------- simulated nodes

def unshare_ok():
    if not shutil.which("unshare"):
        return False
    p = subprocess.run(["unshare", "-u", "sh", "-c", "hostname halobw-probe"], capture_output=True)
    return p.returncode == 0


FAKE_SSH = r"""#!/bin/sh
# ssh to a simulated node: the command runs here, in a UTS namespace of its own
# named after the host's address (127.0.0.2 -> node0), so that each node has a
# daemon of its own and MPI sees separate nodes (shared memory within, TCP between).
while [ $# -gt 0 ]; do
  case "$1" in -l|-p|-o|-i) shift 2 ;; -*) shift ;; *) break ;; esac
done
host=$1; shift
name="node$(( ${host##*.} - 2 ))"
exec unshare -u sh -c "hostname $name && exec sh -c \"\$0\"" "$*"
"""


def launcher_version(mpiexec):
    """What `MPIEXEC --version` says: "OpenRTE" (Open MPI 4), "Open MPI" (5), "HYDRA" (MPICH),
    "Intel(R) MPI Library"."""
    p = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=30)
    return p.stdout + p.stderr


def node_launcher(r, ssh, nodes, per_node, counts=None):
    """The launcher's command line for `nodes` simulated nodes of `per_node` ranks (or of `counts[n]` ranks
    each), each node reached through the fake ssh, its daemon in a UTS namespace of its own."""
    hosts = ",".join(f"127.0.0.{2 + n}:{c}" for n, c in enumerate(counts or [per_node] * nodes))
    if r.kind == "openmpi":
        # Open MPI 4's ORTE wants --oversubscribe on fewer cores than ranks; Open MPI 5's PRRTE, told it,
        # maps every rank onto the first host: the slots given place the ranks, and binding to none lets
        # a node hold more of them than it has cores.
        orte = "OpenRTE" in launcher_version(r.mpiexec)
        over = ["--oversubscribe"] if orte else ["--bind-to", "none"]
        return lambda ranks: [r.mpiexec, "--host", hosts, "-n", str(ranks), *over, "--mca",
                              "plm_rsh_agent", ssh, "--mca", "plm_rsh_no_tree_spawn", "1"]
    if "Intel(R) MPI Library" in launcher_version(r.mpiexec):
        # Intel MPI's hydra places a host's cores' worth of ranks (I_MPI_PERHOST=allcores) whatever
        # `-hosts h:n` says; a machine file's `host:n` lines give each node its ranks.
        machines = os.path.join(os.path.dirname(ssh), "machines")
        with open(machines, "w") as f:
            f.write("".join(f"{h}\n" for h in hosts.split(",")))
        return lambda ranks: [r.mpiexec, "-launcher", "ssh", "-launcher-exec", ssh, "-machinefile", machines,
                              "-n", str(ranks)]
    return lambda ranks: [r.mpiexec, "-launcher", "ssh", "-launcher-exec", ssh, "-hosts", hosts, "-n", str(ranks)]


def rows_of(out):
    """The table's rows as dicts, under the last column line (it starts with N, L or Global, whichever
    names the row's size; notes such as the check's may sit between it and the rows)."""
    lines = out.splitlines()
    heads = [l for l in lines if re.match(r"# (N|L|Global) Send_B ", l)]
    if not heads:
        return []
    cols = heads[-1][2:].split()
    return [dict(zip(cols, l.split())) for l in lines if l and not l.startswith("#")]


# Off-node bytes counted by hand (tests/test_pieces.cpp, Placement.*): each case is the ranks,
# the nodes, the grid, the size and, per placement, OffNode_B and NodeOut_B.
NODE_CASES = [
    # 8 ranks as 2 nodes of 4 on 2x2x2, N = 16: bricks 8^3, faces 512 B; either placement sends two faces
    # of every rank off its node (the z faces in rank order, the x faces with a 1x2x2 block per node).
    (8, 2, "2,2,2", "16", {"linear": (1024, 4096), "nodes": (1024, 4096)}),
    # 12 ranks as 3 nodes of 4 on 3x2x2, 12x8x8: bricks 4^3, faces 128 B; in rank order rank 4 sends 5 of
    # its 6 faces off node 1 (640 B, 4 x 640 for the node); a 1x2x2 block per node sends only the x faces.
    (12, 3, "3,2,2", "12x8x8", {"linear": (640, 2560), "nodes": (256, 1024)}),
    # 4 ranks as 2 nodes of 2 on 2x2x1, 16x32x16: bricks 8x16x16, an x face 2048 B, a y face 1024 B. Rank order
    # holds an x pair per node (the y faces leave); nodes picks the same 2x1x1 block, by the bytes that leave the
    # node, where the least surface in ranks picked 1x2x1 (the x faces leaving, twice the bytes).
    (4, 2, "2,2,1", "16x32x16", {"linear": (2048, 4096), "nodes": (2048, 4096)}),
]


def nodes(r):
    if not unshare_ok():
        skip("simulated nodes: `unshare -u` is not permitted here (it needs root or CAP_SYS_ADMIN)")
    work = tempfile.mkdtemp(prefix="halobw-nodes-")
    ssh = os.path.join(work, "ssh")
    with open(ssh, "w") as f:
        f.write(FAKE_SSH)
    os.chmod(ssh, 0o755)
    try:
        for ranks, count, grid, size, want in NODE_CASES:
            per = ranks // count
            r.prefix = node_launcher(r, ssh, count, per)
            r.section(f"{r.kind}, {ranks} ranks as {count} simulated nodes of {per}", ranks)
            for placement, (offnode, node_out) in want.items():
                placed_nodes(r, ranks, count, grid, size, placement, offnode, node_out)
        uneven_nodes(r, ssh)
        # The host's default pack is datatype; where this library gets a method wrong with it (refused in one
        # line, e2e/methods), that method crosses the nodes with packed messages.
        methods = [m for m in r.choices("--method") if not r.lacks(m)]
        packs = {m: ["--pack", "kernel"] if r.refuses(m, "datatype") else [] for m in methods}
        r.prefix = node_launcher(r, ssh, 2, 2)
        r.section(f"{r.kind}, 4 ranks as 2 simulated nodes, every method", 4)
        # Each method on one placement, the three in turn (NODE_CASES count linear and nodes by hand): a
        # method sees only the communicator a placement makes, so one each spares 12 runs per library.
        for i, method in enumerate(methods):
            placement = ("nodes", "cart", "linear")[i % 3]
            flags = ["--faces", "--sizes", "12", "--method", method, "--placement", placement, "--check"] \
                + packs[method] + FAST
            what = f"-n 4 on 2 nodes --method {method} --placement {placement}"
            env = run_cases.rma_env(r, 4, flags, what) if method == "rma" else {}
            out = r.table(4, flags, env, rows=1, expect=[f"method {method}", "# check N=12 passed"])
            expect_nodes(r, out, 4, 2, what)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        r.prefix = r.launch


def uneven_nodes(r, ssh):
    """Nodes of 4 and 2 ranks: --placement nodes, asked for, falls back to linear with one warning on stderr
    and the same words in the header, and the run measures on the placement it used (exit 0, --check)."""
    r.prefix = node_launcher(r, ssh, 2, 0, counts=[4, 2])
    r.section(f"{r.kind}, 6 ranks as simulated nodes of 4 and 2", 6)
    why = "placement nodes fell back to linear: the nodes hold different numbers of ranks (4 and 2)"
    flags = ["--faces", "--sizes", "12", "--placement", "nodes", "--check"] + FAST
    out = r.table(6, flags, rows=1, expect=["# " + why, "# check N=12 passed", "# ranks 6 nodes 2 "])
    if not out:
        return
    r.cases += 1
    warned = [l for l in r.last_err.splitlines() if l.startswith("halo-bandwidth")]
    if warned != [f"halo-bandwidth: warning: {why}"]:
        r.fail("nodes of 4 and 2 ranks", f"want one warning '{why}' on stderr, got {warned}")
    else:
        print(f"ok   nodes of 4 and 2 ranks: {warned[0]}")


def placed_nodes(r, ranks, count, grid, size, placement, offnode, node_out):
    """One placement on simulated nodes: the counts by hand, the node grid it says, --check."""
    flags = ["--faces", "--grid", grid, "--sizes", size, "--placement", placement, "--check"] + FAST
    what = f"-n {ranks} on {count} nodes --grid {grid} --sizes {size} --placement {placement}"
    # The note names the row by its size column: N for a cube, Global for a box of extents.
    label = f"N={size}" if "x" not in size else f"Global={size}"
    out = r.table(ranks, flags, rows=1, expect=[f"# check {label} passed"])
    expect_nodes(r, out, ranks, count, what)
    if not out:
        return
    r.cases += 1
    row = rows_of(out)[0]
    problems = []
    if int(row.get("OffNode_B", -1)) != offnode:
        problems.append(f"OffNode_B {row.get('OffNode_B')}, counted by hand {offnode}")
    note = [l for l in out.splitlines() if l.startswith("# placement ")]
    if placement == "nodes" and not (note and "each holding a " in note[0]):
        problems.append(f"the header does not name the node grid: {note}")
    path = os.path.join(tempfile.mkdtemp(prefix="halobw-node-json-"), "r.json")
    rc, _, err = r.run(ranks, flags + ["--format", "json", "--output", path])
    try:
        doc = json.load(open(path)) if rc == 0 else {}
        got = doc.get("rows", [{}])[0]
        if got.get("OffNode_B") != offnode or got.get("NodeOut_B") != node_out:
            problems.append(f"JSON OffNode_B {got.get('OffNode_B')} NodeOut_B {got.get('NodeOut_B')}, "
                            f"counted by hand {offnode} and {node_out}")
        if doc.get("run", {}).get("placement") != placement:
            problems.append(f"JSON placement {doc.get('run', {}).get('placement')}")
    except (OSError, ValueError) as e:
        problems.append(f"exit {rc}, no JSON: {e}\n{err}")
    finally:
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    if problems:
        r.fail(what, "; ".join(problems) + "\n" + out)
    else:
        print(f"ok   {what}: OffNode_B {offnode}, NodeOut_B {node_out}, as counted by hand")



def expect_nodes(r, out, ranks, count, what):
    """The header names the nodes and every rank's host; some face crosses them."""
    if not out:
        return
    per = ranks // count
    hosts = " ".join(f"{i}:node{i // per}" for i in range(ranks))
    if f"# ranks {ranks} nodes {count} " not in out:
        r.fail(what, f"header does not say 'ranks {ranks} nodes {count}'\n{out}")
    elif f"# rank_host {hosts}\n" not in out:
        r.fail(what, f"want '# rank_host {hosts}'\n{out}")
    elif not all(int(row["OffNodeFaces"]) > 0 and int(row["OffNode_B"]) > 0 for row in rows_of(out)):
        r.fail(what, f"OffNodeFaces and OffNode_B should be positive on {count} nodes\n{out}")


# ---------------------------------------------------------------- forced network stack



def network(r):
    work = tempfile.mkdtemp(prefix="halobw-network-")
    intel = r.kind == "mpich" and "Intel(R) MPI Library" in launcher_version(r.mpiexec)
    try:
        r.prefix = r.launch
        if r.kind == "openmpi":
            # No shared memory: the tcp btl, on loopback (its default excludes 127.0.0.0/8).
            r.prefix = lambda ranks: r.launch(ranks) + ["--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"]
            env = {}
        elif intel:
            # Intel MPI: OFI for local ranks too (no shm), on libfabric's tcp provider alone.
            env = {"I_MPI_FABRICS": "ofi", "FI_PROVIDER": "tcp"}
        else:
            # ch4:ucx: the netmod for local ranks too, and UCX on TCP alone (over lo where it can);
            # its log names the transports.
            env = {"MPIR_CVAR_NOLOCAL": "1", "UCX_TLS": "tcp,self",
                   "UCX_LOG_LEVEL": "info", "UCX_LOG_FILE": os.path.join(work, "ucx.%p.log")}
            if ucx_on_lo(r):
                env["UCX_NET_DEVICES"] = "lo"
        r.section(f"{r.kind} over TCP {' '.join(f'{k}={v}' for k, v in env.items())}")
        # MPIR_CVAR_NOLOCAL makes each rank a node of its own for MPI, on one host: the header says so, and
        # the z faces count as off-node (check_table follows the rank_node note).
        nolocal = ["# ranks 2 nodes 2 ", "# rank_node 0:0 1:1 (MPI_COMM_TYPE_SHARED makes 2 nodes"] \
            if "MPIR_CVAR_NOLOCAL" in env else ["# ranks 2 nodes 1 "]
        r.table(2, ["--axis", "z", "--sizes", "16,24", "--check"] + FAST, env, rows=2,
                expect=["# check N=16 passed", "# check N=24 passed"] + nolocal)
        flags = ["--faces", "--sizes", "12", "--method", "rma", "--check"] + FAST
        if "OpenRTE" in launcher_version(r.mpiexec):
            # Open MPI 4's osc rdma makes no window over tcp (FINDINGS c): pt2pt, which the program's
            # FUNNELED allows. Open MPI 5 has no pt2pt, and its osc rdma makes one.
            print("note Open MPI over tcp: --method rma with OMPI_MCA_osc=pt2pt (osc rdma makes no window over tcp)")
            env = dict(env, OMPI_MCA_osc="pt2pt")
        r.table(2, flags, env, rows=1, expect=["method rma", "# check N=12 passed"])
        if intel:
            provider_is_tcp(r, env)
        elif r.kind == "mpich":
            r.cases += 1
            cfg = []
            for path in glob.glob(os.path.join(work, "ucx.*.log")):
                # UCX 1.1x logs each endpoint's "ep_cfg", UCX 1.20 each worker's "cfg#N tag(...)".
                cfg += [l for l in open(path, errors="replace") if "ep_cfg" in l or re.search(r"\bcfg#\d", l)]
            remote = [l for l in cfg if "tcp/" in l]
            shm = [l for l in cfg if re.search(r"\b(sysv|posix|cma|xpmem|knem)/", l)]
            if not remote or shm:
                r.fail("MPICH over UCX tcp", "UCX's endpoints should use tcp and no shared memory:\n" + "".join(cfg))
            else:
                print(f"ok   MPICH's UCX endpoints on tcp only: {re.split(r'ep_cfg|ucp_context_[0-9]+', remote[0])[-1].strip()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def ucx_on_lo(r):
    """Whether this build's UCX reaches a peer over lo: Debian's (1.13) does; the UCX 1.20 that MPICH 5's
    wheel carries in its lib/mpich/ does not ("Destination is unreachable")."""
    return not os.path.exists(os.path.join(os.path.dirname(r.mpiexec), "..", "lib", "mpich", "libucp.so.0"))


def provider_is_tcp(r, env):
    """Intel MPI's own start-up log (I_MPI_DEBUG=5) names the libfabric provider it used: tcp."""
    r.cases += 1
    rc, out, err = r.run(2, ["--axis", "z", "--sizes", "16"] + FAST, dict(env, I_MPI_DEBUG="5"))
    used = [l for l in (out + err).splitlines() if "libfabric provider:" in l]
    if rc != 0 or not used or "tcp" not in used[0]:
        r.fail("Intel MPI over libfabric tcp", f"exit {rc}, want the provider tcp in I_MPI_DEBUG's log: {used}\n{err}")
    else:
        print(f"ok   Intel MPI's {used[0].split('): ', 1)[-1]}")


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
    ap.add_argument("--state", help="slurm_up, slurm_down: the file that says whether slurm_up started it")
    ap.add_argument("suite", choices=["slurm_up", "slurm_down", "slurm_clean", "srun", "nodes", "network",
                                      "mismatch"])
    args = ap.parse_args()
    run_cases.private_tmp(args.suite)
    if args.suite in ("slurm_up", "slurm_down", "slurm_clean"):
        return globals()[args.suite](args)
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
