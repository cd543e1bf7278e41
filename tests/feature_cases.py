#!/usr/bin/env python3
"""End-to-end cases of the features a stencil code decides on, each run
through scripts/check_table.py (every byte count, piece class and derived
column recomputed from the printed header) and judged on its --check lines.

Suites:
  overlap   --overlap on every transport, pack, schedule, stream count and progress mode, 1 2 4 8 ranks,
            uneven splits, --self mpi, box stencils: overlapped equals blocking, bit for bit; Hidden in
            [0, 1] or none (JSON null, '-' and a note in the table), never outside, over several runs
  shapes    --local against --sizes (same bricks, same Send_B), halo sweeps, K fields aggregated and
            separate, box stencils on 1x1x2, 2x2x2, 1x2x2 and 1x1x3, at 1 2 3 4 8 ranks
  methods   every method --help offers but p2p (rma with pscw and fence) on both packs and the staged
            transport, 1 2 4 8 ranks, --faces, uneven splits, --stencil box with --fields 3; a method the MPI
            library lacks is refused at set-up (exit 2, one line naming the library and what it lacks), and so
            is --method partitioned --pack datatype on Open MPI 5, which loses that pair's data
  hugepages --hugepages on|off: the header, the note per row, the JSON figures
  options   the new options' bad input: exit 2, one line, no row
  slowest   a rank made slow on purpose (HALOBW_TEST_HOOK_SLOW) is the one named Slowest in the table
            (--per-rank), the CSV and the JSON, at 2, 4 and 8 ranks; the JSON lists every rank
  slowest_at_scale  --per-rank above 64 ranks: a note per node in the table, every rank in the JSON
  iters     --iters auto: Iters in the table and the files, a K from 5 to 10^6 per row, with --warmup 0,
            --breakdown, --limit, --overlap and --repeats; --iters N fixed, its K in the files
  walls     boxes of extents (13x10x9 beside the cube 8) on walls along x, y, z or every axis, at 1 2 4 8 ranks,
            --stencil star and box, --fields 2, every --method the MPI library has, --pack datatype, with --check: the walls' ghost
            cells untouched, every figure through check_table (BoundaryFaces, Send_min_B at the walls)
  walls_kernel  the same on --pack kernel
  plans     --dry-run against the real run, row for row, at 1 2 4 8 ranks: cubes, boxes of extents, walls, box
            stencils, halo sweeps, --local cubes and bricks, uneven splits, placements nodes and cart; the dry run
            alone (--dry-run --ranks N) and under mpiexec give the real run's header line (grid and all) and its
            Send_B, Send_min_B, RemoteFaces, SelfFaces, OffNodeFaces, BoundaryFaces, OffNode_B and NodeOut_B (from
            its JSON file, checked against the schema and the reader); every table through check_table; a dry run
            at 8192 ranks on 16 per node through check_table; --dry-run with --format or --output refused (exit 2,
            one line)
Usage: feature_cases.py --exe ... --mpiexec ... --checker ... SUITE   (as run_cases.py)
"""
import csv
import json
import os
import shutil
import socket
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_cases  # noqa: E402  (the Runner: launching, judging, the checker)

FAST = ["--iters", "4", "--warmup", "1"]


def rows_of(out):
    cols = [l for l in out.splitlines() if l.startswith("# N ") or l.startswith("# L ")][0][2:].split()
    return [dict(zip(cols, l.split())) for l in out.splitlines() if l and not l.startswith("#")]


def overlap(r):
    cases = [
        (1, ["--faces", "--sizes", "12"]),
        (2, ["--axis", "z", "--sizes", "16,17"]),
        (2, ["--axis", "x", "--grid", "2,1,1", "--sizes", "16"]),
        (4, ["--faces", "--sizes", "13", "--self", "mpi"]),
        (8, ["--faces", "--sizes", "12"]),
        (4, ["--stencil", "box", "--sizes", "12"]),
        (2, ["--stencil", "box", "--sizes", "16", "--fields", "2", "--halo", "2"]),
    ]
    variants = [
        ["--pack", "datatype"],
        ["--pack", "kernel", "--schedule", "pipelined"],
        ["--pack", "kernel", "--schedule", "bulk", "--streams", "2"],
        ["--pack", "kernel", "--gpu-aware", "off", "--progress", "poll"],
        ["--pack", "datatype", "--progress", "poll", "--streams", "2"],
    ]
    for n, (ranks, flags) in enumerate(cases):
        # Every variant on the small cases; a rotating pair on the larger ones keeps the suite short.
        chosen = variants if ranks <= 2 else [variants[n % len(variants)], variants[(n + 2) % len(variants)]]
        for v in chosen:
            args = flags + v + ["--overlap", "--check"] + FAST
            out = r.table(ranks, args, expect=["Comp_us Blocking_us Overlap_us Exposed_us Noise_us Hidden Comp_GBps",
                                               "# overlap: "])
            if not out:
                continue
            rows = rows_of(out)
            good = [l for l in out.splitlines() if "--overlap: overlapped equals blocking, bit for bit" in l]
            if len(good) != len(rows):
                r.fail(f"-n {ranks} {' '.join(args)}", f"{len(good)} bit-for-bit lines for {len(rows)} rows\n{out}")
    # A --check of the overlap that fails names the cell: a corrupted ghost spoils both steps alike
    # (the exchange check catches it first), so the overlap's own check is exercised by the mpi tests.
    hidden_in_range(r)


