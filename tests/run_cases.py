#!/usr/bin/env python3
"""Runs halo-bandwidth end to end under mpiexec and judges each run.

Suites:
  seed        001's checker cases at N = 16 and 32, each through scripts/check_table.py
  uneven      sizes that do not divide (Send_min_B), 1, 4 and 8 ranks, the env grid
  transports  --pack kernel (direct), staged, --self mpi, with --check
  bad_input   every rejected input: exit code 2, one error line, no row, no hang
  results     results a user can trust (issues 19, 29): an existing file survives a refused run
              byte for byte, and is replaced by a document with no row and status failed when
              the run fails before its first row; a run that fails after a row (exit 1, exit 4)
              leaves a valid document (schema, reader, exact CSV) with the rows and the status,
              which compare and plot warn of; --output /dev/full exits 3 with one line and the
              table's '# run failed' line; /sys, /proc and a folder where no file can be created
              are refused before measuring; the nothing-crossed warning exactly when no row has a
              remote byte
  readme      the README's "What it prints" command, run: every '#' line it shows is printed
"""
import argparse
import atexit
import csv
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile

TIMEOUT = 120
FAST = ["--iters", "10", "--warmup", "2"]


def launcher_kind(mpiexec):
    """'openmpi' (Open MPI 4's orterun, 5's prterun), 'mpich' (hydra: MPICH's, or Intel MPI's,
    which says "Intel(R) MPI Library"), or 'other', from `mpiexec --version`."""
    try:
        p = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=30)
        text = p.stdout + p.stderr
    except (OSError, subprocess.TimeoutExpired):
        return "other"
    if "Open MPI" in text or "OpenRTE" in text or "PRRTE" in text:
        return "openmpi"
    if "HYDRA" in text or "Intel(R) MPI Library" in text:
        return "mpich"
    return "other"


def launch_prefix(mpiexec, kind, ranks):
    """The launcher for `ranks` ranks on a machine that may have fewer cores:
    Open MPI needs --oversubscribe; hydra places any number of ranks as is."""
    cmd = [mpiexec, "-n", str(ranks)]
    if kind == "openmpi":
        cmd.append("--oversubscribe")
    return cmd


def mpmd_section(kind, ranks, env, argv):
    """One section of an MPMD command line with its own environment:
    Open MPI `-x VAR=VAL`, hydra `-env VAR VAL` (local to the section)."""
    cmd = ["-n", str(ranks)]
    for var, value in env.items():
        cmd += ["-x", f"{var}={value}"] if kind == "openmpi" else ["-env", var, value]
    return cmd + argv


class Runner:
    def __init__(self, args):
        self.exe, self.mpiexec, self.checker = args.exe, args.mpiexec, args.checker
        self.python, self.tools = args.system_python, args.tools
        # From the command line (run_cases.py --launcher-kind), else asked of the launcher.
        kind = getattr(args, "launcher_kind", None)
        self.kind = kind if kind and kind != "auto" else launcher_kind(self.mpiexec)
        self.failures = 0
        self.cases = 0
        import threading
        self.lock = threading.Lock()

    def launch(self, ranks):
        """The launcher's command line for `ranks` ranks, up to the executable."""
        return launch_prefix(self.mpiexec, self.kind, ranks)

    def run(self, ranks, flags, env=None):
        cmd = self.launch(ranks) + [self.exe] + flags
        full_env = dict(os.environ, **(env or {}))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=full_env)
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {TIMEOUT} s"
        return p.returncode, p.stdout, p.stderr

    def fail(self, what, detail):
        with self.lock:
            self.failures += 1
            print(f"FAIL {what}\n{detail}", file=sys.stderr)

    def table(self, ranks, flags, env=None, rows=None, expect=()):
        """A run that must succeed, pass the checker, and contain `expect` lines."""
        self.cases += 1
        what = f"-n {ranks} {' '.join(flags)} {env or ''}"
        rc, out, err = self.run(ranks, flags, env)
        if rc != 0:
            return self.fail(what, f"exit {rc}\n{out}\n{err}")
        chk = subprocess.run([sys.executable, self.checker], input=out, capture_output=True, text=True)
        if chk.returncode != 0:
            return self.fail(what, out + chk.stderr)
        data = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rows is not None and len(data) != rows:
            return self.fail(what, f"{len(data)} rows, want {rows}\n{out}")
        for text in expect:
            if text not in out:
                return self.fail(what, f"missing '{text}'\n{out}")
        print(f"ok   {what}: {chk.stdout.strip()}")
        self.last_err = err
        return out

    def choices(self, flag):
        """The names --help offers for `flag` (the binary's one table of them)."""
        if not hasattr(self, "help_text"):
            self.help_text = subprocess.run([self.exe, "--help"], capture_output=True, text=True,
                                            env=dict(os.environ, COLUMNS="200")).stdout
        found = re.search(rf"^\s+{re.escape(flag)} ([A-Za-z0-9_/-]+(?:\|[A-Za-z0-9_/-]+)+)", self.help_text, re.M)
        return found.group(1).split("|") if found else []

    def lacks(self, method):
        """The one line refusing `method` where this MPI library lacks it (exit 2 at set-up), else None.
        Asked once per method with a 1-rank run."""
        if not hasattr(self, "refusals"):
            self.refusals = {}
        if method not in self.refusals:
            rc, out, err = self.run(1, ["--axis", "z", "--sizes", "4", "--iters", "1", "--warmup", "0",
                                        "--method", method])
            ours = [l for l in err.splitlines() if l.startswith("halo-bandwidth")]
            refused = rc == 2 and len(ours) == 1 and f"--method {method}: " in ours[0] and " lacks " in ours[0]
            self.refusals[method] = ours[0] if refused else None
        return self.refusals[method]

    def refuses(self, method, pack):
        """The one line refusing `method` with `pack` where this MPI library has the method but gets the pair
        wrong (exit 2 at set-up), else None. Asked once per pair with a 1-rank run."""
        if not hasattr(self, "pair_refusals"):
            self.pair_refusals = {}
        if (method, pack) not in self.pair_refusals:
            rc, out, err = self.run(1, ["--axis", "z", "--sizes", "4", "--iters", "1", "--warmup", "0",
                                        "--method", method, "--pack", pack])
            ours = [l for l in err.splitlines() if l.startswith("halo-bandwidth")]
            refused = rc == 2 and len(ours) == 1 and f"--method {method} --pack {pack}: " in ours[0]
            self.pair_refusals[(method, pack)] = ours[0] if refused else None
        return self.pair_refusals[(method, pack)]

    def rejected(self, ranks, flags, fragment, env=None):
        """A run that must end with exit code 2, one error line naming `fragment`, no row."""
        with self.lock:
            self.cases += 1
        what = f"-n {ranks} {' '.join(flags)} {env or ''}"
        rc, out, err = self.run(ranks, flags, env)
        ours = [l for l in err.splitlines() if l.startswith("halo-bandwidth")]
        rows = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rc != 2 or len(ours) != 1 or fragment not in ours[0] or rows or out.strip():
            return self.fail(what, f"exit {rc}, want 2; error lines {ours}; stdout:\n{out}\nstderr:\n{err}")
        print(f"ok   {what}: {ours[0]}")


