#!/usr/bin/env python3
"""The exchanger's host performance, each figure set against a reference
measured in the same run, interleaved: the figure and its reference run one
after the other, in alternating order, several times, and the table gives
medians (and the median of the per-pair ratios). This machine's rates are
bimodal (the same command can run 2-4x slower minutes later), so only figures
taken side by side are compared. Not a test: ctest never asserts a timing.

Sections (--sections, default all):
  watchdog  the out-of-band watchdog: --timeout 300 against --timeout 0 (no
            watchdog thread), and, with --baseline, the previous polling
            watchdog (MPI_Testall spin); 2 ranks, and 8 ranks oversubscribed
  plain     the kernel path against a plain MPI + memcpy program of the same
            exchange (bench/plain_exchange.cpp), ±z and ±x, N = 256 and 512;
            target >= 0.95 of the plain program's rate
  phases    --breakdown: the phases of the timed loop against Time_us (sum
            within 10%, median of repeats), both packs, ±z and ±x
  hugepages the x face at N = 512: pack + unpack with huge pages against
            without (target 1.5x faster) and against a huge-page strided loop
            (within 1.2x), and the x-face rate on 2 ranks with either pack
            (target 0.7 GB/s), and what holds the datatype pack: MPI_Pack +
            MPI_Unpack of the faces against the strided loop (bench/datatype_pack.cpp)
  overlap   --overlap on 2 ranks, ±z and ±x, both packs, both progress modes;
            the stencil's rate against a memory-bound copy of the field
            (target >= 0.5 at N >= 256)
  shapes    8 ranks oversubscribed: the halo sweep 1, 2, 4, 6, 10 (time
            against face bytes) and 3 fields aggregated against separate
  onepass   the host copy in one pass over shared rows against the per-piece
            copy of an earlier build (--baseline, required): ±x on 2x1x1 (and
            ±z on 1x1x2, the contiguous faces), --faces on 2x1x1 and 2x2x1,
            --stencil box on 2x2x1, N = 256 and 512, Time_us and --breakdown's
            Pack_us + Unpack_us; this build's two schedules; and the plain
            loops over both x faces, face by face and in one pass
            (bench/pack_reference.cpp), huge pages
  regions   the Kokkos profiling regions' cost: this build against --baseline
            built with -DHALOBW_PROFILE_REGIONS=OFF, N = 16, Time_us interleaved
            and callgrind's instructions per exchange
  bestplain the kernel path against the best plain program of the same exchange
            (bench/onepass_exchange.cpp: one pass packs, one message per distinct
            neighbour, one pass unpacks): ±x on 2x1x1 at N = 128, 256, 512, --faces
            and --stencil box on 2x2x2 at N = 128, 256, Time_us and Pack_us +
            Unpack_us; with --baseline, ±z and ±y against that build
  shm       the direct method (--method shm) against the same program (±z: against
            --method p2p --pack datatype), its waits and its copy (--breakdown),
            and --limit's Copy_GBps beside its Uni_GBps
  methods   every method (rma with pscw and fence) the MPI has on 2 ranks
            (±z, ±x; N = 128, 256, 512; both packs) and 8 ranks (all faces),
            for each MPI build given (--mpi NAME=BUILD_DIR, repeatable)
  mpi4      partitioned and neighbor-persistent against p2p, persistent and
            neighbor, with --breakdown: ±z, ±x at N = 128, 256, 512 on 2 ranks
            (both packs) and --stencil box on 2x2x2 at N = 128, per MPI build
  messages  the datatype default's rule: --messages auto against peer and
            aggregated, interleaved, on the rows of `mpis`, per MPI build (--mpi);
            auto within 1.05 of the faster of the two
  network   the same exchange over shared memory and forced through TCP on
            loopback, per MPI
  placement --placement linear against --placement nodes on simulated nodes
            (tests/launch_cases.py: each node's daemon in a UTS namespace of
            its own, so shared memory within a node and TCP between): 8 ranks
            as 2 nodes of 4 on 4x2x1 and 4 ranks as 2 nodes of 2 on 2x2x1,
            --faces, extents where nodes sends 4x, 2x, 1x and 0.5x the
            off-node bytes of linear; the time ratio beside the byte ratio
  mpis      the five MPI libraries (--mpi NAME=BUILD_DIR each): ±x and ±z at
            N = 128, 256, 512 on 2 ranks, --faces and --stencil box at N = 128
            on 8, the kernel path and the datatype path's two message shapes,
            and every method on ±x, each against bench/'s plain program built
            with the same library; and the datatype default's rule (struct
            per neighbour within 1.05 of a message per piece)
  simulated the model against the real run: 2 ranks on one node, ±z on 1x1x2,
            N = 64, 128, 256, --breakdown, both packs; the real run (Open MPI,
            --build) interleaved with the same command under SimGrid's SMPI on
            platforms/this-machine.xml (--smpi-build), and once with the
            computation not simulated (the network model alone, deterministic)

Usage: scripts/bench_host.py [--build build] [--baseline OLD_BUILD] [--sections a,b]
                             [--pairs 5] [--markdown FILE] [--smpi-build build-smpi]
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import types

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_NUM_THREADS="1", OMP_PROC_BIND="false", KOKKOS_DISABLE_WARNINGS="1")


LAUNCHER = {"openmpi": "mpiexec.openmpi", "mpich": "mpiexec.mpich"}


def launcher_of(exe):
    """The launcher of the MPI a binary was built with: its build directory's CMake cache says."""
    cache = os.path.join(os.path.dirname(os.path.abspath(exe)), "CMakeCache.txt")
    try:
        for line in open(cache):
            if line.startswith("MPIEXEC_EXECUTABLE:"):
                return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return "mpiexec"


def mpiexec(ranks, launcher="mpiexec"):
    cmd = [launcher, "-n", str(ranks)]
    version = subprocess.run([launcher, "--version"], capture_output=True, text=True).stdout
    if ("Open MPI" in version or "OpenRTE" in version) and (os.cpu_count() or 1) < ranks:
        cmd.append("--oversubscribe")
    return cmd


def run(exe, ranks, flags, env=None):
    cmd = mpiexec(ranks, launcher_of(exe)) + [exe] + flags
    return subprocess.run(cmd, capture_output=True, text=True, env=dict(ENV, **(env or {})), check=True).stdout


def table(exe, ranks, flags, env=None):
    """Rows of one run, keyed by (N or L, H), each a dict of column -> text."""
    out = run(exe, ranks, flags, env)
    cols, rows = None, {}
    for line in out.splitlines():
        if line.startswith("# N ") or line.startswith("# L "):
            cols = line[2:].split()
        elif line and not line.startswith("#"):
            row = dict(zip(cols, line.split()))
            key = (int(row.get("N", row.get("L", 0))), int(row.get("H", 0)))
            rows[key] = row
    return rows


def shown(exe, ranks, flags, env=None):
    pre = "".join(f"{k}={v} " for k, v in (env or {}).items())
    return pre + " ".join([os.path.basename(launcher_of(exe)), "-n", str(ranks), os.path.relpath(exe)] + flags)


def interleave(configs, pairs):
    """configs: name -> (exe, ranks, flags[, env]) or a callable returning rows.
    Runs every config once per pair, the order rotated each pair; returns
    name -> [rows of each pair]."""
    names = list(configs)
    got = {n: [] for n in names}
    for p in range(pairs):
        order = names[p % len(names):] + names[:p % len(names)]
        for n in order:
            c = configs[n]
            got[n].append(c() if callable(c) else table(*c))
    return got


def slowest_copy(exe, ranks, flags, columns):
    """A bench/ reference program, `ranks` copies at once (as many as the ranks that share the memory system):
    each named column (name -> index in its output line) from the slowest copy, and the lines themselves."""
    cmd = mpiexec(ranks, launcher_of(exe)) + [exe] + flags
    lines = subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV).stdout.splitlines()
    values = [[float(v) for v in line.split()] for line in lines if line.strip()]
    return {k: max(v[i] for v in values) for k, i in columns.items()}, values


def reference(n, grid, axis, huge, ranks, build):
    """bench/pack_reference.cpp: memcpy, strided pack and unpack (face by face, and in one pass over the rows the
    faces share) and field-copy microseconds."""
    got, values = slowest_copy(os.path.join(build, "halobw-pack-reference"), ranks,
                               [str(n), grid, axis, "1", "50", "1" if huge else "0"],
                               {"memcpy": 2, "pack": 3, "unpack": 4, "field": 5, "row_pack": 7, "row_unpack": 8})
    return got | {"field_bytes": values[0][6]}


def engine(build, n, grid, axis, huge, ranks=2):
    """bench/datatype_pack.cpp: MPI_Pack and MPI_Unpack of the faces (the MPI library's datatype engine) and the
    plain strided loop over the same boxes, microseconds."""
    return slowest_copy(os.path.join(build, "halobw-datatype-pack"), ranks,
                        [str(n), grid, axis, "1", "20", "1" if huge else "0"],
                        {"pack": 1, "unpack": 2, "loop_pack": 3, "loop_unpack": 4})[0]


def plain(build, n, grid, axis, ranks, huge, iters=50):
    """The plain MPI + memcpy program's Time_us (bench/plain_exchange.cpp), under its build's launcher."""
    exe = os.path.join(build, "halobw-plain-exchange")
    cmd = mpiexec(ranks, launcher_of(exe)) + [exe, str(n), grid, axis, "1", str(iters), "5", "1" if huge else "0"]
    return float(subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV).stdout.split()[0])


def med(values):
    return statistics.median(values) if values else float("nan")


def ratio_text(values):
    """Median of per-pair ratios, with their quartiles: "0.99 (0.95-1.02)"."""
    if len(values) < 4:
        return f"{med(values):.3f}"
    q = statistics.quantiles(values, n=4)
    return f"{med(values):.3f} ({q[0]:.2f}-{q[2]:.2f})"