def hidden_in_range(r):
    """Hidden is a share in [0, 1] or none, never outside: over several overlap runs written as JSON
    (the table on stdout beside it), every row's Hidden is null or in [0, 1], null exactly where the
    table prints '-' after a '# Hidden' note, with Noise_us beside it."""
    import shutil
    import tempfile
    work = tempfile.mkdtemp(prefix="halobw-hidden-")
    try:
        hidden_runs(r, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def hidden_runs(r, work):
    runs = [
        (2, ["--axis", "z", "--sizes", "16,32,64"]),
        (2, ["--axis", "z", "--sizes", "32,64", "--pack", "kernel", "--progress", "poll", "--repeats", "5"]),
        (4, ["--faces", "--sizes", "24,48", "--pack", "kernel", "--schedule", "bulk"]),
        (2, ["--local", "16,32", "--axis", "x", "--grid", "2,1,1", "--halo", "1,2"]),
        (1, ["--faces", "--sizes", "16,32"]),
        (8, ["--stencil", "box", "--sizes", "16"]),
    ]
    shares = nones = 0
    for n, (ranks, flags) in enumerate(runs):
        path = os.path.join(work, f"h{n}.json")
        out = r.table(ranks, flags + ["--overlap", "--format", "json", "--output", path] + FAST)
        if not out:
            continue
        r.cases += 1
        what = f"-n {ranks} {' '.join(flags)} --overlap: Hidden"
        try:
            doc = json.load(open(path))
        except (OSError, ValueError) as e:
            r.fail(what, f"no JSON document: {e}")
            continue
        table = rows_of(out)
        notes = [l for l in out.splitlines() if l.startswith("# Hidden ")]
        problems = []
        if len(table) != len(doc["rows"]):
            problems.append(f"{len(table)} table rows, {len(doc['rows'])} in the file")
        for row in doc["rows"]:
            h, noise = row["Hidden"], row["Noise_us"]
            if h is not None and not (isinstance(h, (int, float)) and 0 <= h <= 1):
                problems.append(f"Hidden {h} outside [0, 1] in {row}")
            if not noise >= 0:
                problems.append(f"Noise_us {noise}")
        # One run: the table on stdout and the file say the same, row by row.
        for t, row in zip(table, doc["rows"]):
            if (t["Hidden"] == "-") != (row["Hidden"] is None) or (
                    row["Hidden"] is not None and abs(float(t["Hidden"]) - row["Hidden"]) > 0.005 + 1e-9):
                problems.append(f"table Hidden {t['Hidden']}, file {row['Hidden']}")
            if abs(float(t["Noise_us"]) - row["Noise_us"]) > 0.05 + 1e-9:
                problems.append(f"table Noise_us {t['Noise_us']}, file {row['Noise_us']}")
        dashes = sum(1 for t in table if t["Hidden"] == "-")
        if dashes != len(notes):
            problems.append(f"{dashes} rows with Hidden '-', {len(notes)} notes '# Hidden ...: none'")
        if any(t["Hidden"] != "-" and not 0 <= float(t["Hidden"]) <= 1 for t in table):
            problems.append("a table Hidden outside [0, 1]")
        if problems:
            r.fail(what, "; ".join(problems) + "\n" + out)
            continue
        shares += sum(1 for row in doc["rows"] if row["Hidden"] is not None)
        nones += sum(1 for row in doc["rows"] if row["Hidden"] is None)
        print(f"ok   {what}: " + ", ".join("none" if row["Hidden"] is None else f"{row['Hidden']:.2f}"
                                           for row in doc["rows"]))
    print(f"     Hidden over {len(runs)} runs: {shares} shares in [0, 1], {nones} none, none outside")


def shapes(r):
    # --local against --sizes over the same bricks: 1 rank (8 = 8), 8 ranks on 2x2x2 (L 8 = N 16).
    for ranks, local, sizes, grid in ((1, "8", "8", "1,1,1"), (8, "8", "16", "2,2,2")):
        a = r.table(ranks, ["--faces", "--local", local, "--grid", grid, "--check"] + FAST, rows=1,
                    expect=["# L Global Send_B"])
        b = r.table(ranks, ["--faces", "--sizes", sizes, "--grid", grid, "--check"] + FAST, rows=1)
        if a and b and rows_of(a)[0]["Send_B"] != rows_of(b)[0]["Send_B"]:
            r.fail(f"-n {ranks} --local {local} vs --sizes {sizes}", f"{a}\n{b}")
    # --local on uneven-free grids of every rank count, with a halo sweep.
    for ranks in (1, 2, 3, 4, 8):
        r.table(ranks, ["--faces", "--local", "6,9", "--halo", "1,2,3", "--check"] + FAST, rows=6,
                expect=["halo 1,2,3", " Global H Send_B ", "# check L=9 H=3 passed"])
    # K fields, aggregated and separate, both packs, an uneven split.
    for ranks in (2, 3, 4):
        for messages in ("aggregated", "separate"):
            for pack in ("datatype", "kernel"):
                r.table(ranks, ["--faces", "--sizes", "13", "--fields", "3", "--messages", messages, "--pack", pack,
                                "--check"] + FAST, rows=1, expect=[f"fields 3 messages {messages}"])
    # Box stencils: all 26 pieces on the grids of the issue.
    for ranks, grid in ((2, "1,1,2"), (8, "2,2,2"), (4, "1,2,2"), (3, "1,1,3")):
        for pack in ("datatype", "kernel"):
            r.table(ranks, ["--stencil", "box", "--grid", grid, "--sizes", "12,13", "--halo", "2", "--pack", pack,
                            "--fields", "2", "--check"] + FAST, rows=2,
                    expect=["directions box", "RemoteEdges RemoteCorners"])
    # 1 and 8 ranks with box, self pieces sent as messages.
    r.table(1, ["--stencil", "box", "--sizes", "9", "--self", "mpi", "--check"] + FAST, rows=1)
    r.table(8, ["--stencil", "box", "--sizes", "11", "--self", "mpi", "--pack", "kernel", "--check"] + FAST, rows=1)


def offered_methods(r):
    """The methods --help offers, each with its settings (rma with pscw and with fence), and the refusal line
    of each that this MPI library lacks."""
    variants = []
    for m in r.choices("--method"):
        variants.append([m])
        if m == "rma":
            variants.append(["rma", "--rma-sync", "fence"])
    return [(v, r.lacks(v[0])) for v in variants]


def methods(r):
    offered = offered_methods(r)
    for method, refusal in offered:
        if method[0] == "p2p":
            continue
        if refusal:
            # Refused before anything is set up, on every rank count alike.
            for ranks in (1, 4):
                r.rejected(ranks, ["--faces", "--sizes", "12", "--method", method[0], "--check"] + FAST,
                           f"--method {method[0]}: ")
            continue
        for ranks in (1, 2, 4, 8):
            packs = (["--pack", "datatype"], ["--pack", "kernel"], ["--pack", "kernel", "--gpu-aware", "off"])
            # Every transport at 2 and 4 ranks; one each at 1 and 8, where a run costs the most.
            if ranks in (1, 8):
                packs = packs[1:2] if ranks == 8 else packs[:1]
            for pack in packs:
                flags = ["--faces", "--sizes", "12,13", "--method"] + method + pack + ["--check"] + FAST
                said = r.refuses(method[0], pack[1])
                if said:
                    # Only the pair known to lose data on Open MPI 5 is refused (method_registry.cpp).
                    if (method[0], pack[1]) != ("partitioned", "datatype") or "Open MPI v5" not in said:
                        r.fail(f"--method {method[0]} --pack {pack[1]}", f"refused: {said}")
                    r.rejected(ranks, flags, f"--method {method[0]} --pack {pack[1]}: ")
                    continue
                if ranks == 8 and method[0] != "rma":
                    flags += ["--stencil", "box"]
                if method[0] == "rma" and ranks == 1:
                    # Open MPI's default one-sided component makes no window on one rank: then exit 2, named.
                    r.cases += 1
                    rc, out, err = r.run(ranks, flags)
                    if rc == 0:
                        r.table(ranks, flags, rows=2)
                    elif rc != 2 or "MPI_Win_create" not in err or "OMPI_MCA_osc=pt2pt" not in err:
                        r.fail(f"-n 1 {' '.join(flags)}", f"exit {rc}\n{err}")
                    continue
                r.table(ranks, flags, rows=2, expect=[f"method {method[0]}"])
        # Every piece of a box stencil, three fields in a message per peer, an uneven split, both packs.
        for pack in ("datatype", "kernel"):
            flags = ["--stencil", "box", "--fields", "3", "--sizes", "13", "--method"] + method + \
                    ["--pack", pack, "--check"] + FAST
            if r.refuses(method[0], pack):
                continue  # its refusal is asked above
            env = run_cases.rma_env(r, 4, flags, " ".join(flags)) if method[0] == "rma" else {}
            r.table(4, flags, env, rows=1, expect=[f"method {method[0]}", "# check N=13 passed"])
    # The pipelined schedule, with the methods that can send one message at a time.
    for method, refusal in offered:
        if method[0] in ("persistent", "partitioned", "rma") and len(method) == 1 and not refusal:
            r.table(4, ["--faces", "--sizes", "12", "--method", method[0], "--pack", "kernel", "--schedule",
                        "pipelined", "--breakdown", "--check"] + FAST, rows=1)


def hugepages(r):
    import tempfile
    out = r.table(2, ["--axis", "z", "--sizes", "16,128", "--pack", "kernel"] + FAST, rows=2,
                  expect=["# hugepages on", "# hugepages N=16: the field", "# hugepages N=128: "])
    if out and "of the field in huge pages" not in out:
        r.fail("hugepages on", out)
    off = r.table(2, ["--axis", "z", "--sizes", "16", "--hugepages", "off"] + FAST, rows=1,
                  expect=["# hugepages off"])
    if off and "# hugepages N=" in off:
        r.fail("hugepages off", off)
    r.cases += 1
    work = tempfile.mkdtemp(prefix="halobw-huge-")
    path = os.path.join(work, "h.json")
    rc, _, err = r.run(2, ["--axis", "z", "--sizes", "128", "--format", "json", "--output", path, "--quiet"] + FAST)
    try:
        row = json.load(open(path))["rows"][0]
        ok = rc == 0 and row["Field_MiB"] > 2 and 0 <= row["Huge_MiB"] <= row["Field_MiB"]
    except (OSError, ValueError, KeyError):
        ok = False
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not ok:
        r.fail("hugepages JSON", f"exit {rc} {err}")
    else:
        print(f"ok   hugepages in JSON: Field_MiB {row['Field_MiB']:.1f}, Huge_MiB {row['Huge_MiB']:.1f}")


def options(r):
    for flags, fragment in ((["--streams", "2"], "--streams needs --overlap"),
                            (["--progress", "poll"], "--progress needs --overlap"),
                            (["--overlap", "--streams", "3"], "--streams"),
                            (["--overlap", "--progress", "spin"], "--progress"),
                            (["--overlap", "--halo", "17", "--sizes", "64"], "halo widths up to 16"),
                            (["--local", "8", "--sizes", "16"], "--local with --sizes"),
                            (["--axis", "z", "--stencil", "box"], "--axis with --stencil box"),
                            (["--stencil", "cube"], "--stencil"),
                            (["--fields", "0"], "--fields"),
                            (["--fields", "1001"], "--fields"),
                            (["--messages", "some"], "--messages"),
                            (["--halo", "1,,2"], "--halo"),
                            (["--halo", "0"], "--halo"),
                            (["--method", "shmem"], "--method"),
                            (["--rma-sync", "fence"], "--rma-sync needs --method rma"),
                            (["--method", "neighbor", "--schedule", "pipelined"], "--schedule bulk"),
                            (["--hugepages", "maybe"], "--hugepages")):
        r.rejected(2, flags, fragment)
    r.rejected(2, ["--local", "3", "--halo", "4", "--axis", "z"], "below the halo width")


def table_row(out):
    rows = rows_of(out)
    return rows[0] if rows else {}


def slowest(r):
    work = tempfile.mkdtemp(prefix="halobw-slowest-")
    try:
        for ranks in (2, 4, 8):
            slowest_named(r, work, ranks, 1 if ranks == 2 else ranks // 2 + 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def slowest_named(r, work, ranks, slow):
    """Rank `slow` sleeps after every exchange: it ends its K exchanges last. With --per-rank the table
    names it (checked by check_table against the per-rank notes) and the JSON lists every rank; without,
    the CSV still names it. Few exchanges: each costs the slow rank its sleep."""
    env = {"HALOBW_TEST_HOOK_SLOW": str(slow)}
    flags = ["--faces", "--sizes", "12", "--iters", "3", "--warmup", "1"]
    path = os.path.join(work, f"slow{ranks}.json")
    out = r.table(ranks, flags + ["--per-rank", "--format", "json", "--output", path], env, rows=1,
                  expect=["Slowest Skew", f"# per-rank N=12: rank {slow} host "])
    if not out:
        return
    r.cases += 1
    what = f"-n {ranks} slow rank {slow}"
    problems = []
    row = table_row(out)
    if row.get("Slowest") != str(slow) or f"rank {slow} host" not in [l for l in out.splitlines()
                                                                     if l.endswith("(slowest)")][0]:
        problems.append(f"the table names {row.get('Slowest')}")
    doc = json.load(open(path))
    j = doc["rows"][0]
    if j["Slowest"] != slow or j["Slowest_host"] != socket.gethostname() or doc["run"]["per_rank"] != 1:
        problems.append(f"the JSON names {j['Slowest']} on {j['Slowest_host']}")
    listed = j.get("ranks", [])
    if [e["rank"] for e in listed] != list(range(ranks)) or any(e["host"] != socket.gethostname() for e in listed):
        problems.append(f"the JSON lists {listed}")
    elif max(listed, key=lambda e: e["Rank_us"])["rank"] != slow or not all(e["Send_B"] <= j["Send_B"] for e in listed):
        problems.append(f"the JSON's ranks do not make {slow} the slowest: {listed}")
    invalid = run_cases.validate(r, [path])
    if invalid:
        problems.append(invalid)
    # Without --per-rank the table keeps its columns, and the CSV still names the slow rank.
    csv_path = os.path.join(work, f"slow{ranks}.csv")
    plain = r.table(ranks, flags + ["--format", "csv", "--output", csv_path], env, rows=1)
    if plain:
        c = list(csv.DictReader(open(csv_path, newline="")))[0]
        if " Slowest" in [l for l in plain.splitlines() if l.startswith("# N ")][0] or "# per-rank" in plain:
            problems.append("Slowest or per-rank notes in the table without --per-rank")
        if c["Slowest"] != str(slow) or c["Slowest_host"] != socket.gethostname() or float(c["Skew"]) < 1:
            problems.append(f"the CSV names {c['Slowest']} on {c['Slowest_host']}, Skew {c['Skew']}")
        invalid = run_cases.validate(r, [csv_path])
        if invalid:
            problems.append(invalid)
    if problems:
        r.fail(what, "; ".join(problems) + "\n" + out)
    else:
        print(f"ok   {what}: named in the table, the JSON and the CSV")


def slowest_at_scale(r):
    """65 ranks: the table has one --per-rank note per node (check_table holds it against the grid),
    the JSON every rank."""
    work = tempfile.mkdtemp(prefix="halobw-scale-")
    try:
        path = os.path.join(work, "r65.json")
        out = r.table(65, ["--axis", "z", "--sizes", "130", "--iters", "3", "--warmup", "1", "--hugepages", "off",
                           "--per-rank", "--format", "json", "--output", path], rows=1,
                      expect=[f"# per-node N=130: node {socket.gethostname()} ranks 0-64 Rank_us min "])
        if not out:
            return
        r.cases += 1
        doc = json.load(open(path))
        listed = doc["rows"][0]["ranks"]
        invalid = run_cases.validate(r, [path])
        if len(listed) != 65 or "# per-rank N=" in out or invalid:
            r.fail("-n 65 --per-rank", f"{len(listed)} ranks in the JSON; {invalid}\n{out}")
        else:
            print("ok   -n 65 --per-rank: a note per node, 65 ranks in the JSON")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def iters(r):
    work = tempfile.mkdtemp(prefix="halobw-iters-")
    try:
        cases = [
            (2, ["--axis", "z", "--sizes", "16,32", "--min-time", "0.01"], 2),
            (4, ["--faces", "--sizes", "12", "--min-time", "0.005", "--warmup", "0", "--breakdown", "--limit",
                 "--overlap", "--repeats", "2", "--per-rank"], 1),
            (1, ["--faces", "--sizes", "8:16", "--min-time", "0.005"], 2),
        ]
        for n, (ranks, flags, rows) in enumerate(cases):
            iters_auto(r, work, n, ranks, flags, rows)
        iters_auto_under_load(r, work)
        # --iters N: a fixed K, in the files;, the table shows no Iters.
        path = os.path.join(work, "fixed.csv")
        out = r.table(2, ["--axis", "z", "--sizes", "16", "--iters", "7", "--warmup", "1", "--format", "csv",
                          "--output", path], rows=1)
        if out:
            r.cases += 1
            c = list(csv.DictReader(open(path, newline="")))[0]
            if " Iters" in out or "# iters auto" in out or (c["iters"], c["Iters"]) != ("7", "7"):
                r.fail("--iters 7", f"iters {c['iters']} Iters {c['Iters']}\n{out}")
            else:
                print("ok   --iters 7: Iters 7 in the CSV, no Iters in the table")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def iters_auto_under_load(r, work):
    """Rank 1 sleeps 0.1 s in every exchange (HALOBW_TEST_HOOK_SLOW), as a rank on a loaded core falls behind:
    rank 0's first warm-up exchange is fast, the rest wait for rank 1. K from the median warm-up exchange
    (0.1 s) is 5 (0.2 s / 0.1 s, raised to the least); from the fastest it was thousands, and the block
    ran for minutes against the 0.2 s asked."""
    path = os.path.join(work, "loaded.json")
    flags = ["--axis", "z", "--sizes", "8", "--warmup", "5", "--min-time", "0.2", "--iters", "auto", "--format",
             "json", "--output", path]
    out = r.table(2, flags, {"HALOBW_TEST_HOOK_SLOW": "1"}, rows=1)
    if not out:
        return
    r.cases += 1
    row = json.load(open(path))["rows"][0]
    block = row["Iters"] * row["Time_us"] * 1e-6
    # The upper bound only has to tell 5 exchanges from thousands: loose enough for a loaded 2-core CI machine.
    if row["Iters"] != 5 or not 0.2 <= block < 10.0:
        r.fail("--iters auto under load", f"Iters {row['Iters']}, a block of {block:.2f} s: want K 5 and about "
                                          f"0.5 s (5 exchanges of 0.1 s)\n{out}")
    else:
        print(f"ok   --iters auto under load: K {row['Iters']}, a block of {block:.2f} s (--min-time 0.2)")


def iters_auto(r, work, n, ranks, flags, rows):
    path = os.path.join(work, f"auto{n}.json")
    out = r.table(ranks, flags + ["--iters", "auto", "--format", "json", "--output", path], rows=rows,
                  expect=[" iters auto warmup ", "# iters auto: each row's K (column Iters) from its warm-up", " Iters"])
    if not out:
        return
    r.cases += 1
    what = f"-n {ranks} {' '.join(flags)} --iters auto"
    doc = json.load(open(path))
    ks = [j["Iters"] for j in doc["rows"]]
    want_time = float(flags[flags.index("--min-time") + 1])
    problems = []
    if doc["run"]["iters"] != "auto" or doc["run"]["min_time"] != want_time:
        problems.append(f"run.iters {doc['run']['iters']} min_time {doc['run']['min_time']}")
    if not all(isinstance(k, int) and 5 <= k <= 10 ** 6 for k in ks) or ks != [int(t["Iters"]) for t in rows_of(out)]:
        problems.append(f"Iters {ks} against the table's {[t['Iters'] for t in rows_of(out)]}")
    if "--warmup" in flags and "(--warmup 0: one exchange, untimed, to estimate from)" not in out:
        problems.append("no word of the estimate with --warmup 0")
    invalid = run_cases.validate(r, [path])
    if invalid:
        problems.append(invalid)
    if problems:
        r.fail(what, "; ".join(problems) + "\n" + out)
    else:
        print(f"ok   {what}: K per row {ks}")


# --- walls and boxes of extents ----------------------------------------------------------------------

# The axes that wrap around, as --periodic takes them: walls along x, along y, along z, and along every axis.
OPEN_AXES = (("y,z", "x"), ("x,z", "y"), ("x,y", "z"), ("none", "x,y,z"))


def wall_cases(pack, methods):
    """(ranks, flags) covering, with one pack, every method on every set of walls (across the rank counts),
    each method with both stencils, each stencil on every set of walls, each rank count with both stencils."""
    cases = []
    for ri, ranks in enumerate((1, 2, 4, 8)):
        for mi, method in enumerate(methods):
            i = 2 * mi + (pack == "kernel")
            periodic, _ = OPEN_AXES[(i + ri) % 4]
            stencil = ("star", "box")[((pack == "kernel") + ri // 2) % 2]
            flags = ["--sizes", "13x10x9,8", "--periodic", periodic, "--stencil", stencil, "--fields", "2",
                     "--method", method, "--pack", pack, "--check"] + FAST
            if stencil == "star":
                flags.insert(0, "--faces")
            cases.append((ranks, flags))
    return cases


def walls_run(r, pack):
    """Each case passes --check (the ghost cells at a wall keep their values) and check_table (the walls'
    figures from the printed header)."""
    failed = []
    methods = [m for m in r.choices("--method") if not r.lacks(m) and not r.refuses(m, pack)]
    for ranks, flags in wall_cases(pack, methods):
        periodic = flags[flags.index("--periodic") + 1]
        walls = dict(OPEN_AXES)[periodic]
        what = f"-n {ranks} {' '.join(flags)}"
        env = run_cases.rma_env(r, ranks, flags, what) if "rma" in flags else {}
        before = r.failures
        r.table(ranks, flags, env, rows=2,
                expect=["# check Global=13x10x9 passed", "# check Global=8x8x8 passed", " BoundaryFaces",
                        f"# periodic {periodic}; walls along {walls}: "])
        if r.failures > before:
            failed.append(f"-n {ranks} --method {flags[flags.index('--method') + 1]} --stencil "
                          f"{flags[flags.index('--stencil') + 1]} walls along {walls}")
    if failed:
        print(f"FAILED --pack {pack} with walls: " + "; ".join(failed), file=sys.stderr)


def walls(r):
    walls_run(r, "datatype")


def walls_kernel(r):
    walls_run(r, "kernel")


# --- the dry run against the real run (issues 22 and 23) ----------------------------------------------

# The option sets the dry run must plan as the real run does, row for row.
PLAN_SETS = [
    ["--faces", "--sizes", "12,17"],                                       # cubes, one uneven
    ["--faces", "--sizes", "16x12x8,9x13x7"],                              # boxes of extents
    ["--faces", "--sizes", "16x12x8,12", "--periodic", "x"],               # walls along y and z
    ["--stencil", "box", "--sizes", "11x9x13", "--periodic", "none", "--fields", "2"],
    ["--axis", "z", "--sizes", "12", "--halo", "1,2,3"],                   # a halo sweep
    ["--faces", "--local", "6,5x7x4", "--periodic", "y,z"],                # per-rank cubes and bricks
    ["--stencil", "box", "--local", "5", "--halo", "1,2"],
    ["--faces", "--sizes", "12x16x8", "--placement", "nodes"],
    ["--faces", "--sizes", "12", "--placement", "cart", "--periodic", "x,y"],
]
# The columns the dry run shares with the real run's files.
PLANNED = ("Send_B", "Send_min_B", "RemoteFaces", "SelfFaces", "OffNodeFaces", "BoundaryFaces", "OffNode_B",
           "NodeOut_B")


def run_alone(r, flags):
    """The executable on its own, no launcher (a dry run with --ranks)."""
    import subprocess
    try:
        p = subprocess.run([r.exe] + flags, capture_output=True, text=True, timeout=run_cases.TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", "timed out"
    return p.returncode, p.stdout, p.stderr


def dry_rows(out):
    """The dry run's rows as dicts of its columns, and its '# ranks' header line."""
    cols = [l for l in out.splitlines() if l.startswith(("# N ", "# L ", "# Global ", "# Local ")) and
            "Brick_min" in l][0][2:].split()
    rows = [dict(zip(cols, l.split())) for l in out.splitlines() if l and not l.startswith("#")]
    return rows, ranks_line(out)


def ranks_line(out):
    lines = [l for l in out.splitlines() if l.startswith("# ranks ")]
    return lines[0] if lines else None


def check_dry(r, what, out):
    """A dry run's table through check_table; its rows, or None."""
    import subprocess
    chk = subprocess.run([sys.executable, r.checker], input=out, capture_output=True, text=True)
    if chk.returncode != 0:
        r.fail(what, out + chk.stderr)
        return None
    return dry_rows(out)


def plans(r):
    work = tempfile.mkdtemp(prefix="halobw-plans-")
    try:
        for ranks in (1, 2, 4, 8):
            for n, flags in enumerate(PLAN_SETS):
                plan_against_run(r, work, ranks, n, flags)
        dry_on_nodes(r)
        dry_at_scale(r)
        dry_refusals(r, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def plan_against_run(r, work, ranks, n, flags):
    """The real run (table and JSON) against --dry-run --ranks N and --dry-run under mpiexec."""
    hr = run_cases.reader(r)
    path = os.path.join(work, f"real{ranks}_{n}.json")
    what = f"-n {ranks} {' '.join(flags)}"
    out = r.table(ranks, flags + ["--check", "--format", "json", "--output", path] + FAST)
    if not out:
        return
    r.cases += 1
    problems = []
    invalid = run_cases.validate(r, [path])
    if invalid:
        problems.append("the JSON file: " + invalid)
    real = hr.read(path).rows
    want_line = ranks_line(out)
    rc, alone, err = run_alone(r, ["--dry-run", "--ranks", str(ranks)] + flags + FAST)
    rc2, launched, err2 = r.run(ranks, ["--dry-run"] + flags + FAST)
    runs = (("--dry-run --ranks", rc, alone, err), ("--dry-run under mpiexec", rc2, launched, err2))
    for how, code, text, e in runs:
        if code != 0:
            problems.append(f"{how}: exit {code}\n{e}")
            continue
        checked = check_dry(r, f"{what} {how}", text)
        if checked is None:
            problems.append(f"{how}: check_table failed (above)")
            continue
        rows, line = checked
        if line != want_line:
            problems.append(f"{how}: header {line!r}, the real run's {want_line!r}")
        if len(rows) != len(real):
            problems.append(f"{how}: {len(rows)} rows, the real run {len(real)}")
            continue
        for dry, row in zip(rows, real):
            # The size column as the real table heads it: N or L (a side), else Global or Local (extents).
            column = next(c for c in ("N", "L", "Global", "Local") if c in dry)
            size, want = dry[column], str(row.size) if column in ("N", "L") else row[column]
            if size != want or int(dry.get("H", row["H"])) != row["H"]:
                problems.append(f"{how}: row {size} H {dry.get('H')}, the real run's {row.size_name}={row.size} "
                                f"H={row['H']}")
            for key in PLANNED:
                if int(dry[key]) != row[key]:
                    problems.append(f"{how}: {row.size_name}={row.size} H={row['H']}: {key} {dry[key]}, the real "
                                    f"run {row[key]}")
    if problems:
        r.fail(what + ": the dry run against the real run", "\n".join(problems) + "\n" + out)
    else:
        print(f"ok   {what}: the dry run, alone and launched, plans the real run's {len(real)} rows and header")


def dry_on_nodes(r):
    """Ranks planned on several nodes (--ranks-per-node) on every placement, through check_table, which
    recomputes OffNodeFaces, OffNode_B and NodeOut_B from the nodes' blocks and the placement's map; nodes
    that hold different numbers of ranks fall back to linear, saying why."""
    cases = [
        (4, 2, ["--faces", "--sizes", "16x12x8,12", "--periodic", "x"]),
        (8, 4, ["--stencil", "box", "--sizes", "16", "--fields", "2", "--periodic", "x,y"]),
        (8, 2, ["--faces", "--local", "6x5x4", "--halo", "1,2"]),
        (12, 4, ["--faces", "--grid", "3,2,2", "--sizes", "12x8x8"]),
        # An x face twice a y face at the largest row: the block by the bytes off the node, 2x1x1, not 1x2x1.
        (4, 2, ["--faces", "--grid", "2,2,1", "--sizes", "64x128x64,256x512x256"]),
    ]
    for ranks, per, flags in cases:
        r.cases += 1
        argv = ["--dry-run", "--ranks", str(ranks), "--ranks-per-node", str(per), "--placement", "linear,nodes,cart"]
        what = " ".join(argv + flags)
        rc, out, err = run_alone(r, argv + flags)
        if rc != 0:
            r.fail(what, f"exit {rc}\n{out}\n{err}")
            continue
        checked = check_dry(r, what, out)
        if checked is None:
            continue
        rows, _ = checked
        if not all(int(d["OffNode_B"]) > 0 for d in rows) or "# placement nodes: " not in out:
            r.fail(what, "every row sends off its node on every placement, and placement nodes names its grid\n"
                   + out)
            continue
        print(f"ok   {what}: check_table agrees with {len(rows)} rows on {ranks // per} nodes")
    fallbacks = [
        (["--ranks", "6", "--ranks-per-node", "4", "--sizes", "12"],
         "the nodes hold different numbers of ranks (4 and 2)"),
        # 1x1000x1000 bricks on 3x2x2: the one block of 4 that tiles, 1x2x2, sends every x face off the node;
        # rank order's ragged runs keep most on it.
        (["--ranks", "12", "--ranks-per-node", "4", "--grid", "3,2,2", "--sizes", "3x2000x2000"],
         "at 3x2000x2000 halo 1 the best block of 4 ranks, 1x2x2, sends more off a node than rank order "
         "(NodeOut_B 64000000, OffNode_B 16000000; rank order 32128000, 16016000)"),
    ]
    for flags, why in fallbacks:
        r.cases += 1
        argv = ["--dry-run"] + flags + ["--placement", "nodes", "--faces"]
        rc, out, err = run_alone(r, argv)
        want = "# placement nodes fell back to linear: " + why
        if rc != 0 or want not in out.splitlines() or check_dry(r, " ".join(argv), out) is None:
            r.fail(" ".join(argv), f"exit {rc}, want the line {want!r}\n{out}\n{err}")
        else:
            print(f"ok   {' '.join(argv)}: {want[2:]}")


def dry_at_scale(r):
    """The README's plan at 8192 ranks, 16 per node, through check_table (the grid, the bytes, the off-node
    faces and bytes of both placements recomputed from the header), well under a second to plan."""
    import time
    flags = ["--dry-run", "--ranks", "8192", "--ranks-per-node", "16", "--faces", "--sizes", "4096", "--placement",
             "linear,nodes"]
    r.cases += 1
    start = time.monotonic()
    rc, out, err = run_alone(r, flags)
    took = time.monotonic() - start
    what = " ".join(flags)
    if rc != 0:
        return r.fail(what, f"exit {rc}\n{out}\n{err}")
    checked = check_dry(r, what, out)
    if checked is None:
        return
    rows, line = checked
    if [d["Placement"] for d in rows] != ["linear", "nodes"] or "nodes 512 grid 16x16x32 " not in line \
            or "# placement nodes: 512 nodes as a 8x8x8 grid, each holding a 2x2x4 block of ranks" not in out:
        return r.fail(what, out)
    print(f"ok   {what}: planned in {took:.2f} s, check_table agrees (OffNode_B linear {rows[0]['OffNode_B']}, "
          f"nodes {rows[1]['OffNode_B']})")


def dry_refusals(r, work):
    """A dry run prints a table: --format and --output are refused, alone and under mpiexec, with one line."""
    path = os.path.join(work, "dry.csv")
    for flags in (["--format", "json"], ["--format", "csv"], ["--output", path], ["--format", "csv", "--output",
                                                                                    path]):
        want = "--dry-run prints its plan as a table on standard output; --format and --output go with a measured run"
        r.rejected(2, ["--dry-run", "--sizes", "12"] + flags, want)
        r.cases += 1
        rc, out, err = run_alone(r, ["--dry-run", "--ranks", "4", "--sizes", "12"] + flags)
        lines = [l for l in err.splitlines() if l.startswith("halo-bandwidth")]
        if rc != 2 or lines != [f"halo-bandwidth: error: {want}"] or out or os.path.exists(path):
            r.fail(f"--dry-run --ranks 4 {' '.join(flags)}", f"exit {rc}, stdout {out!r}, stderr {err!r}")
        else:
            print(f"ok   --dry-run --ranks 4 {' '.join(flags)}: exit 2, {lines[0]}")


def regions(r):
    """The exchange's phases as named regions for the Kokkos tools: a tool that counts them
    (tests/region_logger.cpp, through KOKKOS_TOOLS_LIBS) sees halobw::start and halobw::finish as often
    as each other, at least once per timed exchange, and pack, mpi, stage and unpack only inside them."""
    import tempfile
    lib = os.environ.get("HALOBW_REGION_LOGGER", "")
    if not os.path.exists(lib):
        r.fail("regions", f"HALOBW_REGION_LOGGER names no file: '{lib}'")
        return
    work = tempfile.mkdtemp(prefix="halobw-regions-")
    iters = 6
    cases = ((["--pack", "kernel"], {"halobw::pack", "halobw::mpi", "halobw::unpack"}),
             (["--pack", "kernel", "--schedule", "bulk", "--breakdown"], {"halobw::pack", "halobw::mpi", "halobw::unpack"}),
             (["--pack", "datatype"], {"halobw::mpi", "halobw::unpack"}))  # unpack: the self copies
    for extra, phases in cases:
        flags = ["--axis", "x", "--grid", "2,1,1", "--sizes", "16", "--iters", str(iters), "--warmup", "1"] + extra
        log = os.path.join(work, "regions-%r.txt")
        env = {"KOKKOS_TOOLS_LIBS": lib, "KOKKOS_PROFILE_LIBRARY": lib, "HALOBW_REGION_LOG": log}
        what = f"regions {' '.join(extra)}"
        if not r.table(2, flags, env, rows=1):
            continue
        r.cases += 1
        for rank in (0, 1):
            problem = region_problem(log.replace("%r", str(rank)), phases, iters)
            if problem:
                r.fail(f"{what}, rank {rank}", problem)
                break
        else:
            print(f"ok   {what}: start and finish balanced, {', '.join(sorted(phases))} inside them, on both ranks")
    shutil.rmtree(work, ignore_errors=True)


def region_problem(path, phases, iters):
    """What is wrong with one rank's region counts (region_logger.cpp's file), or None."""
    try:
        lines = [l.split() for l in open(path).read().splitlines()]
    except OSError as e:
        return f"no region log: {e}"
    counts = {l[0]: [int(v) for v in l[1:]] for l in lines if len(l) == 4}
    left = [int(l[1]) for l in lines if len(l) == 2 and l[0] == "open"]
    starts = counts.get("halobw::start", [0])[0]
    if left != [0]:
        return f"regions left open at finalize: {left}"
    if starts < iters or counts.get("halobw::finish", [0])[0] != starts:
        return f"halobw::start {starts} times and halobw::finish {counts.get('halobw::finish')}: want equal, >= {iters}"
    for name in phases:
        entered, inside, _ = counts.get(name, [0, 0, 0])
        if entered < starts or inside != entered:
            return f"{name} entered {entered} times, {inside} inside an exchange; want >= {starts}, all inside"
    extra = set(counts) - phases - {"halobw::start", "halobw::finish", "halobw::stage"}
    if any(n.startswith("halobw::") for n in extra):
        return f"regions not expected on this transport: {sorted(extra)}"
    return None


def main():
    return run_cases.run_suite(["overlap", "shapes", "methods", "hugepages", "options", "slowest", "slowest_at_scale",
                                "iters", "walls", "walls_kernel", "plans", "regions"], globals())


if __name__ == "__main__":
    sys.exit(main())