def seed(r):
    for flags in (["--axis", "z"],
                  ["--axis", "x", "--grid", "2,1,1"],
                  ["--axis", "y", "--grid", "2,1,1"],
                  ["--axis", "z", "--grid", "1,1,2"],
                  ["--faces", "--halo", "2", "--grid", "2,1,1"]):
        r.table(2, flags + ["--sizes", "16,32", "--check"] + FAST, rows=2,
                expect=["# check N=16 passed", "# check N=32 passed"])
    out = r.table(2, ["--axis", "z", "--sizes", "64,128,256"] + FAST, rows=3)
    if out and "\n64 65536 " not in out:
        r.fail("seed row", "N=64 on 1x1x2 must send 65536 bytes\n" + out)
    r.table(2, ["--sizes", "16"] + FAST, rows=1,
            expect=["# nothing crosses ranks, Send_B is 0: on grid 1x1x2 the \u00b1x faces wrap to the same rank; "
                    "use --axis z or --grid 2,1,1"])


def uneven(r):
    r.table(4, ["--faces", "--halo", "2", "--sizes", "17,18,16", "--check"] + FAST, rows=3,
            expect=["Send_min_B"])
    r.table(8, ["--faces", "--sizes", "13", "--check", "--pack", "kernel"] + FAST, rows=1)
    r.table(1, ["--faces", "--sizes", "9,16", "--check", "--halo", "3"] + FAST, rows=2,
            expect=["# nothing crosses ranks, Send_B is 0: on grid 1x1x1 the six faces wrap to the one rank; "
                    "run on more ranks"])
    r.table(4, ["--axis", "y", "--sizes", "10", "--check"] + FAST, {"OPENPFC_FD_PROC_GRID": "1,4,1"},
            rows=1, expect=["grid 1x4x1", "grid_source OPENPFC_FD_PROC_GRID"])
    r.table(4, ["--axis", "x", "--sizes", "10", "--grid", "4,1,1"] + FAST, {"OPENPFC_FD_PROC_GRID": "1,4,1"},
            rows=1, expect=["grid 4x1x1", "grid_source --grid"])


def transports(r):
    for ranks in (2, 4):
        r.table(ranks, ["--faces", "--sizes", "12,15", "--check", "--pack", "kernel"] + FAST, rows=2,
                expect=["contiguous 1", "transport direct"])
        r.table(ranks, ["--faces", "--sizes", "12,15", "--check", "--pack", "kernel", "--gpu-aware", "off"] + FAST,
                rows=2, expect=["gpu_aware 0 contiguous 1", "transport staged"])
        r.table(ranks, ["--faces", "--sizes", "12", "--check", "--self", "mpi", "--halo", "2"] + FAST, rows=1,
                expect=["self mpi", "contiguous 0"])
        r.table(ranks, ["--faces", "--sizes", "12", "--check", "--self", "mpi", "--pack", "kernel"] + FAST,
                rows=1, expect=["self mpi", "transport direct"])


def phases(r):
    """--breakdown, --limit, --repeats: columns present, non-negative and
    consistent; the standard columns unchanged. Structural only: no timing
    ratio is asserted (a loaded machine makes any of them fail)."""
    for ranks, flags in ((1, ["--faces"]), (2, ["--axis", "z"]), (4, ["--faces"])):
        for pack in (["--pack", "datatype"], ["--pack", "kernel"], ["--pack", "kernel", "--gpu-aware", "off"]):
            base = flags + pack + ["--sizes", "24,32", "--iters", "20", "--warmup", "2"]
            out = r.table(ranks, base + ["--breakdown", "--limit", "--repeats", "3", "--check"], rows=2,
                          expect=["Min_us Max_us Pack_us Mpi_us Stage_us Unpack_us Xfer_us Xfer_GBps Eff Copy_GBps "
                                  "Peer_GBps",
                                  "Peer_GBps = Send_B / time of a direct copy"])
            if not out:
                continue
            plain = r.table(ranks, base, rows=2)
            cols = [l for l in out.splitlines() if l.startswith("# N ")][0][2:].split()
            for line in [l for l in out.splitlines() if l and not l.startswith("#")]:
                row = dict(zip(cols, line.split()))
                what = f"-n {ranks} {' '.join(base)}: row {line}"
                for name in ("Time_us", "Min_us", "Max_us", "Pack_us", "Xfer_us", "Stage_us", "Unpack_us",
                             "Xfer_GBps"):
                    if not float(row[name]) >= 0:
                        r.fail(what, f"{name} {row[name]} is negative")
                if int(row["Send_B"]) > 0:
                    if row["Eff"] == "n/a" or float(row["Eff"]) < 0:
                        r.fail(what, f"Eff {row['Eff']} with Send_B > 0")
                    if not float(row["Copy_GBps"]) > 0:
                        r.fail(what, "Copy_GBps not positive")
                elif row["Eff"] != "n/a":
                    r.fail(what, "Eff must be n/a when nothing is sent")
                if "kernel" not in pack and float(row["Pack_us"]) != 0.0:
                    r.fail(what, "Pack_us must be 0 on the datatype path")
                if "off" not in pack and float(row["Stage_us"]) != 0.0:
                    r.fail(what, "Stage_us must be 0 without staging")
                if row["Peer_GBps"] != "n/a":
                    r.fail(what, "Peer_GBps must be n/a on the host backend")
            # The standard columns mean the same with and without the new flags.
            if plain:
                std = lambda text: [l.split()[:2] + l.split()[5:8] for l in text.splitlines() if l and not l.startswith("#")]
                if std(out) != std(plain):
                    r.fail(f"-n {ranks} {' '.join(base)}", "Send_B and face counts changed with --breakdown")