class Section:
    """The one shape of every section: a heading, what is compared and how, its tables, and the commands that made
    them (`ran`), listed at the end (`close`)."""

    def __init__(self, emit, title, prose=None, level=3):
        self.emit, self.cmds = emit, []
        emit(f"{'#' * level} {title}\n")
        if prose:
            emit(prose + "\n")

    def say(self, text):
        self.emit(text + "\n")

    def table(self, columns, rows=()):
        self.emit("| " + " | ".join(columns) + " |")
        self.emit("|" + "---|" * len(columns))
        for cells in rows:
            self.row(*cells)

    def row(self, *cells):
        """A cell None is left blank."""
        self.emit("|" + "|".join(" " if c is None else f" {c} " for c in cells) + "|")

    def ran(self, *commands):
        """halo-bandwidth runs as (exe, ranks, flags[, env]), or commands already written out."""
        self.cmds += [c if isinstance(c, str) else shown(*c) for c in commands]

    def close(self, *others, label="Commands", tail=""):
        """The commands given to `ran`, then `others` (written out), each quoted; `tail` follows the list as it is."""
        self.emit()
        self.emit(f"{label}: " + "; ".join(f"`{c}`" for c in self.cmds + list(others)) + tail)
        self.emit()


class Report:
    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        print(text, flush=True)
        self.lines.append(text)


def section_watchdog(args, emit):
    sec = Section(emit, "The watchdog, out of band: its cost on the timed rates",
                  "Time_us with the watchdog armed (`--timeout 300`, the default: a timer thread, and two atomic "
                  "stores around each plain `MPI_Waitall`/`MPI_Barrier`) against `--timeout 0` (no watchdog thread)"
                  + (", and the previous build's polling watchdog (`MPI_Testall`/`MPI_Test` spin under the deadline)"
                     if args.baseline else "") + ". Median of the interleaved runs; ratio = median over pairs of "
                  "Time_us(config) / Time_us(off), with the quartiles of the per-pair ratios in brackets. At 8 ranks "
                  "on 2 cores each pair is given three times the runs, since the scheduler dominates there.")
    new = os.path.join(args.build, "halo-bandwidth")
    cases = [(2, ["--axis", "z", "--grid", "1,1,2", "--pack", "datatype", "--sizes", "128,256,512"]),
             (2, ["--axis", "z", "--grid", "1,1,2", "--pack", "kernel", "--sizes", "128,256,512"]),
             (8, ["--faces", "--pack", "kernel", "--sizes", "32,64,128"])]
    common = ["--repeats", "5", "--iters", "50", "--warmup", "5"]
    sec.table(["ranks", "case", "N", "off Time_us", "on Time_us", "on/off"] +
              (["polling Time_us", "polling/off"] if args.baseline else []))
    for ranks, flags in cases:
        configs = {"off": (new, ranks, flags + common + ["--timeout", "0"]),
                   "on": (new, ranks, flags + common + ["--timeout", "300"])}
        if args.baseline:
            configs["polling"] = (os.path.join(args.baseline, "halo-bandwidth"), ranks,
                                  flags + common + ["--timeout", "300"])
        sec.ran(*configs.values())
        got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
        for key in sorted(got["off"][0]):
            t = {n: [float(r[key]["Time_us"]) for r in got[n]] for n in configs}
            ratio = lambda n: ratio_text([a / b for a, b in zip(t[n], t["off"])])
            polling = [f"{med(t['polling']):.1f}", ratio("polling")] if args.baseline else []
            sec.row(ranks, f"{' '.join(flags[:2])} {flags[flags.index('--pack') + 1]}", key[0], f"{med(t['off']):.1f}",
                    f"{med(t['on']):.1f}", ratio("on"), *polling)
    sec.close()


def section_plain(args, emit):
    sec = Section(emit, "The kernel path against a plain MPI + memcpy program",
                  "`halo-bandwidth --pack kernel` against bench/plain_exchange.cpp doing the same work (copy the rows "
                  "of both faces into contiguous buffers, Irecv/Isend, Waitall, copy back), interleaved; both with "
                  "huge pages. ratio = Time_us(plain) / Time_us(halo-bandwidth): the kernel path's rate as a share of "
                  "the plain program's. Target: >= 0.95.")
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.table(["faces", "grid", "N", "plain Time_us", "halo-bandwidth Time_us", "ratio", "target"])
    for axis, grid in (("z", "1,1,2"), ("x", "2,1,1")):
        flags = ["--axis", axis, "--grid", grid, "--pack", "kernel", "--sizes", "256,512", "--iters", "50",
                 "--warmup", "5"]
        configs = {"ours": (exe, 2, flags)}
        for n in (256, 512):
            configs[f"plain{n}"] = (lambda n=n, axis=axis, grid=grid:
                                    {(n, 0): {"Time_us": str(plain(args.build, n, grid, axis, 2, True))}})
        got = interleave(configs, args.pairs)
        sec.ran((exe, 2, flags))
        for n in (256, 512):
            ours = [float(r[(n, 0)]["Time_us"]) for r in got["ours"]]
            ref = [float(r[(n, 0)]["Time_us"]) for r in got[f"plain{n}"]]
            ratios = [b / a for a, b in zip(ours, ref)]
            ok = med(ratios) >= 0.95
            sec.row(f"±{axis}", grid.replace(",", "x"), n, f"{med(ref):.1f}", f"{med(ours):.1f}", ratio_text(ratios),
                    "met" if ok else "MISSED")
    sec.close("mpiexec -n 2 build/halobw-plain-exchange N GRID AXIS 1 50 5 1")


def section_phases(args, emit):
    sec = Section(emit, "--breakdown: the phases of the timed loop add up to it",
                  "Sum of Pack_us + Mpi_us + Stage_us + Unpack_us (the busiest rank of the median block) against "
                  "Time_us; the median over the interleaved runs of their ratio. Target: within 10% (0.90 to 1.10).")
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.table(["case", "N", "Time_us", "Pack_us", "Mpi_us", "Stage_us", "Unpack_us", "sum / Time_us", "Xfer_us",
               "target"])
    for name, flags in (("±z datatype", ["--axis", "z", "--grid", "1,1,2", "--pack", "datatype"]),
                        ("±z kernel", ["--axis", "z", "--grid", "1,1,2", "--pack", "kernel"]),
                        ("±x kernel", ["--axis", "x", "--grid", "2,1,1", "--pack", "kernel"]),
                        ("±z staged", ["--axis", "z", "--grid", "1,1,2", "--pack", "kernel", "--gpu-aware", "off"])):
        f = flags + ["--sizes", "256,512", "--breakdown", "--repeats", "5", "--iters", "30", "--warmup", "5"]
        sec.ran((exe, 2, f))
        got = interleave({"run": (exe, 2, f)}, args.pairs)["run"]
        for n in (256, 512):
            rows = [r[(n, 0)] for r in got]
            val = lambda k: f"{med([float(r[k]) for r in rows]):.1f}"
            ratios = [sum(float(r[k]) for k in ("Pack_us", "Mpi_us", "Stage_us", "Unpack_us")) / float(r["Time_us"])
                      for r in rows]
            ok = 0.9 <= med(ratios) <= 1.1
            sec.row(name, n, val("Time_us"), val("Pack_us"), val("Mpi_us"), val("Stage_us"), val("Unpack_us"),
                    ratio_text(ratios), val("Xfer_us"), "met" if ok else "MISSED")
    sec.close()


def section_hugepages(args, emit):
    sec = Section(emit, "Huge pages and the x face",
                  "x face at N = 512, 2 ranks on 2x1x1, the kernel path with --breakdown: Pack_us + Unpack_us from the "
                  "timed exchanges with `--hugepages on` and `off`, interleaved, against a plain strided loop over the "
                  "same face with huge pages (bench/pack_reference.cpp, two copies at once, the slower counts). "
                  "Targets: on is >= 1.5x faster than off; on is within 1.2x of the loop; Uni_GBps >= 0.7 with either "
                  "pack. Beside them, what holds --pack datatype: the MPI library's datatype engine (MPI_Pack + "
                  "MPI_Unpack of the same faces, described as the exchanger describes them) against the strided loop "
                  "in the same process (bench/datatype_pack.cpp, two copies at once, huge pages), for each MPI build "
                  "given.")
    exe = os.path.join(args.build, "halo-bandwidth")
    base = ["--axis", "x", "--grid", "2,1,1", "--sizes", "512", "--iters", "30", "--warmup", "5", "--repeats", "3"]
    configs = {}
    for pack in ("kernel", "datatype"):
        for huge in ("on", "off"):
            configs[f"{pack}-{huge}"] = (exe, 2, base + ["--pack", pack, "--hugepages", huge, "--breakdown"])
    configs["loop-huge"] = lambda: {(512, 0): reference(512, "2,1,1", "x", True, 2, args.build)}
    configs["loop-plain"] = lambda: {(512, 0): reference(512, "2,1,1", "x", False, 2, args.build)}
    builds = [spec.split("=", 1) for spec in args.mpi or [f"openmpi={args.build}"]]
    for mpi, build in builds:
        configs[f"engine-{mpi}"] = lambda build=build: {(512, 0): engine(build, 512, "2,1,1", "x", True)}
        if os.path.abspath(build) != os.path.abspath(args.build):
            configs[f"datatype-on-{mpi}"] = (os.path.join(build, "halo-bandwidth"), 2,
                                             base + ["--pack", "datatype", "--hugepages", "on"])
    sec.ran(*[c for c in configs.values() if not callable(c)])
    got = interleave(configs, args.pairs)
    pu = lambda r: float(r[(512, 0)]["Pack_us"]) + float(r[(512, 0)]["Unpack_us"])
    loop = lambda r: r[(512, 0)]["pack"] + r[(512, 0)]["unpack"]
    on = [pu(r) for r in got["kernel-on"]]
    off = [pu(r) for r in got["kernel-off"]]
    lh = [loop(r) for r in got["loop-huge"]]
    lp = [loop(r) for r in got["loop-plain"]]
    sec.table(["figure", "huge pages", "no huge pages", "ratio", "target"])
    speed = [b / a for a, b in zip(on, off)]
    sec.row("kernel Pack_us + Unpack_us", f"{med(on):.1f}", f"{med(off):.1f}", f"off/on {ratio_text(speed)}",
            f">= 1.5 {'met' if med(speed) >= 1.5 else 'MISSED'}")
    vs = [a / b for a, b in zip(on, lh)]
    sec.row("strided loop pack + unpack", f"{med(lh):.1f}", f"{med(lp):.1f}", f"kernel/loop (huge) {ratio_text(vs)}",
            f"<= 1.2 {'met' if med(vs) <= 1.2 else 'MISSED'}")
    for pack in ("kernel", "datatype"):
        u_on = [float(r[(512, 0)]["Uni_GBps"]) for r in got[f"{pack}-on"]]
        u_off = [float(r[(512, 0)]["Uni_GBps"]) for r in got[f"{pack}-off"]]
        sec.row(f"Uni_GBps, --pack {pack}", f"{med(u_on):.3f}", f"{med(u_off):.3f}",
                f"on/off {ratio_text([a / b for a, b in zip(u_on, u_off)])}",
                f">= 0.7 {'met' if med(u_on) >= 0.7 else 'MISSED'}")
    for mpi, build in builds:
        if f"datatype-on-{mpi}" in configs:
            u = [float(r[(512, 0)]["Uni_GBps"]) for r in got[f"datatype-on-{mpi}"]]
            sec.row(f"Uni_GBps, --pack datatype, {mpi}", f"{med(u):.3f}", None, None,
                    f">= 0.7 {'met' if med(u) >= 0.7 else 'MISSED'}")
        e = got[f"engine-{mpi}"]
        eng = [r[(512, 0)]["pack"] + r[(512, 0)]["unpack"] for r in e]
        lp = [r[(512, 0)]["loop_pack"] + r[(512, 0)]["loop_unpack"] for r in e]
        sec.row(f"{mpi} MPI_Pack + MPI_Unpack of the faces", f"{med(eng):.1f}", None,
                f"engine/loop (same process) {ratio_text([a / b for a, b in zip(eng, lp)])}", None)
    sec.close("mpiexec -n 2 build/halobw-pack-reference 512 2,1,1 x 1 50 1|0",
              "mpiexec -n 2 BUILD/halobw-datatype-pack 512 2,1,1 x 1 20 1")


