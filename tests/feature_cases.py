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
  methods   p2p, persistent, neighbor, rma (pscw, fence) on both packs and the staged transport,
            1 2 4 8 ranks
  hugepages --hugepages on|off: the header, the note per row, the JSON figures
  options   the new options' bad input: exit 2, one line, no row
  slowest   a rank made slow on purpose (HALOBW_TEST_HOOK_SLOW) is the one named Slowest in the table
            (--per-rank), the CSV and the JSON, at 2, 4 and 8 ranks; the JSON lists every rank
  slowest_at_scale  --per-rank above 64 ranks: a note per node in the table, every rank in the JSON
  iters     --iters auto: Iters in the table and the files, a K from 5 to 10^6 per row, with --warmup 0,
            --breakdown, --limit, --overlap and --repeats; --iters N as before, its K in the files
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


def methods(r):
    for ranks in (1, 2, 4, 8):
        for method in (["persistent"], ["neighbor"], ["rma"], ["rma", "--rma-sync", "fence"]):
            packs = (["--pack", "datatype"], ["--pack", "kernel"], ["--pack", "kernel", "--gpu-aware", "off"])
            # Every transport at 2 and 4 ranks; one each at 1 and 8, where a run costs the most.
            if ranks in (1, 8):
                packs = packs[1:2] if ranks == 8 else packs[:1]
            for pack in packs:
                flags = ["--faces", "--sizes", "12,13", "--method"] + method + pack + ["--check"] + FAST
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
    # The pipelined schedule, with the methods that can send one message at a time.
    for method in ("persistent", "rma"):
        r.table(4, ["--faces", "--sizes", "12", "--method", method, "--pack", "kernel", "--schedule", "pipelined",
                    "--breakdown", "--check"] + FAST, rows=1)


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
    path = os.path.join(tempfile.mkdtemp(prefix="halobw-huge-"), "h.json")
    rc, _, err = r.run(2, ["--axis", "z", "--sizes", "128", "--format", "json", "--output", path, "--quiet"] + FAST)
    try:
        row = json.load(open(path))["rows"][0]
        ok = rc == 0 and row["Field_MiB"] > 2 and 0 <= row["Huge_MiB"] <= row["Field_MiB"]
    except (OSError, ValueError, KeyError):
        ok = False
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
        # --iters N: as before; its K is in the files, the table shows no Iters.
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


def main():
    return run_cases.run_suite(["overlap", "shapes", "methods", "hugepages", "options", "slowest", "slowest_at_scale",
                                "iters"], globals())


if __name__ == "__main__":
    sys.exit(main())