def formats(r):
    """CSV and JSON on 1, 2 and 4 ranks, parsed back; CSV rows equal the table's."""
    work = tempfile.mkdtemp(prefix="halobw-formats-")
    try:
        for ranks in (1, 2, 4):
            base = ["--faces", "--sizes", "12,17", "--check"] + FAST
            for extra in ([], ["--breakdown", "--limit", "--repeats", "2", "--pack", "kernel"]):
                csv_path = os.path.join(work, f"r{ranks}{len(extra)}.csv")
                json_path = os.path.join(work, f"r{ranks}{len(extra)}.json")
                table = r.table(ranks, base + extra + ["--format", "csv", "--output", csv_path], rows=2)
                r.cases += 1
                what = f"-n {ranks} formats {' '.join(extra)}"
                rc, out, err = r.run(ranks, base + extra + ["--format", "json", "--output", json_path, "--quiet"])
                # --quiet: nothing on stdout; on stderr only the warning that one rank sends nothing.
                warned = ("halo-bandwidth: warning: nothing crossed ranks: on grid 1x1x1 the six faces wrap to "
                          "the one rank; run on more ranks\n") if ranks == 1 else ""
                if rc != 0 or out or err != warned:
                    r.fail(what, f"--quiet: exit {rc}, stdout '{out}', stderr '{err}', want '{warned}'")
                    continue
                v = subprocess.run([r.python, r.tools, "--scripts-dir", os.path.dirname(r.checker),
                                    "--schema", r.schema, "--only", "schema", "--validate", json_path, csv_path],
                                   capture_output=True, text=True)
                if v.returncode != 0:
                    r.fail(what, v.stdout + v.stderr)
                    continue
                # The CSV carries the table's numbers, column for column.
                cols = [l for l in table.splitlines() if l.startswith("# N ")][0][2:].split()
                trows = [dict(zip(cols, l.split())) for l in table.splitlines() if l and not l.startswith("#")]
                # A plain CSV: any reader opens it as it is, no comment lines to filter.
                crows = list(csv.DictReader(open(csv_path, newline="")))
                doc = json.load(open(json_path))
                if len(crows) != len(trows) or len(doc["rows"]) != len(trows):
                    r.fail(what, f"{len(trows)} table rows, {len(crows)} CSV rows, {len(doc['rows'])} JSON rows")
                    continue
                for t, c, j in zip(trows, crows, doc["rows"]):
                    for name, value in t.items():
                        # The table's "n/a" is an empty CSV cell outside Eff and Peer_GBps.
                        if c[name] != value and not (value == "n/a" and c[name] == ""):
                            r.fail(what, f"{name}: table {value}, CSV {c[name]}")
                    # A separate run: the timings differ, the counts may not.
                    if [int(t[k]) for k in ("N", "Send_B", "RemoteFaces", "SelfFaces", "OffNodeFaces")] != \
                            [j[k] for k in ("N", "Send_B", "RemoteFaces", "SelfFaces", "OffNodeFaces")]:
                        r.fail(what, f"JSON row {j} against table row {t}")
                    if c["ranks"] != str(ranks) or doc["run"]["ranks"] != ranks:
                        r.fail(what, "ranks not carried")
                # The provenance rides in the last columns, the same on every row.
                if any(l.startswith("#") for l in open(csv_path)):
                    r.fail(what, "the CSV has comment lines")
                first = crows[0] if crows else {}
                for key, start in (("command_line", "halo-bandwidth --faces"), ("start_utc", "20"),
                                   ("build", ""), ("mpi_library", ""), ("mpi_thread", "MPI_THREAD_"),
                                   ("hosts", f"{socket.gethostname()} ranks 0"),
                                   ("environment", "OPENPFC_FD_PROC_GRID=")):
                    if not first.get(key, "").startswith(start) or not first.get(key) or \
                            any(c[key] != first[key] for c in crows):
                        r.fail(what, f"CSV provenance column {key}: {[c.get(key) for c in crows]}")
                if doc["run"]["grid_source"] != "auto" or not doc["program"]["mpi_library"]:
                    r.fail(what, f"provenance: {doc['run']}")
                # A measured run says it was not simulated: simulator none, nothing else.
                sims = {(c["simulator"], c["simulator_version"], c["platform"], c["platform_sha256"]) for c in crows}
                if sims != {("none", "", "", "")} or doc["schema_version"] != 4 or doc["run"]["simulator"] != {
                        "engine": "none", "version": None, "platform": None, "platform_sha256": None}:
                    r.fail(what, f"simulator: CSV {sims}, JSON {doc['run'].get('simulator')}")
                print(f"ok   {what}: CSV and JSON parsed back, CSV rows equal the table's")
        # A JSON document on stdout, and no progress text where stderr is not a terminal.
        rc, out, err = r.run(2, ["--axis", "z", "--sizes", "12", "--format", "json"] + FAST)
        r.cases += 1
        try:
            ok = rc == 0 and json.loads(out)["rows"][0]["N"] == 12 and err == ""
        except ValueError:
            ok = False
        if not ok:
            r.fail("json on stdout, clean stderr", f"exit {rc}\n{out}\n{err}")
        else:
            print("ok   --format json on stdout; nothing on stderr in a pipe")
        # On a terminal, rank 0 shows progress on stderr.
        if shutil.which("script"):
            r.cases += 1
            cmd = " ".join(r.launch(2) + [r.exe, "--axis", "z", "--sizes", "12,16",
                                          "--output", os.path.join(work, "p.csv"), "--format", "csv", "--quiet"] + FAST)
            p = subprocess.run(["script", "-qec", cmd + " 1>/dev/null", "/dev/null"], capture_output=True, text=True,
                               timeout=120, env=dict(os.environ))
            if "size 2 of 2, N=16" not in p.stdout:
                r.fail("progress on a terminal", p.stdout + p.stderr)
            else:
                print("ok   progress on a terminal: 'size 2 of 2, N=16' shown")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def faults(r):
    """Injected faults end with a message naming what failed: a hang (one rank
    never sends) under --timeout, on p2p and on each MPI-4 method the library
    has, and an MPI error (a send to a rank that does not exist). The watchdog runs out of band, so every stuck rank names what
    it waits for; the ranks waiting on the silent one name it. No wall-clock
    bound: the runner's own timeout catches a run that never ends."""
    for ranks in (2, 4):
        for flags in (["--axis", "z"], ["--faces", "--pack", "kernel", "--check"]):
            r.cases += 1
            silent = ranks - 1
            what = f"-n {ranks} skip sends {' '.join(flags)}"
            rc, out, err = r.run(ranks, flags + ["--sizes", "16", "--timeout", "2"],
                                 {"HALOBW_TEST_HOOK_SKIP_SENDS": str(silent)})
            lines = [l for l in err.splitlines() if l.startswith("halo-bandwidth: timeout on rank")]
            phase = "N=16 --check exchange" if "--check" in flags else "N=16 warm-up and timed exchanges"
            # Any rank's line that names the silent peer in the phase of the fault.
            named = [l for l in lines if phase in l
                     and re.search(rf"ghost (face|faces|edges|corners|pieces) from rank {silent} \(receive, tag", l)
                     and " after 2 s in MPI_Wait" in l]
            if rc != 4 or not named or not all("N=16" in l for l in lines):
                r.fail(what, f"exit {rc}, want 4\n{err}")
            else:
                print(f"ok   {what}: exit {rc}: {named[0]}")
    # The MPI-4 methods, where the library has them: the watchdog names each partition still missing, and what
    # the persistent collective carries.
    for method, flags, said in (("partitioned", ["--pack", "kernel", "--schedule", "pipelined"],
                                 r"in MPI_Testany: .*ghost faces from rank 1 \(receive, tag \d+\), partition 1 of \d+"),
                                ("neighbor-persistent", [], r"in MPI_Wait: .*ghost faces from rank 1 \(receive, tag")):
        if r.lacks(method):
            continue
        r.cases += 1
        what = f"-n 2 --method {method} skip sends"
        rc, out, err = r.run(2, ["--axis", "z", "--method", method, "--sizes", "16", "--timeout", "2"] + flags,
                             {"HALOBW_TEST_HOOK_SKIP_SENDS": "1"})
        named = [l for l in err.splitlines() if l.startswith("halo-bandwidth: timeout on rank 0") and re.search(said, l)]
        if rc != 4 or not named:
            r.fail(what, f"exit {rc}, want 4 and a line matching {said}\n{err}")
        else:
            print(f"ok   {what}: exit {rc}: {named[0][:160]}")
    for ranks, flags in ((2, ["--axis", "z"]), (4, ["--faces", "--pack", "kernel", "--gpu-aware", "off"])):
        r.cases += 1
        what = f"-n {ranks} --check finds a spoiled ghost cell {' '.join(flags)}"
        rc, out, err = r.run(ranks, flags + ["--sizes", "16", "--check"], {"HALOBW_TEST_HOOK_CORRUPT": "1"})
        lines = [l for l in err.splitlines() if l.startswith("halo-bandwidth:")]
        want = "halo-bandwidth: check N=16 failed: rank 1 face "
        rows = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rc != 1 or len(lines) != 1 or not lines[0].startswith(want) or "found 12345" not in lines[0] or rows:
            r.fail(what, f"exit {rc}\n{out}\n{err}")
        else:
            print(f"ok   {what}: exit 1: {lines[0]}")
    for ranks in (2, 4):
        r.cases += 1
        what = f"-n {ranks} send to a rank that does not exist"
        rc, out, err = r.run(ranks, ["--axis", "z", "--sizes", "16"], {"HALOBW_TEST_HOOK_BAD_PEER": "1"})
        want = f"halo-bandwidth: error on rank 1: MPI_Isend failed (peer rank {ranks}): MPI_ERR_RANK"
        if rc in (0, None) or want not in err:
            r.fail(what, f"exit {rc}\n{err}")
        else:
            print(f"ok   {what}: exit {rc}: {want}")