def section_overlap(args, emit):
    sec = Section(emit, "Overlap with a stencil",
                  "2 ranks, `--overlap`, the interior on the exchange's instance (a host space runs synchronously), "
                  "median of the interleaved runs. Comp_GBps counts 16 B per owned cell (a read and a write). The "
                  "target's reference is `--limit`'s Copy_GBps in the same run (a copy of Send_B bytes where the field "
                  "lives): the stencil at >= 0.5 of it at N >= 256. A stricter one beside it: a memcpy of the whole "
                  "padded field by both ranks at once (bench/pack_reference.cpp), memory-bound, counted like the "
                  "stencil (2 x bytes / time).")
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.table(["faces", "pack", "progress", "N", "Time_us", "Comp_us", "Blocking_us", "Overlap_us", "Exposed_us",
               "Noise_us", "Hidden", "Comp_GBps", "Copy_GBps", "Comp/Copy", "field copy GB/s", "Comp/field copy"])
    sizes = (128, 256, 512)
    for axis, grid in (("z", "1,1,2"), ("x", "2,1,1")):
        configs = {}
        for pack in ("datatype", "kernel"):
            for progress in ("wait", "poll"):
                f = ["--axis", axis, "--grid", grid, "--pack", pack, "--sizes", ",".join(map(str, sizes)),
                     "--overlap", "--progress", progress, "--limit", "--iters", "20", "--warmup", "3", "--repeats", "3"]
                configs[f"{pack}-{progress}"] = (exe, 2, f)
                sec.ran((exe, 2, f))
        for n in sizes:
            configs[f"copy{n}"] = (lambda n=n, grid=grid, axis=axis:
                                   {(n, 0): reference(n, grid, axis, True, 2, args.build)})
        got = interleave(configs, args.pairs)
        for n in sizes:
            copy = [2 * r[(n, 0)]["field_bytes"] / r[(n, 0)]["field"] / 1e3 for r in got[f"copy{n}"]]
            for pack in ("datatype", "kernel"):
                for progress in ("wait", "poll"):
                    rows = [r[(n, 0)] for r in got[f"{pack}-{progress}"]]
                    v = lambda k, d=1: f"{med([float(r[k]) for r in rows]):.{d}f}"
                    share = [float(r["Comp_GBps"]) / c for r, c in zip(rows, copy)]
                    limit = [float(r["Comp_GBps"]) / float(r["Copy_GBps"]) for r in rows]
                    mark = "" if n < 256 else (" met" if med(limit) >= 0.5 else " MISSED")
                    # Hidden is a share or '-' (none: within Noise_us): the median of the shares, and how
                    # many runs gave none.
                    shares = [float(r["Hidden"]) for r in rows if r["Hidden"] != "-"]
                    hidden = f"{med(shares):.2f}" if shares else "-"
                    if shares and len(shares) < len(rows):
                        hidden += f" ({len(rows) - len(shares)} of {len(rows)} none)"
                    sec.row(f"±{axis}", pack, progress, n, v("Time_us"), v("Comp_us"), v("Blocking_us"),
                            v("Overlap_us"), v("Exposed_us"), v("Noise_us"), hidden, v("Comp_GBps", 2),
                            v("Copy_GBps", 2), ratio_text(limit) + mark, f"{med(copy):.2f}", ratio_text(share))
    sec.close("mpiexec -n 2 build/halobw-pack-reference N GRID AXIS 1 50 1", tail=" (field copy)")


def section_shapes(args, emit):
    sec = Section(emit, "Stencil order and fields, 8 ranks oversubscribed",
                  "Halo sweep: `--local 64 --faces --halo 1,2,4,6,10` on 2x2x2 (per-rank 64^3), both packs. The seed's "
                  "record: the halo wait grew 1.0, 1.9, 3.7, 6.0, 9.9 against face sizes 1, 2, 4, 6, 10. Here Time_us "
                  "and Send_B relative to h = 1, median of the interleaved runs.")
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.table(["pack", "H", "Send_B", "Time_us", "Send_B / h=1", "Time_us / h=1"])
    halos = (1, 2, 4, 6, 10)
    configs = {}
    for pack in ("datatype", "kernel"):
        f = ["--local", "64", "--faces", "--grid", "2,2,2", "--halo", ",".join(map(str, halos)), "--pack", pack,
             "--iters", "20", "--warmup", "3", "--repeats", "3"]
        configs[pack] = (exe, 8, f)
        sec.ran((exe, 8, f))
    got = interleave(configs, args.pairs)
    for pack in ("datatype", "kernel"):
        for h in halos:
            rows = got[pack]
            t = [float(r[(64, h)]["Time_us"]) / float(r[(64, 1)]["Time_us"]) for r in rows]
            sec.row(pack, h, rows[0][(64, h)]["Send_B"], f"{med([float(r[(64, h)]['Time_us']) for r in rows]):.1f}",
                    f"{int(rows[0][(64, h)]['Send_B']) / int(rows[0][(64, 1)]['Send_B']):.1f}", ratio_text(t))
    sec.emit()
    sec.say("Fields: 3 fields in one message per piece (aggregated) against 3 messages per piece (separate), "
            "`--local 64 --faces` on 2x2x2, both packs. ratio = Time_us(separate) / Time_us(aggregated).")
    sec.table(["pack", "L", "aggregated Time_us", "separate Time_us", "separate / aggregated"])
    configs = {}
    for pack in ("datatype", "kernel"):
        for mode in ("aggregated", "separate"):
            f = ["--local", "32,64", "--faces", "--grid", "2,2,2", "--fields", "3", "--messages", mode, "--pack", pack,
                 "--iters", "20", "--warmup", "3", "--repeats", "3"]
            configs[f"{pack}-{mode}"] = (exe, 8, f)
            sec.ran((exe, 8, f))
    got = interleave(configs, args.pairs)
    for pack in ("datatype", "kernel"):
        for L in (32, 64):
            a = [float(r[(L, 0)]["Time_us"]) for r in got[f"{pack}-aggregated"]]
            s = [float(r[(L, 0)]["Time_us"]) for r in got[f"{pack}-separate"]]
            sec.row(pack, L, f"{med(a):.1f}", f"{med(s):.1f}", ratio_text([y / x for x, y in zip(a, s)]))
    sec.close()


ONEPASS_CASES = (("±x", 2, ["--axis", "x", "--grid", "2,1,1"]), ("±z", 2, ["--axis", "z", "--grid", "1,1,2"]),
                 ("--faces", 2, ["--faces", "--grid", "2,1,1"]), ("--faces", 4, ["--faces", "--grid", "2,2,1"]),
                 ("--stencil box", 4, ["--stencil", "box", "--grid", "2,2,1"]))