def disagreement(r):
    """Ranks whose command lines or environments describe different runs are
    refused, not left to hang: one rank asking for --help alone leaves the
    others in the run's first collective unless they agree first."""
    sizes = ["--sizes", "16"]
    for what, env0, env1, argv0, argv1, fragment in (
            ("OPENPFC_FD_PROC_GRID differs between ranks", {"OPENPFC_FD_PROC_GRID": "1,1,2"},
             {"OPENPFC_FD_PROC_GRID": "2,1,1"}, sizes + ["--axis", "z"], sizes + ["--axis", "z"],
             "different command lines or process grids"),
            ("OPENPFC_ASSUME_GPU_AWARE_MPI differs between ranks", {"OPENPFC_ASSUME_GPU_AWARE_MPI": "0"},
             {"OPENPFC_ASSUME_GPU_AWARE_MPI": "1"}, sizes + ["--pack", "kernel", "--breakdown"],
             sizes + ["--pack", "kernel", "--breakdown"], "ranks disagree on GPU-aware MPI"),
            ("--help on one rank alone", {}, {}, ["--help"], sizes, "different command lines or process grids")):
        r.cases += 1
        cmd = [r.mpiexec] + (["--oversubscribe"] if r.kind == "openmpi" else []) + \
            mpmd_section(r.kind, 1, env0, [r.exe] + argv0) + [":"] + mpmd_section(r.kind, 1, env1, [r.exe] + argv1)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            rc, err = None, "timed out"
        if rc != 2 or fragment not in err:
            r.fail(what, f"exit {rc}\n{err}")
        else:
            print(f"ok   {what}: exit 2, '{fragment}'")


def memory(r):
    """The preflight's count (header: memory per rank) against what the ranks
    really held (VmHWM, reported at the end): between a tiny and a large size,
    the growth of the one must match the growth of the other within 5%.
    The MPI library's own resident set moves between runs (Intel MPI's by 2 MiB
    steps, 56.8 to 63.2 MB at N = 8): the large size is 320, whose count grows by
    136 MB, and on a miss each size runs again, up to 3 times, and the median of
    its runs stands for it. The count is the same in every run; a buffer it leaves
    out grows every run's resident set alike."""
    import re
    import statistics
    for opts in (["--pack", "datatype"], ["--pack", "kernel"],
                 ["--pack", "kernel", "--gpu-aware", "off", "--breakdown", "--limit", "--self", "mpi"]):
        r.cases += 1
        what = f"-n 2 memory {' '.join(opts)}"
        need, peaks, failed = {}, {}, False
        for attempt in range(3):
            for n in (8, 320):
                rc, out, err = r.run(2, ["--faces", "--sizes", str(n), "--iters", "3", "--warmup", "1"] + opts)
                got_need = re.search(r"# memory per rank at most (\d+) B", out)
                got_peak = re.search(r"# peak resident memory per rank at most (\d+) B", out)
                if rc != 0 or not got_need or not got_peak:
                    r.fail(what, f"exit {rc}\n{out}\n{err}")
                    failed = True
                    break
                if need.setdefault(n, int(got_need.group(1))) != int(got_need.group(1)):
                    r.fail(what, f"N={n}: the count changed between runs")
                    failed = True
                    break
                peaks.setdefault(n, []).append(int(got_peak.group(1)))
            if failed:
                break
            d_need = need[320] - need[8]
            d_peak = statistics.median(peaks[320]) - statistics.median(peaks[8])
            if abs(d_peak - d_need) <= 0.05 * d_need:
                break
        if failed:
            continue
        runs = f"{attempt + 1} run{'s' if attempt else ''} per size"
        if abs(d_peak - d_need) > 0.05 * d_need:
            r.fail(what, f"the count grew by {d_need} B, the resident set by {d_peak:.0f} B ({runs}, medians)")
        else:
            print(f"ok   {what}: count grew by {d_need} B, resident set by {d_peak:.0f} B "
                  f"({100 * (d_peak - d_need) / d_need:+.1f}%, {runs})")


def bad_input(r):
    """Every case is independent and waits mostly on process start-up: run four at a time."""
    cases = []
    reject = lambda ranks, flags, fragment, env=None: cases.append((ranks, flags, fragment, env))
    for ranks in (1, 2):
        reject(ranks, ["--sizes", "0"], "--sizes")
        reject(ranks, ["--sizes", "64,-1"], "--sizes")
        reject(ranks, ["--sizes", "99999999999999999999"], "--sizes")
        reject(ranks, ["--sizes", "abc"], "--sizes")
        reject(ranks, ["--axis", "w"], "--axis")
        reject(ranks, ["--axis", "z", "--faces"], "excludes")
        reject(ranks, ["--iters", "0"], "--iters")
        reject(ranks, ["--warmup", "-1"], "--warmup")
        reject(ranks, ["--grid", "2,2,2"], "grid 2x2x2 (--grid)")
        reject(ranks, ["--grid", "0,1,2"], "--grid")
        reject(ranks, ["--unknown-flag"], "--unknown-flag")
        reject(ranks, ["--backend", "cuda"], "not in this build")
        reject(ranks, ["--hip"], "not in this build")
        reject(ranks, [], "OPENPFC_FD_PROC_GRID", {"OPENPFC_FD_PROC_GRID": "1;1;2"})
        reject(ranks, ["--sizes", "20000", "--axis", "z"], "TiB of host memory")
        reject(ranks, ["--repeats", "0"], "--repeats")
        reject(ranks, ["--schedule", "eager"], "--schedule")
        reject(ranks, ["--output", "/nonexistent-dir/r.csv", "--format", "csv"],
               "--output /nonexistent-dir/r.csv: the folder /nonexistent-dir does not exist (create it first: "
               "mkdir -p /nonexistent-dir)")
        reject(ranks, ["--quiet"], "--quiet needs --output")
        reject(ranks, ["--format", "xml"], "--format")
        reject(ranks, ["--timeout", "-1"], "--timeout")
    # The sweep and shape syntax: empty and reversed ranges, extents of zero or in a range,
    # too many rows; the new options' bad values; a typo named with its nearest option.
    for flags, fragment in ((["--sizes", "512:64"], "--sizes: '512:64' gives no size"),
                            (["--sizes", "64:"], "--sizes: '64:'"),
                            (["--local", ":32"], "--local: ':32'"),
                            (["--sizes", "16:64:0"], "the step '0'"),
                            (["--sizes", "16:64:x1"], "is not x followed by a number above 1"),
                            (["--sizes", "0x64x64"], "--sizes: '0x64x64': the extent '0'"),
                            (["--sizes", "64x64x64:128"], "not extents NXxNYxNZ"),
                            (["--sizes", "1:2000:1"], "more than 1000 sizes"),
                            (["--sizes", "1:512:1", "--halo", "1,2"], "make 1024 rows; a run has at most 1000"),
                            (["--periodic", "x,w"], "--periodic: 'w' is not an axis"),
                            (["--periodic", "x,x"], "named twice"),
                            (["--placement", "linear,cart"], "needs --dry-run"),
                            (["--placement", "spiral"], "--placement: 'spiral'"),
                            (["--iters", "auto", "--min-time", "0"], "--min-time: '0' is not a number of seconds"),
                            (["--min-time", "0.5"], "--min-time needs --iters auto"),
                            (["--iters", "sometimes"], "--iters: 'sometimes'"),
                            (["--dry-run", "--ranks", "0"], "--ranks: '0' is not a whole number"),
                            (["--ranks", "8"], "--ranks needs --dry-run"),
                            (["--dry-run", "--ranks-per-node", "0"], "--ranks-per-node: '0'"),
                            (["--size", "64"], "--size: unknown option; did you mean --sizes?"),
                            # OSU's and Comb's habits: our equivalent in one line.
                            (["-m", "8:1024"], "-m: OSU's message-size range; here --sizes A:B"),
                            (["-d", "cuda"], "-d: OSU's buffer location (-d cuda); here --backend"),
                            (["--sizes", "100_100_100"], "'100_100_100': Comb's X_Y_Z; here three extents"),
                            (["-divide", "2_2_2"], "-divide: Comb's process grid (2_2_2); here --grid 2x2x2"),
                            (["--message-size", "8"], "--message-size: OSU's message-size range"),
                            (["--sizes", "--format", "json"], "--sizes needs a value"),
                            (["--grid", "1x1"], "--grid: '1x1' is not GXxGYxGZ or GX,GY,GZ")):
        reject(2, flags, fragment)
    reject(2, ["--sizes", "1"], "below the halo width")
    reject(2, ["--sizes", "5", "--halo", "3", "--axis", "z"], "below the halo width")
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(lambda c: r.rejected(*c), cases))


# --- results a user can trust -----------------------------------------------------------------

def ours(err):
    """The lines of halo-bandwidth's own on stderr (not the launcher's)."""
    return [l for l in err.splitlines() if l.startswith("halo-bandwidth")]