def section_onepass(args, emit):
    sec = Section(emit, "One pass over shared rows: the host copy against the per-piece copy",
                  "`--pack kernel`, huge pages (the default), the default pipelined schedule: this build (one pass "
                  "over the rows the pieces share) against the baseline build (each piece copied on its own), "
                  "interleaved. Time_us from runs without --breakdown; Pack_us + Unpack_us from runs with it. gain = "
                  "median over pairs of per-piece / one-pass (above 1: the one pass is faster), quartiles of the "
                  "per-pair ratios in brackets. Targets: ±x at N = 512 >= 1.4, at N = 256 >= 1.0; --faces and "
                  "--stencil box >= 1.0 at every size. 4 ranks on 2 cores are oversubscribed: each pair is given three "
                  "times the runs there.")
    new, old = os.path.join(args.build, "halo-bandwidth"), os.path.join(args.baseline, "halo-bandwidth")
    common = ["--pack", "kernel", "--sizes", "256,512", "--iters", "30", "--warmup", "5", "--repeats", "3"]
    sec.table(["case", "ranks", "N", "per-piece Time_us", "one-pass Time_us", "gain", "per-piece Pack+Unpack_us",
               "one-pass Pack+Unpack_us", "gain", "target"])
    xface, schedules = None, []
    for name, ranks, flags in ONEPASS_CASES:
        f = flags + common
        configs = {"old": (old, ranks, f), "new": (new, ranks, f), "old-bd": (old, ranks, f + ["--breakdown"]),
                   "new-bd": (new, ranks, f + ["--breakdown"]), "bulk": (new, ranks, f + ["--schedule", "bulk"])}
        if name == "±x":
            for n in (256, 512):
                configs[f"loop{n}"] = lambda n=n: {(n, 0): reference(n, "2,1,1", "x", True, 2, args.build)}
        sec.ran(*[c for c in configs.values() if not callable(c)])
        got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
        if name == "±x":
            xface = got
        case = f"{name} {' '.join(flags[-2:])}"
        for n in (256, 512):
            t = {k: [float(r[(n, 0)]["Time_us"]) for r in got[k]] for k in ("old", "new")}
            pu = {k: [float(r[(n, 0)]["Pack_us"]) + float(r[(n, 0)]["Unpack_us"]) for r in got[k]]
                  for k in ("old-bd", "new-bd")}
            gain = [a / b for a, b in zip(t["old"], t["new"])]
            target = 1.4 if name == "±x" and n == 512 else 1.0
            mark = "" if name == "±z" else f">= {target} {'met' if med(gain) >= target else 'MISSED'}"
            sec.row(case, ranks, n, f"{med(t['old']):.1f}", f"{med(t['new']):.1f}", ratio_text(gain),
                    f"{med(pu['old-bd']):.1f}", f"{med(pu['new-bd']):.1f}",
                    ratio_text([a / b for a, b in zip(pu['old-bd'], pu['new-bd'])]), mark)
            bulk = [float(r[(n, 0)]["Time_us"]) for r in got["bulk"]]
            schedules.append((case, ranks, n, f"{med(t['new']):.1f}", f"{med(bulk):.1f}",
                              ratio_text([a / b for a, b in zip(bulk, t["new"])])))
    sec.emit()
    sec.say("The schedules of this build, from the same interleaved runs: Time_us with the default `--schedule "
            "pipelined` and with `--schedule bulk`; ratio = bulk / pipelined (above 1: pipelined is faster).")
    sec.table(["case", "ranks", "N", "pipelined Time_us", "bulk Time_us", "bulk / pipelined"], schedules)
    sec.emit()
    onepass_loops(xface, sec)
    sec.close("mpiexec -n 2 build/halobw-pack-reference N 2,1,1 x 1 50 1")


def onepass_loops(xface, sec):
    """The x faces of the onepass section's ±x runs against the plain loops interleaved with them."""
    sec.say("The x faces against the plain loops over the same faces (bench/pack_reference.cpp, two copies at once "
            "as two ranks run, the slower counts, huge pages), from the ±x runs above: pack + unpack of both faces "
            "face by face and in one pass over the rows (both faces of a row, then the next row), and --breakdown's "
            "Pack_us + Unpack_us of each build. Target: the one-pass copy within 1.15x of the one-pass loop.")
    sec.table(["N", "face-by-face loop", "one-pass loop", "loop gain", "per-piece copy", "one-pass copy", "copy gain",
               "one-pass copy / one-pass loop", "target"])
    for n in (256, 512):
        loops = [r[(n, 0)] for r in xface[f"loop{n}"]]
        face = [r["pack"] + r["unpack"] for r in loops]
        row = [r["row_pack"] + r["row_unpack"] for r in loops]
        pu = {k: [float(r[(n, 0)]["Pack_us"]) + float(r[(n, 0)]["Unpack_us"]) for r in xface[k]]
              for k in ("old-bd", "new-bd")}
        vs = [a / b for a, b in zip(pu["new-bd"], row)]
        sec.row(n, f"{med(face):.1f}", f"{med(row):.1f}", ratio_text([a / b for a, b in zip(face, row)]),
                f"{med(pu['old-bd']):.1f}", f"{med(pu['new-bd']):.1f}",
                ratio_text([a / b for a, b in zip(pu["old-bd"], pu["new-bd"])]), ratio_text(vs),
                f"<= 1.15 {'met' if med(vs) <= 1.15 else 'MISSED'}")


# (name, ranks, flags, the plain program's stencil, sizes, Time_us target, pack)
BESTPLAIN_CASES = (("±x", 2, ["--axis", "x", "--grid", "2,1,1"], "x", (128, 256, 512), 1.10, "kernel"),
                   ("--faces", 8, ["--faces", "--grid", "2,2,2"], "faces", (128, 256), 1.15, "kernel"),
                   ("--stencil box", 8, ["--stencil", "box", "--grid", "2,2,2"], "box", (128, 256), 1.15, "kernel"),
                   ("±x", 2, ["--axis", "x", "--grid", "2,1,1"], "x", (128, 256, 512), None, "datatype"),
                   ("--faces", 8, ["--faces", "--grid", "2,2,2"], "faces", (128, 256), None, "datatype"),
                   ("--stencil box", 8, ["--stencil", "box", "--grid", "2,2,2"], "box", (128, 256), None, "datatype"))


def onepass_plain(build, n, grid, stencil, ranks, pack="kernel", iters=50, blocks=3):
    """bench/onepass_exchange.cpp, huge pages: Time_us, Pack_us, Unpack_us and Send_B of its median block."""
    exe = os.path.join(build, "halobw-onepass-exchange")
    cmd = mpiexec(ranks, launcher_of(exe)) + [exe, str(n), grid, stencil, "1", str(iters), "5", str(blocks), "1", pack]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV).stdout.split()
    return {(n, 0): {"Time_us": out[0], "Pack_us": out[1], "Unpack_us": out[2], "Send_B": out[3]}}


def section_bestplain(args, emit):
    sec = Section(emit, "The kernel path against the best plain program",
                  "`halo-bandwidth --pack kernel` (huge pages, the default pipelined schedule) against "
                  "bench/onepass_exchange.cpp: one pass over the rows packs every piece, one message each way per "
                  f"distinct neighbour, one pass unpacks, on the same clock (the median of {args.blocks} blocks of "
                  f"{args.iters} exchanges, the slowest rank), huge pages. Interleaved; ratio = median over pairs of "
                  "halo-bandwidth / plain (below 1: halo-bandwidth is faster), quartiles of the per-pair ratios in "
                  "brackets. Time_us from runs without --breakdown; Pack_us + Unpack_us from runs with it, against the "
                  "plain program's pack and unpack passes timed inside its exchanges (the rank with the most). "
                  "Targets: ±x Time_us and Pack+Unpack <= 1.10; --faces and --stencil box Time_us <= 1.15. 8 ranks on "
                  "2 cores are oversubscribed: each pair is given three times the runs there. The last rows are the "
                  "datatype path (`--pack datatype`) against the same program sending each piece as MPI's subarray of "
                  "the field (halo-bandwidth sends the pieces for one neighbour as one struct of their subarrays; no "
                  "target: does anything of ours add cost?).")
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.table(["case", "ranks", "N", "plain Time_us", "halo Time_us", "halo / plain", "target", "plain Pack+Unpack_us",
               "halo Pack+Unpack_us", "halo / plain", "target"])
    messages, typed = [], []
    for name, ranks, flags, stencil, sizes, target, pack in BESTPLAIN_CASES:
        if args.cases and f"{stencil}-{pack}" not in args.cases.split(","):
            continue
        grid = flags[flags.index("--grid") + 1]
        f = flags + ["--pack", pack, "--sizes", ",".join(map(str, sizes)), "--iters", str(args.iters), "--warmup", "5",
                     "--repeats", str(args.blocks)]
        configs = {"halo": (exe, ranks, f)}
        if pack == "kernel":
            configs["halo-bd"] = (exe, ranks, f + ["--breakdown"])
        else:  # a subarray message per piece, as the plain program sends them, beside one struct per neighbour
            configs["halo-pieces"] = (exe, ranks, f + ["--messages", "aggregated"])
        for n in sizes:
            configs[f"plain{n}"] = lambda n=n, grid=grid, stencil=stencil, ranks=ranks, pack=pack: onepass_plain(
                args.build, n, grid, stencil, ranks, pack, args.iters, args.blocks)
            if pack == "kernel":  # the same program with a message per piece, as halo-bandwidth sends them
                configs[f"pieces{n}"] = lambda n=n, grid=grid, stencil=stencil, ranks=ranks: onepass_plain(
                    args.build, n, grid, stencil, ranks, "kernel-pieces", args.iters, args.blocks)
        sec.ran(*[c for c in configs.values() if not callable(c)])
        got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
        for n in sizes:
            plain_rows = [r[(n, 0)] for r in got[f"plain{n}"]]
            if any(int(r["Send_B"]) != int(h[(n, 0)]["Send_B"]) for r, h in zip(plain_rows, got["halo"])):
                sys.exit(f"bestplain: {name} N = {n}: the plain program sends other bytes than halo-bandwidth")
            t = [float(r[(n, 0)]["Time_us"]) for r in got["halo"]]
            tp = [float(r["Time_us"]) for r in plain_rows]
            pu = [float(r[(n, 0)]["Pack_us"]) + float(r[(n, 0)]["Unpack_us"]) for r in got.get("halo-bd", [])]
            pup = [float(r["Pack_us"]) + float(r["Unpack_us"]) for r in plain_rows]
            rt = [a / b for a, b in zip(t, tp)]
            rpu = [a / b for a, b in zip(pu, pup)] if pack == "kernel" else []
            kernel_x = name == "±x" and pack == "kernel"
            copy_target = f"<= {target:.2f} {'met' if med(rpu) <= target else 'MISSED'}" if kernel_x else ""
            time_target = f"<= {target:.2f} {'met' if med(rt) <= target else 'MISSED'}" if target else ""
            copies = ((f"{med(pup):.1f}", f"{med(pu):.1f}", ratio_text(rpu)) if pack == "kernel" else
                      ("0", "0", "(MPI packs)"))
            sec.row(f"{name} --pack {pack} --grid {grid}", ranks, n, f"{med(tp):.1f}", f"{med(t):.1f}",
                    ratio_text(rt), time_target, *copies, copy_target)
            if f"pieces{n}" in got:
                tpp = [float(r[(n, 0)]["Time_us"]) for r in got[f"pieces{n}"]]
                messages.append((f"{name} --grid {grid}", n, f"{med(tp):.1f}", f"{med(tpp):.1f}",
                                 ratio_text([a / b for a, b in zip(tpp, tp)]), f"{med(t):.1f}",
                                 ratio_text([a / b for a, b in zip(t, tpp)])))
            if "halo-pieces" in got:
                tpc = [float(r[(n, 0)]["Time_us"]) for r in got["halo-pieces"]]
                typed.append((f"{name} --grid {grid}", n, f"{med(tp):.1f}", f"{med(t):.1f}", ratio_text(rt),
                              f"{med(tpc):.1f}", ratio_text([a / b for a, b in zip(tpc, tp)]),
                              ratio_text([a / b for a, b in zip(t, tpc)])))
    sec.emit()
    sec.say("Messages, from the same --pack kernel runs: the plain program with one message per distinct neighbour "
            "(above, as halo-bandwidth's default --messages peer sends them) and with one per piece, as "
            "halo-bandwidth --messages aggregated sends them (PACK kernel-pieces: on ±x 2x1x1 two messages to the "
            "one neighbour, on 2x2x2 6 or 26 messages to 3 or 7 neighbours), and halo-bandwidth against the "
            "second: what the message count weighs.")
    sec.table(["case", "N", "plain, a message per neighbour", "plain, a message per piece",
               "per piece / per neighbour", "halo Time_us", "halo / plain per piece"], messages)
    if typed:
        sec.emit()
        sec.say("The datatype path's message shape, from the same runs: halo-bandwidth's one struct of the pieces' "
                "subarrays per neighbour (the default --messages peer) and a subarray message per piece (--messages "
                "aggregated, the plain program's shape), each against the plain program, and the first against the "
                "second.")
        sec.table(["case", "N", "plain Time_us", "halo struct Time_us", "struct / plain", "halo per piece Time_us",
                   "per piece / plain", "struct / per piece"], typed)
    if args.baseline and (not args.cases or "ab" in args.cases.split(",")):
        sec.emit()
        bestplain_ab(args, sec)
    sec.close(f"mpiexec -n RANKS build/halobw-onepass-exchange N GRID x|faces|box 1 {args.iters} 5 {args.blocks} 1 "
              "kernel|kernel-pieces|datatype")


# The direct method's cases: name, ranks, flags, the plain program's stencil (None: halo-bandwidth --method p2p
# --pack datatype is the reference, MPI's one copy of a contiguous face), sizes, the target ratio.
SHM_CASES = (("±x", 2, ["--axis", "x", "--grid", "2,1,1"], "x", (128, 256, 512), 0.85),
             ("±z", 2, ["--axis", "z", "--grid", "1,1,2"], None, (128, 256, 512), 1.0),
             ("--faces", 8, ["--faces", "--grid", "2,2,2"], "faces", (128, 256), 0.75),
             ("--stencil box", 8, ["--stencil", "box", "--grid", "2,2,2"], "box", (128, 256), 0.75))


def section_shm(args, emit):
    sec = Section(emit, "The direct method against the best plain program",
                  "`halo-bandwidth --method shm` (every piece copied out of the neighbour's field in the node's shared "
                  "window, one pass over the lines, ready/copied flags) against bench/onepass_exchange.cpp (huge "
                  "pages, one pass packs, one message each way per neighbour, one pass unpacks), or for ±z against "
                  "halo-bandwidth --method p2p --pack datatype (the face is contiguous: MPI copies it once, straight "
                  f"from the field). Median of {args.blocks} blocks of {args.iters} exchanges, the slowest rank. "
                  "Interleaved; ratio = median over pairs of shm / plain, quartiles in brackets. Mpi_us and Unpack_us "
                  "from shm runs with --breakdown: the flag waits and the copy. Copy_GBps from a shm run with --limit "
                  "(a plain copy of Send_B where the field lives), beside shm's Uni_GBps. 8 ranks on 2 cores are "
                  "oversubscribed: each pair is given three times the runs there.")
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.table(["case", "ranks", "N", "plain Time_us", "shm Time_us", "shm / plain", "target", "shm Mpi_us (waits)",
               "shm Unpack_us (copy)", "shm Uni_GBps", "Copy_GBps"])
    for name, ranks, flags, stencil, sizes, target in SHM_CASES:
        grid = flags[flags.index("--grid") + 1]
        f = flags + ["--sizes", ",".join(map(str, sizes)), "--iters", str(args.iters), "--warmup", "5",
                     "--repeats", str(args.blocks)]
        configs = {"shm": (exe, ranks, f + ["--method", "shm"]),
                   "shm-bd": (exe, ranks, f + ["--method", "shm", "--breakdown"]),
                   "shm-limit": (exe, ranks, f + ["--method", "shm", "--limit"])}
        if stencil is None:
            configs["p2p"] = (exe, ranks, f + ["--method", "p2p", "--pack", "datatype"])
        else:
            for n in sizes:
                configs[f"plain{n}"] = lambda n=n, grid=grid, stencil=stencil, ranks=ranks: onepass_plain(
                    args.build, n, grid, stencil, ranks, "kernel", args.iters, args.blocks)
        sec.ran(*[c for c in configs.values() if not callable(c)])
        got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
        for n in sizes:
            plain = [r[(n, 0)] for r in got["p2p" if stencil is None else f"plain{n}"]]
            if any(int(r["Send_B"]) != int(h[(n, 0)]["Send_B"]) for r, h in zip(plain, got["shm"])):
                sys.exit(f"shm: {name} N = {n}: the reference sends other bytes than halo-bandwidth")
            t = [float(r[(n, 0)]["Time_us"]) for r in got["shm"]]
            tp = [float(r["Time_us"]) for r in plain]
            rt = [a / b for a, b in zip(t, tp)]
            col = lambda cfg, k, d=1: f"{med([float(r[(n, 0)][k]) for r in got[cfg]]):.{d}f}"
            sec.row(f"{name} --grid {grid}", ranks, n, f"{med(tp):.1f}", f"{med(t):.1f}", ratio_text(rt),
                    f"<= {target:.2f} {'met' if med(rt) <= target else 'MISSED'}", col("shm-bd", "Mpi_us"),
                    col("shm-bd", "Unpack_us"), col("shm", "Uni_GBps", 2), col("shm-limit", "Copy_GBps", 2))
    sec.emit()
    load = os.getloadavg()
    sec.emit(f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    sec.close(f"mpiexec -n RANKS build/halobw-onepass-exchange N GRID x|faces|box 1 {args.iters} 5 {args.blocks} 1 "
              "kernel")


def bestplain_ab(args, sec):
    """The contiguous faces, this build against --baseline: the host copy's change must not slow them."""
    sec.say("The contiguous faces, this build against the baseline build (--baseline), interleaved: ratio = median "
            "over pairs of this / baseline Time_us (target: within noise, quartiles across 1).")
    sec.table(["case", "N", "baseline Time_us", "this Time_us", "this / baseline"])
    new, old = os.path.join(args.build, "halo-bandwidth"), os.path.join(args.baseline, "halo-bandwidth")
    for axis, grid in (("z", "1,1,2"), ("y", "1,2,1")):
        f = ["--axis", axis, "--grid", grid, "--pack", "kernel", "--sizes", "256,512", "--iters", "50", "--warmup",
             "5", "--repeats", "3"]
        configs = {"old": (old, 2, f), "new": (new, 2, f)}
        sec.ran(*configs.values())
        got = interleave(configs, args.pairs)
        for n in (256, 512):
            t = {k: [float(r[(n, 0)]["Time_us"]) for r in got[k]] for k in configs}
            sec.row(f"±{axis} --grid {grid}", n, f"{med(t['old']):.1f}", f"{med(t['new']):.1f}",
                    ratio_text([a / b for a, b in zip(t["new"], t["old"])]))


def callgrind_per_exchange(exe, flags, iters):
    """Instructions one rank executes per exchange: callgrind's totals of two runs, K and 2K exchanges,
    differenced, so that start-up and set-up cancel. One rank whose pieces go to itself as MPI messages
    (--self mpi): every phase and region runs, and no wait spins on a peer, so the count is the same on
    every run, whatever the noise (on two ranks the waits' polling would count)."""
    totals = []
    with tempfile.TemporaryDirectory(prefix="halobw-callgrind-") as d:
        for k in (iters, 2 * iters):
            out = os.path.join(d, f"cg.{k}")
            cmd = mpiexec(1, launcher_of(exe)) + ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                                   exe] + flags + ["--grid", "1,1,1", "--self", "mpi",
                                                                   "--iters", str(k), "--timeout", "0"]
            subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True)
            with open(out) as f:
                totals.append(next(int(l.split()[1]) for l in f if l.startswith("summary:")))
    return (totals[1] - totals[0]) / iters


def section_regions(args, emit):
    """The Kokkos profiling regions around the phases, this build against --baseline built with them compiled
    out (-DHALOBW_PROFILE_REGIONS=OFF), at N = 16 where an exchange is shortest and they weigh most."""
    if not args.baseline:
        raise SystemExit("the regions section needs --baseline: a build with -DHALOBW_PROFILE_REGIONS=OFF")
    sec = Section(emit, "The profiling regions' cost in the timed loop",
                  "This build (regions on, no tool loaded) against the baseline build with the regions compiled out "
                  "(`-DHALOBW_PROFILE_REGIONS=OFF`), 2 ranks, N = 16, `--iters 2000`, interleaved: ratio = median over "
                  "pairs of on / off Time_us; and callgrind's instructions per exchange (one rank, its pieces sent to "
                  "itself with `--self mpi`; two runs of K and 2K exchanges, differenced), which no noise moves.")
    sec.table(["case", "off Time_us", "on Time_us", "on / off", "off instr/exchange", "on instr/exchange"])
    new, old = os.path.join(args.build, "halo-bandwidth"), os.path.join(args.baseline, "halo-bandwidth")
    for name, f in (("±z kernel", ["--axis", "z", "--grid", "1,1,2", "--pack", "kernel"]),
                    ("±x kernel", ["--axis", "x", "--grid", "2,1,1", "--pack", "kernel"]),
                    ("--faces kernel 2x1x1", ["--faces", "--grid", "2,1,1", "--pack", "kernel"])):
        flags = f + ["--sizes", "16", "--warmup", "50", "--repeats", "3"]
        configs = {"off": (old, 2, flags + ["--iters", "2000"]), "on": (new, 2, flags + ["--iters", "2000"])}
        sec.ran(*configs.values())
        got = interleave(configs, args.pairs)
        t = {k: [float(r[(16, 0)]["Time_us"]) for r in got[k]] for k in configs}
        one = [x for i, x in enumerate(flags) if x != "--grid" and (i == 0 or flags[i - 1] != "--grid")]
        ins = {k: callgrind_per_exchange(exe, one, 200) for k, exe in (("off", old), ("on", new))}
        sec.row(name, f"{med(t['off']):.2f}", f"{med(t['on']):.2f}",
                ratio_text([a / b for a, b in zip(t["on"], t["off"])]), f"{ins['off']:.0f}", f"{ins['on']:.0f}")
    sec.close(tail="; the instruction counts: the same under `valgrind --tool=callgrind` on 1 rank with "
              "`--grid 1,1,1 --self mpi`, `--iters 200` and `--iters 400`.")