def reader(r):
    """scripts/halobw_results.py, the module compare and plot read files with."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(r.checker)))
    sys.dont_write_bytecode = True
    import halobw_results
    return halobw_results


def validate(r, paths):
    """Each file valid as a whole document: JSON against the schema and the reader, CSV against
    the reader and the exact format (tests/tools/test_tools.py --validate). '' when all are."""
    v = subprocess.run([r.python, r.tools, "--scripts-dir", os.path.dirname(r.checker), "--schema", r.schema,
                        "--only", "readers", "--validate", *paths], capture_output=True, text=True)
    if v.returncode == 0:
        return ""
    return "\n".join(l for l in v.stdout.splitlines() if l.startswith("FAIL")) + v.stderr


def snapshot(folder):
    """Every file of a folder and its bytes."""
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def survives(r, work):
    """A run refused before its first row (exit 2) leaves an existing result file as it was, byte for
    byte, and no temporary file beside it; one that began measuring and failed before its first row
    replaces it with its own document: no row, status failed, the exit code and the reason."""
    hr = reader(r)
    old = os.path.join(work, "old")
    os.makedirs(old)
    for fmt in ("json", "csv"):
        rc, _, err = r.run(2, ["--axis", "z", "--sizes", "16", "--format", fmt, "--output",
                               os.path.join(old, f"old.{fmt}"), "--quiet"] + FAST)
        if rc != 0:
            return r.fail("an earlier result to keep", f"exit {rc}\n{err}")
    before = snapshot(old)
    if any(not hr.read(os.path.join(old, n)).rows for n in before):
        return r.fail("an earlier result to keep", "no rows")
    cases = [
        (2, ["--sizes", "40960"], {}, "TiB of host memory", "memory that does not fit"),
        (1, ["--method", "rma", "--sizes", "16"], {}, "could not set up the exchange",
         "-n 1 --method rma (no window on one rank)"),
    ]
    for ranks, flags, env, fragment, what in cases:
        for fmt in ("json", "csv"):
            r.cases += 1
            name = f"-n {ranks} {' '.join(flags)} {env or ''} --format {fmt}: {what}"
            rc, out, err = r.run(ranks, flags + ["--format", fmt, "--output", os.path.join(old, f"old.{fmt}")]
                                 + FAST, env)
            if rc == 0 and "rma" in flags:
                print(f"ok   {name}: this MPI makes the window on one rank (exit 0): nothing refused")
                before = snapshot(old)  # the run replaced the file, as it should
                continue
            want = 1 if env else 2
            lines = ours(err)
            if rc != want or len(lines) != 1 or fragment not in lines[0]:
                r.fail(name, f"exit {rc}, want {want}; our lines {lines}\n{err}")
            elif snapshot(old) != before:
                r.fail(name, f"the folder changed: {sorted(before)} -> {sorted(snapshot(old))}")
            else:
                print(f"ok   {name}: exit {rc}, old.{fmt} byte for byte as it was, no temporary file")
    for fmt in ("json", "csv"):
        r.cases += 1
        path = os.path.join(old, f"old.{fmt}")
        name = f"--check failing in the first row, --format {fmt}"
        rc, out, err = r.run(2, ["--axis", "z", "--sizes", "16", "--check", "--format", fmt, "--output", path]
                             + FAST, {"HALOBW_TEST_HOOK_CORRUPT": "1"})
        lines = ours(err)
        try:
            f = hr.read(path)
            got = (len(f.rows), f.status["state"], f.status["exit_code"], f.status["reason"])
        except Exception as e:  # noqa: BLE001 -- any reader error is the finding
            got = repr(e)
        invalid = validate(r, [path])
        want_reason = lines[0].split(": ", 1)[1] if lines else None
        if rc != 1 or len(lines) != 1 or "check N=16 failed" not in lines[0]:
            r.fail(name, f"exit {rc}, want 1; our lines {lines}\n{err}")
        elif got != (0, "failed", 1, want_reason) or invalid:
            r.fail(name, f"the file reads {got}, want no row, failed, exit 1 and {want_reason!r}\n{invalid}")
        elif sorted(os.listdir(old)) != ["old.csv", "old.json"]:
            r.fail(name, f"the folder holds {sorted(os.listdir(old))}")
        elif "# run failed (exit 1) after 0 rows: check N=16 failed" not in out:
            r.fail(name, f"no '# run failed' line in the table\n{out}")
        else:
            print(f"ok   {name}: exit 1, old.{fmt} replaced by this run's document: no row, failed, exit 1, "
                  "the reason")
    r.cases += 1
    missing = os.path.join(work, "missing", "r.csv")
    rc, out, err = r.run(2, ["--axis", "z", "--sizes", "16", "--format", "csv", "--output", missing] + FAST)
    want = (f"halo-bandwidth: error: --output {missing}: the folder {os.path.dirname(missing)} does not exist "
            f"(create it first: mkdir -p {os.path.dirname(missing)})")
    if rc != 2 or ours(err) != [want] or out or os.path.exists(os.path.dirname(missing)):
        r.fail("--output into a missing folder", f"exit {rc}; {ours(err)}; want [{want}]\n{out}")
    else:
        print("ok   --output into a missing folder: exit 2, one line naming the folder and mkdir -p, nothing made")


def failed_documents(r, work):
    """A run that fails after measuring a row leaves a whole, valid document with that row and the
    status; the table ends with '# run failed'; compare and plot warn of the file and show its row."""
    hr = reader(r)
    cases = [
        # ranks, flags, hooks, exit code, reason's start, the states allowed
        (2, ["--axis", "z", "--sizes", "16,32,48", "--check"],
         {"HALOBW_TEST_HOOK_CORRUPT": "1", "HALOBW_TEST_HOOK_FROM_ROW": "2"}, 1, "check N=32 failed: rank 1 ",
         ("failed",)),
        # The watchdog on the one rank: it writes the last document itself before the job ends.
        (1, ["--axis", "z", "--self", "mpi", "--sizes", "16,32", "--timeout", "2"],
         {"HALOBW_TEST_HOOK_SKIP_SENDS": "0", "HALOBW_TEST_HOOK_FROM_ROW": "2"}, 4,
         "timeout on rank 0 after 2 s in ", ("failed",)),
        # Two ranks: rank 0's watchdog writes failed/4, unless the other rank's ended the job first,
        # which leaves the checkpoint of the first row (incomplete).
        (2, ["--axis", "z", "--sizes", "16,32", "--timeout", "2"],
         {"HALOBW_TEST_HOOK_SKIP_SENDS": "1", "HALOBW_TEST_HOOK_FROM_ROW": "2"}, 4, "timeout on rank ",
         ("failed", "incomplete")),
    ]
    made = []
    for n, (ranks, flags, env, code, reason, states) in enumerate(cases):
        paths = []
        for fmt in ("json", "csv"):
            r.cases += 1
            path = os.path.join(work, f"failed{n}.{fmt}")
            name = f"-n {ranks} {' '.join(flags)} {env} --format {fmt}"
            rc, out, err = r.run(ranks, flags + ["--format", fmt, "--output", path] + FAST, env)
            table = [l for l in out.splitlines() if l and not l.startswith("#")]
            if rc != code or not os.path.exists(path):
                r.fail(name, f"exit {rc}, want {code}; file {os.path.exists(path)}\n{out}\n{err}")
                continue
            try:
                f = hr.read(path)
            except hr.ResultError as e:
                r.fail(name, f"the file does not read: {e}")
                continue
            st = f.status
            problems = []
            if st["state"] not in states:
                problems.append(f"state {st['state']}, want {states}")
            if st["state"] == "failed" and (st["exit_code"] != code or not (st["reason"] or "").startswith(reason)):
                problems.append(f"exit_code {st['exit_code']} reason {st['reason']!r}, want {code} {reason!r}...")
            # The one-rank run crosses no ranks: the warning stays in the file, however the run ended.
            if ranks == 1 and not any(w.startswith("nothing crossed ranks: ") for w in st["warnings"]):
                problems.append(f"warnings {st['warnings']}: the nothing-crossed warning is lost")
            if [row.size for row in f.rows] != [16] or st["rows"] != 1:
                problems.append(f"rows {[row.size for row in f.rows]}, status.rows {st['rows']}: want the one row N=16")
            if len(table) != 1 or not table[0].startswith("16 "):
                problems.append(f"the table's rows {table}")
            if st["state"] == "failed" and (ranks == 1 or code == 1) and not out.rstrip().splitlines()[-1].startswith(
                    f"# run failed (exit {code}) after 1 row: {reason}"):
                problems.append("the table does not end with '# run failed (exit N) after 1 row: REASON'")
            if ranks == 1 or code == 1:
                lines = ours(err)
                if len(lines) != 1 or reason not in lines[0]:
                    problems.append(f"stderr: {lines}, want one line with {reason!r}")
                chk = subprocess.run([sys.executable, r.checker], input=out, capture_output=True, text=True)
                if chk.returncode != 0 or f"the run failed (exit {code})" not in chk.stdout:
                    problems.append("check_table: " + chk.stdout + chk.stderr)
            invalid = validate(r, [path])
            if invalid:
                problems.append("not a valid document: " + invalid)
            if problems:
                r.fail(name, "; ".join(problems) + f"\n{out}\n{err}")
                continue
            paths.append(path)
            print(f"ok   {name}: exit {rc}, a valid {fmt.upper()} document: 1 row, status {st['state']}"
                  + (f" exit {st['exit_code']}: {st['reason'][:60]}..." if st["state"] == "failed" else ""))
        made += paths
    if not made:
        return
    # compare and plot: a warning per such file, its row shown.
    scripts = os.path.dirname(os.path.abspath(r.checker))
    good = os.path.join(work, "good.json")
    rc, _, err = r.run(2, ["--axis", "z", "--sizes", "16,32", "--format", "json", "--output", good, "--quiet"] + FAST)
    r.cases += 1
    p = subprocess.run([r.python, os.path.join(scripts, "compare"), good, *made], capture_output=True, text=True)
    warned = [l for l in p.stderr.splitlines() if " run failed (exit " in l or " run incomplete: " in l]
    rows = [l.split() for l in p.stdout.splitlines() if l and not l.startswith("#")]
    n16 = [c for c in rows if c[0] == "16"]
    if rc != 0 or p.returncode != 0 or len(warned) != len(made) or not n16 or "-" in n16[0]:
        r.fail("compare with failed runs' files", f"exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    else:
        print(f"ok   compare: {len(warned)} failed or incomplete files warned of, their N=16 rows compared")
    r.cases += 1
    png = os.path.join(work, "failed.png")
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(work, "mpl"))
    p = subprocess.run([r.python, os.path.join(scripts, "plot"), *made, "-o", png], capture_output=True, text=True,
                       env=env)
    warned = [l for l in p.stderr.splitlines() if l.startswith("warning: ") and "plotted" in l]
    if p.returncode != 0 or len(warned) != len(made) or not os.path.getsize(png) > 10000:
        r.fail("plot with failed runs' files", f"exit {p.returncode}\n{p.stderr}")
    else:
        print(f"ok   plot: {len(warned)} failed or incomplete files warned of and plotted")


def kernel_folders(r, work):
    """--output into /sys or /proc is refused before measuring (exit 2, one line, no table): as root
    some files there open for writing, and the run used to fail only after its first row. A folder
    where no file can be created, though access() allows it (a tmpfs without a free inode), is
    refused as well: the preflight creates and removes a file there."""
    for path in ("/sys/halobw.csv", "/proc/halobw.csv"):
        r.cases += 1
        rc, out, err = r.run(1, ["--axis", "z", "--sizes", "16", "--output", path] + FAST)
        if rc != 2 or len(ours(err)) != 1 or "holds the kernel's files" not in ours(err)[0] or out.strip():
            r.fail(f"--output {path}", f"exit {rc}, want 2; our lines {ours(err)}\n{out}")
        else:
            print(f"ok   --output {path}: exit 2 before measuring: {ours(err)[0]}")
    mnt = os.path.join(work, "noinode")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,nr_inodes=1", "tmpfs", mnt],
                      capture_output=True).returncode:
        print("skip a folder without a free inode: mounting a small tmpfs is not permitted here")
        return
    try:
        r.cases += 1
        rc, out, err = r.run(1, ["--axis", "z", "--sizes", "16", "--output", os.path.join(mnt, "r.csv")] + FAST)
        if rc != 2 or len(ours(err)) != 1 or "cannot create a file in" not in ours(err)[0] or out.strip():
            r.fail("--output where no file can be created", f"exit {rc}, want 2; {ours(err)}\n{out}")
        else:
            print(f"ok   --output where no file can be created: exit 2 before measuring: {ours(err)[0]}")
    finally:
        subprocess.run(["umount", mnt], capture_output=True)


def dev_full(r, work):
    """A write that fails ends with exit 3 and one line naming the file and the OS error, and the
    table ends with its '# run failed' line."""
    if not os.path.exists("/dev/full"):
        print("skip /dev/full: not on this system")
        return
    for fmt in ("csv", "json"):
        r.cases += 1
        rc, out, err = r.run(2, ["--axis", "z", "--sizes", "16", "--format", fmt, "--output", "/dev/full"] + FAST)
        want = "halo-bandwidth: error: --output /dev/full: No space left on device"
        note = "# run failed (exit 3) after 1 row: --output /dev/full: No space left on device"
        if rc != 3 or ours(err) != [want] or note not in out.splitlines():
            r.fail(f"--format {fmt} --output /dev/full", f"exit {rc}, want 3; our lines {ours(err)}\n{err}")
        else:
            print(f"ok   --format {fmt} --output /dev/full: exit 3, one line: {want}")


def full_disk(r, work):
    """A file system that fills up halfway through the rows: exit 3 and one line naming the file and
    the OS error (not one per place that saw it), and the file holds the rows that fit, whole."""
    mnt = os.path.join(work, "full")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", mnt], capture_output=True).returncode:
        print("skip a full disk: mounting a small tmpfs is not permitted here")
        return
    try:
        r.cases += 1
        path = os.path.join(mnt, "r.json")
        rc, out, err = r.run(2, ["--axis", "z", "--sizes", ",".join(["8"] * 15), "--format", "json",
                                 "--output", path, "--quiet"] + FAST)
        want = f"halo-bandwidth: error: --output {path}: No space left on device"
        problems = [] if rc == 3 and ours(err) == [want] else [f"exit {rc}, want 3; our lines {ours(err)}"]
        try:
            doc = reader(r).read(path)
            if not doc.rows or len(doc.rows) >= 15 or doc.status["state"] != "incomplete":
                problems.append(f"{len(doc.rows)} rows, state {doc.status['state']}")
        except Exception as e:  # a cut-short file is the failure this guards against
            problems.append(f"the file does not read: {e}")
        if problems:
            r.fail("a full disk halfway", "; ".join(problems) + "\n" + err)
        else:
            print(f"ok   a full disk halfway: exit 3, one line, the rows that fit kept whole")
    finally:
        subprocess.run(["umount", mnt], capture_output=True)


def nothing_crossed(r, work):
    """The warning on stderr, the header note and the files' warnings exactly when no row has a
    remote byte; the rows and the exit code as ever."""
    hr = reader(r)
    cases = [
        (2, [], "on grid 1x1x2 the \u00b1x faces wrap to the same rank; use --axis z or --grid 2,1,1"),
        (4, [], "on grid 1x2x2 the \u00b1x faces wrap to the same rank; use --axis y or --axis z or --grid 4,1,1"),
        (2, ["--axis", "z"], None),
        (1, ["--faces"], "on grid 1x1x1 the six faces wrap to the one rank; run on more ranks"),
        (4, ["--faces"], None),
    ]
    for ranks, flags, words in cases:
        for fmt in ("json", "csv"):
            r.cases += 1
            path = os.path.join(work, f"nothing{ranks}{len(flags)}.{fmt}")
            name = f"-n {ranks} {' '.join(flags) or '(the default faces)'} --format {fmt}"
            rc, out, err = r.run(ranks, flags + ["--sizes", "16,20", "--format", fmt, "--output", path] + FAST)
            if rc != 0:
                r.fail(name, f"exit {rc}\n{out}\n{err}")
                continue
            rows = [l.split() for l in out.splitlines() if l and not l.startswith("#")]
            zero = all(row[1] == "0" for row in rows)
            warnings = [l for l in ours(err) if "warning" in l]
            notes = [l for l in out.splitlines() if l.startswith("# nothing crosses ranks")]
            st = hr.read(path).status
            problems = []
            if zero != (words is not None):
                problems.append(f"Send_B all 0: {zero}, expected {words is not None}")
            if words is None:
                if warnings or notes or st["warnings"]:
                    problems.append(f"a warning where rows cross ranks: {warnings} {notes} {st['warnings']}")
            else:
                if warnings != [f"halo-bandwidth: warning: nothing crossed ranks: {words}"]:
                    problems.append(f"stderr {warnings}")
                if notes != [f"# nothing crosses ranks, Send_B is 0: {words}"]:
                    problems.append(f"header note {notes}")
                if st["warnings"] != [f"nothing crossed ranks: {words}"] or st["state"] != "complete":
                    problems.append(f"the file's status {st}")
            if len(rows) != 2:
                problems.append(f"{len(rows)} rows")
            chk = subprocess.run([sys.executable, r.checker], input=out, capture_output=True, text=True)
            if chk.returncode != 0:
                problems.append("check_table: " + chk.stderr)
            if problems:
                r.fail(name, "; ".join(problems) + f"\n{out}\n{err}")
            else:
                print(f"ok   {name}: " + (f"warned: {words}" if words else "rows cross ranks, no warning"))


def results(r):
    work = tempfile.mkdtemp(prefix="halobw-results-")
    try:
        survives(r, work)
        failed_documents(r, work)
        dev_full(r, work)
        kernel_folders(r, work)
        full_disk(r, work)
        nothing_crossed(r, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def readme_block(path):
    """The command and the lines of the README's "What it prints" block."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## What it prints"):]
    block = section[section.index("```\n") + 4:]
    block = block[:block.index("```")]
    lines = block.splitlines()
    if not lines or not lines[0].startswith("$ "):
        return None, lines
    return lines[0][2:].split(), lines[1:]