METHODS = (("p2p", []), ("persistent", []), ("partitioned", []), ("neighbor", []), ("neighbor-persistent", []),
           ("rma pscw", ["--method", "rma"]), ("rma fence", ["--method", "rma", "--rma-sync", "fence"]), ("shm", []))


def method_flags(name, extra):
    return extra if extra else ["--method", name]


def offered(exe, name, extra):
    """Whether this build's MPI has the method (with `extra`'s pack, say): one that it lacks, or cannot serve with
    those flags, is refused at set-up (exit 2, one line)."""
    cmd = mpiexec(1, launcher_of(exe)) + [exe, "--axis", "z", "--sizes", "4", "--iters", "1"] + \
        method_flags(name, extra)
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV).returncode != 2


# MPI-4's methods and the methods each is set against (p2p first: every ratio is to p2p).
MPI4 = ("p2p", "persistent", "partitioned", "neighbor", "neighbor-persistent")


def section_mpi4(args, emit):
    Section(emit, "MPI-4's methods against p2p")
    for spec in args.mpi or [f"openmpi={args.build}"]:
        mpi, build = spec.split("=", 1)
        exe = os.path.join(build, "halo-bandwidth")
        # A method the library has with either pack (Open MPI 5 refuses partitioned with datatypes only).
        methods = [m for m in MPI4
                   if any(offered(exe, m, ["--method", m, "--pack", p]) for p in ("datatype", "kernel"))]
        sec = Section(emit, f"{mpi} (`{launcher_of(exe)}`): {', '.join(methods)}",
                      "Median Time_us and Mpi_us (`--breakdown`) of the interleaved runs, and each method's Time_us as "
                      "a share of p2p's in the same pair (median of the paired ratios; above 1 is slower).", level=4)
        sec.table(["case", "N", *[f"{m} Time_us" for m in methods], *[f"{m} Mpi_us" for m in methods],
                   *[f"{m}/p2p" for m in methods[1:]]])
        cases = [(f"±{axis} {pack}", 2, ["--axis", axis, "--grid", grid, "--pack", pack, "--sizes", "128,256,512"])
                 for axis, grid in (("z", "1,1,2"), ("x", "2,1,1")) for pack in ("datatype", "kernel")]
        cases.append(("box 2x2x2 kernel", 8, ["--stencil", "box", "--grid", "2,2,2", "--pack", "kernel", "--sizes",
                                              "128"]))
        for name, ranks, flags in cases:
            configs = {}
            pack = flags[flags.index("--pack"):flags.index("--pack") + 2]
            for m in methods:
                if not offered(exe, m, ["--method", m] + pack):
                    continue  # refused with this pack (one line at set-up): its cells say "-"
                f = flags + ["--method", m, "--breakdown", "--iters", "30", "--warmup", "5", "--repeats", "3"]
                configs[m] = (exe, ranks, f)
                sec.ran((exe, ranks, f))
            got = interleave(configs, args.pairs)
            for n in sorted({k[0] for k in got["p2p"][0]}):
                time = {m: f"{med([float(r[(n, 0)]['Time_us']) for r in got[m]]):.1f}" for m in got}
                mpi_us = {m: f"{med([float(r[(n, 0)]['Mpi_us']) for r in got[m]]):.1f}" for m in got}
                rel = {m: ratio_text([float(a[(n, 0)]["Time_us"]) / float(b[(n, 0)]["Time_us"])
                                      for a, b in zip(got[m], got["p2p"])]) for m in got if m != "p2p"}
                sec.row(name, n, *[time.get(m, "-") for m in methods], *[mpi_us.get(m, "-") for m in methods],
                        *[rel.get(m, "-") for m in methods[1:]])
        sec.close()


def section_methods(args, emit):
    Section(emit, "The four MPI methods")
    builds = args.mpi or [f"openmpi={args.build}"]
    for spec in builds:
        mpi, build = spec.split("=", 1)
        exe = os.path.join(build, "halo-bandwidth")
        methods = [(m, extra) for m, extra in METHODS if offered(exe, m, extra)]
        sec = Section(emit, f"{mpi} (`{launcher_of(exe)}`)",
                      "2 ranks, median Uni_GBps of the interleaved runs, and each method's Time_us as a share of p2p's "
                      "(ratio = Time_us(method) / Time_us(p2p); above 1 is slower).", level=4)
        sec.table(["faces", "pack", "N", *[f"{m} GB/s" for m, _ in methods], *[f"{m}/p2p" for m, _ in methods[1:]]])
        for axis, grid in (("z", "1,1,2"), ("x", "2,1,1")):
            for pack in ("datatype", "kernel"):
                configs = {}
                for m, extra in methods:
                    f = ["--axis", axis, "--grid", grid, "--pack", pack, "--sizes", "128,256,512", "--iters", "30",
                         "--warmup", "5", "--repeats", "3"] + method_flags(m, extra)
                    configs[m] = (exe, 2, f)
                    sec.ran((exe, 2, f))
                got = interleave(configs, args.pairs)
                for n in (128, 256, 512):
                    uni = {m: med([float(r[(n, 0)]["Uni_GBps"]) for r in got[m]]) for m, _ in methods}
                    rel = {m: ratio_text([float(a[(n, 0)]["Time_us"]) / float(b[(n, 0)]["Time_us"])
                                          for a, b in zip(got[m], got["p2p"])]) for m, _ in methods[1:]}
                    sec.row(f"±{axis}", pack, n, *[f"{uni[m]:.3f}" for m, _ in methods],
                            *[rel[m] for m, _ in methods[1:]])
        sec.emit()
        sec.say("8 ranks oversubscribed, all faces on 2x2x2, `--pack kernel`:")
        sec.table(["N", *[f"{m} Time_us" for m, _ in methods], *[f"{m}/p2p" for m, _ in methods[1:]]])
        configs = {}
        for m, extra in methods:
            f = ["--faces", "--grid", "2,2,2", "--pack", "kernel", "--sizes", "64,128", "--iters", "20", "--warmup", "3",
                 "--repeats", "3"] + method_flags(m, extra)
            configs[m] = (exe, 8, f)
            sec.ran((exe, 8, f))
        got = interleave(configs, args.pairs)
        for n in (64, 128):
            t = {m: med([float(r[(n, 0)]["Time_us"]) for r in got[m]]) for m, _ in methods}
            rel = {m: ratio_text([float(a[(n, 0)]["Time_us"]) / float(b[(n, 0)]["Time_us"])
                                  for a, b in zip(got[m], got["p2p"])]) for m, _ in methods[1:]}
            sec.row(n, *[f"{t[m]:.1f}" for m, _ in methods], *[rel[m] for m, _ in methods[1:]])
        sec.close()


NETWORK = {"openmpi": ({}, ["--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"]),
           "mpich": ({"MPIR_CVAR_NOLOCAL": "1", "UCX_TLS": "tcp,self", "UCX_NET_DEVICES": "lo"}, [])}


def section_network(args, emit):
    sec = Section(emit, "Off-node through a real network stack (TCP on loopback)",
                  "2 ranks, ±z on 1x1x2, `--pack datatype` and `--pack kernel`: the same exchange over shared memory "
                  "and forced through TCP; median Uni_GBps of the interleaved runs.")
    sec.table(["MPI", "pack", "N", "shared memory GB/s", "TCP GB/s", "TCP / shm"])
    for spec in args.mpi or [f"openmpi={args.build}"]:
        mpi, build = spec.split("=", 1)
        exe = os.path.join(build, "halo-bandwidth")
        env, mca = NETWORK[mpi]
        for pack in ("datatype", "kernel"):
            f = ["--axis", "z", "--grid", "1,1,2", "--pack", pack, "--sizes", "128,512", "--iters", "30", "--warmup",
                 "5", "--repeats", "3"]
            launcher = launcher_of(exe)

            def tcp(f=f, exe=exe, launcher=launcher, env=env, mca=mca):
                cmd = mpiexec(2, launcher) + mca + [exe] + f
                out = subprocess.run(cmd, capture_output=True, text=True, env=dict(ENV, **env), check=True).stdout
                rows = {}
                cols = None
                for line in out.splitlines():
                    if line.startswith("# N "):
                        cols = line[2:].split()
                    elif line and not line.startswith("#"):
                        r = dict(zip(cols, line.split()))
                        rows[(int(r["N"]), 0)] = r
                return rows
            got = interleave({"shm": (exe, 2, f), "tcp": tcp}, args.pairs)
            sec.ran((exe, 2, f), " ".join([*(f"{k}={v}" for k, v in env.items()), *mpiexec(2, launcher), *mca,
                                           os.path.relpath(exe), *f]))
            for n in (128, 512):
                shm = [float(r[(n, 0)]["Uni_GBps"]) for r in got["shm"]]
                net = [float(r[(n, 0)]["Uni_GBps"]) for r in got["tcp"]]
                sec.row(mpi, pack, n, f"{med(shm):.3f}", f"{med(net):.3f}",
                        ratio_text([b / a for a, b in zip(shm, net)]))
    sec.close()


# Placements on simulated nodes: (ranks, nodes, grid, extents). On 4x2x1 as 2 nodes of 4, linear gives each node a
# 4x1x1 row of ranks (both y faces of every rank leave it), nodes a 2x2x1 block (one x face leaves it): 4x the
# off-node bytes at 512x128x128 and 1024x256x256; at 512x512x256 the x faces are twice the y faces and both send
# the same (the control, with the Send_B and brick of 1024x256x256). On 2x2x1 as 2 nodes of 2, nodes picks one
# block for the run's largest row, the first of the two equal boxes, 512x256x256 (docs/method.md): 1x2x1, cutting
# x, half linear's bytes there and twice at 256x512x256, where a run of that extent alone picks 2x1x1 (linear's).
PLACEMENT_CASES = ((8, 2, "4,2,1", ("512x128x128", "1024x256x256", "512x512x256")),
                   (4, 2, "2,2,1", ("512x256x256", "256x512x256")))