def leading_words(line):
    """A '#' line's first two words, each up to its first digit or ':' (version numbers, counts and
    host names vary from run to run; the words that say what the line is do not)."""
    words = line[1:].split()[:2]
    return tuple(re.split(r"[0-9:]", w, maxsplit=1)[0] for w in words)


def readme(r):
    """The README's "What it prints": its command run as shown; every '#' line of the block must
    still be printed (by its leading words), the column line exactly, and as many rows."""
    path = os.path.join(os.path.dirname(os.path.abspath(r.checker)), "..", "README.md")
    cmd, lines = readme_block(path)
    r.cases += 1
    if not cmd or cmd[:2] != ["mpirun", "-n"] or cmd[3] != "build/halo-bandwidth":
        return r.fail("README", f"the block does not start with '$ mpirun -n N build/halo-bandwidth ...': {cmd}")
    shown = [l for l in lines if l.startswith("#")]
    shown_rows = [l for l in lines if l and not l.startswith("#")]
    out = r.table(int(cmd[2]), cmd[4:], rows=len(shown_rows))
    if not out:
        return
    printed = {leading_words(l) for l in out.splitlines() if l.startswith("#")}
    missing = [l for l in shown if leading_words(l) not in printed]
    columns = [l for l in shown if l.startswith("# N ")]
    if missing:
        r.fail("README: header lines no longer printed", "\n".join(missing) + "\n--- printed:\n" + out)
    elif columns and columns[0] not in out.splitlines():
        r.fail("README: the column line", f"shown {columns[0]!r}\n--- printed:\n{out}")
    else:
        print(f"ok   README: all {len(shown)} '#' lines of 'What it prints' are still printed, "
              f"{len(shown_rows)} rows, the column line exact")