def section_placement(args, emit):
    sec = Section(emit, "Placement on simulated nodes: --placement linear against --placement nodes")
    tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests")
    sys.path.insert(0, tests)
    import launch_cases  # the fake ssh and the launcher line of the `nodes` suite, one copy
    if not launch_cases.unshare_ok():
        sec.say("Skipped: `unshare -u` is not permitted here (it needs root or CAP_SYS_ADMIN), so no simulated nodes.")
        return
    exe = os.path.join(args.build, "halo-bandwidth")
    launcher = launcher_of(exe)
    version = subprocess.run([launcher, "--version"], capture_output=True, text=True).stdout
    kind = "openmpi" if "Open MPI" in version or "OpenRTE" in version else "mpich"
    # Open MPI yields the core when idle only where it sees a node oversubscribed; each simulated node claims the
    # slots it is given, so without this the waiting ranks spin and Time_us is the scheduler's (tens of ms).
    extra = ["--mca", "mpi_yield_when_idle", "1"] if kind == "openmpi" else []
    yields = ("`--mca mpi_yield_when_idle 1`, as Open MPI sets it itself for an oversubscribed node: both nodes "
              "share this machine's cores. " if extra else "")
    sec.say("Each node's daemon is started through the fake ssh of tests/launch_cases.py in a UTS namespace of its "
            "own, so MPI sees separate nodes: shared memory within a node, TCP between, to this machine's own "
            "address, so the kernel delivers it here with no wire (the network section: TCP at 0.26-0.52 of shared "
            "memory's rate). `--faces`, `--pack datatype`, p2p; linear and nodes interleaved, in alternating order. "
            "OffNode_B: the most bytes one rank sends off its node per exchange; NodeOut_B: the most one node sends; "
            "both from each run's JSON. bytes = linear / nodes of either (they agree here: every brick is the same). "
            "time = median over pairs of Time_us(linear) / Time_us(nodes), quartiles in brackets: above 1, nodes is "
            "faster. " + yields + "Ranks outnumber the cores: each pair is given three times the runs when they do.")
    load = os.getloadavg()
    sec.say(f"Load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    sec.table(["ranks", "grid", "Global", "linear OffNode_B", "nodes OffNode_B", "bytes", "linear NodeOut_B",
               "nodes NodeOut_B", "bytes", "linear Time_us", "nodes Time_us", "time linear/nodes"])
    work = tempfile.mkdtemp(prefix="halobw-placement-")
    ssh = os.path.join(work, "ssh")
    with open(ssh, "w") as f:
        f.write(launch_cases.FAKE_SSH)
    os.chmod(ssh, 0o755)
    problems = []
    try:
        for ranks, count, grid, sizes in PLACEMENT_CASES:
            prefix = launch_cases.node_launcher(types.SimpleNamespace(kind=kind, mpiexec=launcher), ssh, count,
                                                ranks // count)(ranks) + extra
            flags = ["--faces", "--grid", grid, "--sizes", ",".join(sizes), "--iters", "30", "--warmup", "5",
                     "--repeats", "3"]

            def placed(placement, prefix=prefix, flags=flags, count=count):
                out = os.path.join(work, "r.json")
                cmd = prefix + [exe] + flags + ["--placement", placement, "--format", "json", "--output", out]
                p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=600)
                if p.returncode != 0:
                    raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
                doc = json.load(open(out))
                if doc["run"]["nodes"] != count or doc["run"]["placement"] != placement:
                    raise RuntimeError(f"{' '.join(cmd)}: {doc['run']['nodes']} nodes, placement "
                                       f"{doc['run']['placement']}; want {count} and {placement}")
                return {r.get("Global") or str(r.get("N")): r for r in doc["rows"]}

            for placement in ("linear", "nodes"):
                sec.ran(" ".join([os.path.basename(prefix[0])] + prefix[1:]).replace(ssh, "SSH") + " " +
                        " ".join([os.path.relpath(exe)] + flags + ["--placement", placement, "--format", "json",
                                                                   "--output", "r.json"]))
            got = interleave({p: (lambda p=p: placed(p)) for p in ("linear", "nodes")},
                             args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
            for size in sizes:
                rows = {p: [r[size] for r in got[p]] for p in got}
                b = {}
                for p in rows:
                    for col in ("OffNode_B", "NodeOut_B"):
                        seen = {r[col] for r in rows[p]}
                        if len(seen) != 1:
                            problems.append(f"{ranks} ranks {size} {p}: {col} differs between runs: {sorted(seen)}")
                        b[p, col] = rows[p][0][col]
                t = {p: [r["Time_us"] for r in rows[p]] for p in rows}
                sec.row(f"{ranks} as {count}x{ranks // count}", grid.replace(",", "x"), size,
                        b["linear", "OffNode_B"], b["nodes", "OffNode_B"],
                        f"{b['linear', 'OffNode_B'] / b['nodes', 'OffNode_B']:.2f}",
                        b["linear", "NodeOut_B"], b["nodes", "NodeOut_B"],
                        f"{b['linear', 'NodeOut_B'] / b['nodes', 'NodeOut_B']:.2f}",
                        f"{med(t['linear']):.1f}", f"{med(t['nodes']):.1f}",
                        ratio_text([a / c for a, c in zip(t["linear"], t["nodes"])]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sec.emit()
    for line in problems:
        sec.emit(f"Note: {line}")
    load = os.getloadavg()
    sec.emit(f"Load average at the end (the section's own ranks count in it): {load[0]:.2f} {load[1]:.2f} "
             f"{load[2]:.2f}")
    sec.close(label="Commands (SSH: tests/launch_cases.py's FAKE_SSH written to an executable file)")


# The phases --breakdown prints, in the order of the table of section simulated.
PHASES = ("Time_us", "Pack_us", "Mpi_us", "Unpack_us", "Xfer_us")


def simulated_table(smpi_exe, flags, cfg=()):
    """Rows of one run of the same command under SimGrid's SMPI on platforms/this-machine.xml (2 ranks, one node),
    keyed as table()'s."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
    cmd = [sys.executable, os.path.join(root, "scripts", "simulate"), "--platform",
           os.path.join(root, "platforms", "this-machine.xml"), "-n", "2", "--exe", smpi_exe, *cfg, "--"] + flags
    out = subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True).stdout
    cols, rows = None, {}
    for line in out.splitlines():
        if line.startswith("# N "):
            cols = line[2:].split()
        elif line and not line.startswith("#"):
            row = dict(zip(cols, line.split()))
            rows[(int(row["N"]), 0)] = row
    return rows


def section_simulated(args, emit):
    sec = Section(emit, "The model against the real run: 2 ranks on this machine and on platforms/this-machine.xml")
    smpi_exe = os.path.join(args.smpi_build, "halo-bandwidth")
    if shutil.which("smpirun") is None or not os.access(smpi_exe, os.X_OK):
        sec.say(f"Skipped: no smpirun, or no {smpi_exe} (cmake --preset smpi && cmake --build --preset smpi).")
        return
    exe = os.path.join(args.build, "halo-bandwidth")
    sec.say("The same command, real (Open MPI, 2 ranks on this machine's shared memory) and simulated (SMPI, 2 ranks "
            "on one node of platforms/this-machine.xml, `scripts/simulate`), run one after the other in alternating "
            "order. real and sim: the medians over the pairs; sim/real: the median of the per-pair ratios, quartiles "
            "in brackets; best: the real run's least (its best rate) over the pairs, the nearest to a quiet machine. "
            "net: the simulated run with `--cfg=smpi/simulate-computation:no`, the network model alone (no "
            "computation injected; deterministic, run once). Pack_us and Unpack_us are 0 on the datatype path.")
    load = os.getloadavg()
    sec.say(f"Load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    sec.table(["pack", "N", "phase", "real", "sim", "sim/real", "real, best", "net"])
    for pack in ("datatype", "kernel"):
        f = ["--axis", "z", "--grid", "1,1,2", "--pack", pack, "--sizes", "64,128,256", "--breakdown", "--iters", "50",
             "--warmup", "5", "--repeats", "3"]
        got = interleave({"real": (exe, 2, f), "sim": lambda f=f: simulated_table(smpi_exe, f)}, args.pairs)
        net = simulated_table(smpi_exe, f, ["--cfg=smpi/simulate-computation:no"])
        sec.ran((exe, 2, f), f"scripts/simulate --platform platforms/this-machine.xml -n 2 --exe "
                f"{os.path.relpath(smpi_exe)} [--cfg=smpi/simulate-computation:no] -- " + " ".join(f))
        for n in (64, 128, 256):
            for k in PHASES + ("Uni_GBps",):
                real = [float(r[(n, 0)][k]) for r in got["real"]]
                sim = [float(r[(n, 0)][k]) for r in got["sim"]]
                ratios = [b / a for a, b in zip(real, sim) if a > 0]
                best = max(real) if k == "Uni_GBps" else min(real)
                d = 2 if k == "Uni_GBps" else 1
                sec.row(pack, n, k, f"{med(real):.{d}f}", f"{med(sim):.{d}f}", ratio_text(ratios) if ratios else "-",
                        f"{best:.{d}f}", f"{float(net[(n, 0)][k]):.{d}f}")
    load = os.getloadavg()
    sec.emit()
    sec.emit(f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    sec.close()


# The rows each library runs: name, ranks, flags, the plain program's stencil (z: bench/plain_exchange.cpp, else
# bench/onepass_exchange.cpp), sizes.
MPIS_CASES = (("±x", 2, ["--axis", "x", "--grid", "2,1,1"], "x", (128, 256, 512)),
              ("±z", 2, ["--axis", "z", "--grid", "1,1,2"], "z", (128, 256, 512)),
              ("--faces", 8, ["--faces", "--grid", "2,2,2"], "faces", (128,)),
              ("--stencil box", 8, ["--stencil", "box", "--grid", "2,2,2"], "box", (128,)))
# What each row sets against its plain program: the kernel path, and the datatype path's two message shapes.
MPIS_SHAPES = (("kernel", ["--pack", "kernel"], "kernel"),
               ("datatype, struct per neighbour", ["--pack", "datatype", "--messages", "peer"], "datatype"),
               ("datatype, message per piece", ["--pack", "datatype", "--messages", "aggregated"], "datatype"))


def mpis_plain(args, build, n, grid, stencil, ranks, pack):
    """The plain program's rows for one N, built with the same library: one pass and a message per neighbour
    (kernel) or MPI's subarray per piece (datatype); ±z: Irecv/Isend of the memcpy'd faces (either pack)."""
    if stencil == "z":
        return {(n, 0): {"Time_us": str(plain(build, n, grid, "z", ranks, True, args.iters))}}
    return onepass_plain(build, n, grid, stencil, ranks, pack, args.iters, args.blocks)


def mpis_library(args, sec, build):
    """One library's figures: {(case, shape or method, N): (halo Time_us, plain Time_us, paired ratios)}, and
    {(case, N): paired ratios of the struct to the per-piece shape}."""
    exe = os.path.join(build, "halo-bandwidth")
    timing = ["--iters", str(args.iters), "--warmup", "5", "--repeats", str(args.blocks)]
    methods = [(m, extra) for m, extra in METHODS if m != "p2p" and offered(exe, m, extra)]
    got_rows, shapes = {}, {}
    for name, ranks, flags, stencil, sizes in MPIS_CASES:
        grid = flags[flags.index("--grid") + 1]
        base = flags + ["--sizes", ",".join(map(str, sizes))] + timing
        configs = {shape: (exe, ranks, base + extra) for shape, extra, _ in MPIS_SHAPES}
        if name == "±x":  # every method, packed, against the same plain program as the kernel path
            configs |= {m: (exe, ranks, base + ["--pack", "kernel"] + method_flags(m, extra)) for m, extra in methods}
        for n in sizes:
            for pack in ("kernel",) if stencil == "z" else ("kernel", "datatype"):
                configs[f"plain {pack} {n}"] = (lambda n=n, grid=grid, stencil=stencil, ranks=ranks, pack=pack:
                                                mpis_plain(args, build, n, grid, stencil, ranks, pack))
        sec.ran(*[c for c in configs.values() if not callable(c)])
        got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
        for n in sizes:
            t = {k: [float(r[(n, 0)]["Time_us"]) for r in v] for k, v in got.items() if (n, 0) in v[0]}
            for shape, _, pack in MPIS_SHAPES + tuple((m, None, "kernel") for m, _ in methods):
                if shape not in t:
                    continue
                ref = t[f"plain {'kernel' if stencil == 'z' else pack} {n}"]
                got_rows[(name, shape, n)] = (med(t[shape]), med(ref), [a / b for a, b in zip(t[shape], ref)])
            shapes[(name, n)] = [a / b for a, b in zip(t[MPIS_SHAPES[1][0]], t[MPIS_SHAPES[2][0]])]
    return got_rows, shapes, [m for m, _ in methods]


def section_mpis(args, emit):
    sec = Section(emit, "The five MPI libraries: the same rows, each against the plain program built with it",
                  "Each library's build (`--mpi NAME=BUILD_DIR`) runs the same rows, interleaved with the plain "
                  "program of bench/ built with that library and started by its launcher: bench/onepass_exchange.cpp "
                  "(one pass packs, a message per neighbour, one pass unpacks; for the datatype rows, MPI's subarray "
                  "per piece) and, for ±z, bench/plain_exchange.cpp (the faces memcpy'd, Irecv/Isend). Each cell: "
                  "the median over pairs of halo-bandwidth's Time_us / the plain program's (below 1: faster), "
                  "quartiles in brackets, and halo-bandwidth's median Time_us. Huge pages, "
                  f"the median of {args.blocks} blocks of {args.iters} exchanges, the slowest rank; 8 ranks on "
                  f"{os.cpu_count()} cores are oversubscribed and get three times the pairs.")
    libs = [spec.split("=", 1) for spec in args.mpi or [f"openmpi={args.build}"]]
    load = os.getloadavg()
    sec.say(f"Load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    results = {mpi: mpis_library(args, sec, build) for mpi, build in libs}
    names = [mpi for mpi, _ in libs]
    cell = lambda v: f"{ratio_text(v[2])}, {v[0]:.1f} µs" if v else "-"
    sec.say("Time against the plain program, by library:")
    rows = []
    for name, _, _, stencil, sizes in MPIS_CASES:
        for shape, _, _ in MPIS_SHAPES:
            rows += [(name, shape, n, *[cell(results[m][0].get((name, shape, n))) for m in names]) for n in sizes]
    sec.table(["case", "path", "N", *names], rows)
    sec.emit()
    methods = [m for m, _ in METHODS if m != "p2p" and any(m in results[x][2] for x in names)]
    sec.say("Every method on ±x (2x1x1, `--pack kernel`), against the same plain program (p2p is the kernel row "
            "above; '-': the library lacks the method):")
    sec.table(["method", "N", *names], [(m, n, *[cell(results[x][0].get(("±x", m, n))) for x in names])
                                        for m in methods for n in MPIS_CASES[0][4]])
    sec.emit()
    sec.say("The datatype path's message shape: the default (one struct of the pieces' subarrays per neighbour, "
            "`--messages peer`) over a subarray message per piece (`--messages aggregated`), paired ratios; a "
            "default is within the rule where this is at most 1.05:")
    sec.table(["case", "N", *names], [(name, n, *[ratio_text(results[x][1][(name, n)]) + (
        "" if med(results[x][1][(name, n)]) <= 1.05 else " over") for x in names])
        for name, _, _, _, sizes in MPIS_CASES for n in sizes])
    load = os.getloadavg()
    sec.emit()
    sec.say(f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    sec.close("mpiexec -n RANKS BUILD/halobw-onepass-exchange N GRID x|faces|box 1 "
              f"{args.iters} 5 {args.blocks} 1 kernel|datatype", "mpiexec -n 2 BUILD/halobw-plain-exchange N 1,1,2 "
              f"z 1 {args.iters} 5 1")


# The datatype path's three message shapes; the default (auto) is held to the faster of the other two.
SHAPES = ("auto", "peer", "aggregated")


def section_messages(args, emit):
    sec = Section(emit, "The datatype default's rule: `--messages auto` against the better of peer and aggregated",
                  "Per library (`--mpi NAME=BUILD_DIR`), `--pack datatype` with each message shape, interleaved "
                  f"({args.pairs} pairs, three times that on 8 ranks): auto's Time_us over that of the faster of the other "
                  "two (the one with the lower median Time_us), pair by pair (the median of the ratios, quartiles in "
                  "brackets); the rule holds where "
                  "it is at most 1.05. Huge pages, the median of 3 blocks of 50 exchanges, the slowest rank.")
    libs = [spec.split("=", 1) for spec in args.mpi or [f"openmpi={args.build}"]]
    rows = {}
    for mpi, build in libs:
        exe = os.path.join(build, "halo-bandwidth")
        for name, ranks, flags, _, sizes in MPIS_CASES:
            base = flags + ["--sizes", ",".join(map(str, sizes)), "--pack", "datatype",
                            "--iters", "50", "--warmup", "5", "--repeats", "3"]
            configs = {m: (exe, ranks, base + ["--messages", m]) for m in SHAPES}
            sec.ran(*configs.values())
            got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
            for n in sizes:
                t = {m: [float(r[(n, 0)]["Time_us"]) for r in got[m]] for m in SHAPES}
                better = min(SHAPES[1:], key=lambda m: med(t[m]))  # the faster by its median time
                ratios = [a / b for a, b in zip(t["auto"], t[better])]
                rows.setdefault((name, n), {})[mpi] = (
                    f"{ratio_text(ratios)} to {better}{'' if med(ratios) <= 1.05 else ' over'}; "
                    + ", ".join(f"{m} {med(t[m]):.1f}" for m in SHAPES))
    names = [mpi for mpi, _ in libs]
    sec.say("auto / the faster shape, and which it was; then each shape's median Time_us:")
    sec.table(["case", "N", *names], [(c, n, *[cells.get(m, "-") for m in names]) for (c, n), cells in rows.items()])
    load = os.getloadavg()
    sec.emit()
    sec.say(f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    sec.close()


SECTIONS = {"watchdog": section_watchdog, "plain": section_plain, "phases": section_phases,
            "hugepages": section_hugepages, "overlap": section_overlap, "onepass": section_onepass,
            "bestplain": section_bestplain, "shm": section_shm, "regions": section_regions,
            "shapes": section_shapes, "methods": section_methods, "mpi4": section_mpi4,
            "messages": section_messages, "network": section_network, "placement": section_placement,
            "simulated": section_simulated, "mpis": section_mpis}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--baseline", help="a build of an earlier commit to compare against (watchdog section; "
                    "required by onepass)")
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--pairs", type=int, default=5, help="interleaved repetitions of each comparison")
    ap.add_argument("--mpi", action="append", help="NAME=BUILD_DIR of an MPI build (openmpi, mpich), repeatable")
    ap.add_argument("--iters", type=int, default=50, help="bestplain: exchanges a block (the same for both programs)")
    ap.add_argument("--blocks", type=int, default=3, help="bestplain: timed blocks a run, both programs report the "
                    "median block (halo-bandwidth's --repeats)")
    ap.add_argument("--cases", help="bestplain: only these cases, STENCIL-PACK, comma-separated "
                    "(x-kernel, faces-kernel, box-kernel, x-datatype, faces-datatype, box-datatype, and ab: "
                    "the contiguous faces against --baseline; default all)")
    ap.add_argument("--markdown", help="also write the figures as Markdown here")
    ap.add_argument("--smpi-build", default="build-smpi", help="the smpi preset's build (section simulated)")
    args = ap.parse_args()
    for needs in ("onepass", "regions"):
        if needs in args.sections.split(",") and not args.baseline:
            ap.error(f"the {needs} section compares against another build: give --baseline OTHER_BUILD, or leave "
                     "the section out (--sections)")
    emit = Report()
    mpi = subprocess.run(["mpiexec", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    emit(f"Machine: {platform.node()}, {os.cpu_count()} cores, {platform.machine()}; {mpi}")
    emit()
    for name in args.sections.split(","):
        SECTIONS[name](args, emit)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(emit.lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