def rma_env(r, ranks, flags, what):
    """Open MPI's default one-sided component makes no window on one rank (the run exits 2 naming
    OMPI_MCA_osc=pt2pt): try the default, and set it only where needed, saying so."""
    if r.kind != "openmpi":
        return {}
    rc, _, err = r.run(ranks, flags)
    if rc == 2 and "OMPI_MCA_osc=pt2pt" in err:
        print(f"note {what}: Open MPI's osc rdma made no window here; OMPI_MCA_osc=pt2pt set")
        return {"OMPI_MCA_osc": "pt2pt"}
    return {}


def private_tmp(suite):
    """Every temporary folder this process makes (tempfile.mkdtemp) lies in one of its own, removed
    at exit, pass, fail or exception: a suite leaves nothing in /tmp (test cleanup/tmp)."""
    root = tempfile.mkdtemp(prefix=f"halobw-{suite}-")
    tempfile.tempdir = root
    atexit.register(shutil.rmtree, root, True)
    return root


def run_suite(suites, namespace):
    """Parses the runner's arguments, runs one suite of `suites` (names of
    functions in `namespace`) and returns the exit status; shared by the
    other case files."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--launcher-kind", choices=["auto", "openmpi", "mpich", "other"], default="auto",
                    help="flags for Open MPI's mpiexec (--oversubscribe, -x) or MPICH's hydra (-env); "
                         "default: from `MPIEXEC --version`")
    ap.add_argument("--checker", required=True)
    ap.add_argument("--system-python", default="/usr/bin/python3", help="a Python with jsonschema")
    ap.add_argument("--tools", help="tests/tools/test_tools.py")
    ap.add_argument("--schema", help="docs/output.schema.json")
    ap.add_argument("suite", choices=suites)
    args = ap.parse_args()
    private_tmp(args.suite)
    r = Runner(args)
    r.schema = args.schema
    namespace[args.suite](r)
    print(f"{r.cases - r.failures} passed, {r.failures} failed")
    return 1 if r.failures else 0


def main():
    return run_suite(["seed", "uneven", "transports", "phases", "formats", "faults", "disagreement", "memory",
                      "bad_input", "results", "readme"], globals())


if __name__ == "__main__":
    sys.exit(main())
