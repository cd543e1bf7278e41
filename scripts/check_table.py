#!/usr/bin/env python3
"""Checks a halo-bandwidth table against its own header.

Recomputes, from the printed grid, halo widths, directions (faces, or all 26
pieces of a box stencil), fields, sizes (global N, or per-rank L) and rank
hosts alone, every row's Send_B (and Send_min_B), RemoteFaces, SelfFaces,
OffNodeFaces, RemoteEdges and RemoteCorners, each row's Global box, and the
ghost-cell count of each '# check' line; checks that Uni_GBps and Duplex_GBps
agree with Send_B and Time_us, and the derived columns (Xfer_GBps, Eff,
Exposed_us, Hidden, Comp_GBps) with the ones they derive from, to their
printed precision. It imposes no speed threshold. This is an independent
implementation of the decomposition: it shares no code with the benchmark.

Hidden (--overlap) is (Blocking_us - Overlap_us) / (Blocking_us - Comp_us), a
share in [0, 1], or '-' where the rule of docs/method.md says it is none: the
exchange (Blocking_us - Comp_us) or what overlapping saved (Blocking_us -
Overlap_us) within Noise_us, the overlapped step slower than the blocking
one, or faster than the stencil alone by more than Noise_us (by less, the
share is 1). Each is judged from the printed figures, each within half its
last decimal: a share must be one the figures allow, a '-' must be one the
rule can give, and each '-' comes after its note '# Hidden N=..: none: ...',
whose figures must be the row's.

With --iters auto (header 'iters auto') every row's Iters is a K from 5 to
10^6; the column is there exactly then. With --per-rank, Slowest and Skew
come with a note per rank before each row, '# per-rank N=..: rank R host H
Rank_us T Send_B B', or above 64 ranks a note per node: every rank once, on
the header's host, sending the bytes the grid gives it; Slowest a rank whose
Rank_us is the most, marked '(slowest)'; Skew that Rank_us over the median
rank's (the lower middle one), each within half its last decimal (per node:
the node's least, median and most, and Skew at least 1).

The header note '# nothing crosses ranks, Send_B is 0: on grid G ...' must be
there exactly when every row's Send_B is 0 by the grid, name the grid, the
pieces and (on more than one rank) flags that would make the pieces remote,
each checked against the decomposition. A table that ends with '# run failed
(exit N) after K rows: REASON' checks as far as it goes: K must be the rows
printed, and the line the last.

Usage: check_table.py [FILE]   (standard input when no file)
       check_table.py --self-test
Exit status 0 when every row checks, 1 otherwise (each problem on stderr).
"""
import re
import sys

# The table's columns in order: each run shows the standard ones and the groups it measures.
COLUMNS = ["Send_B", "Time_us", "Uni_GBps", "Duplex_GBps", "RemoteFaces", "SelfFaces", "OffNodeFaces"]
SIZE = {"cube": ["N"], "local": ["L", "Global"]}  # one of the two leads the row
SWEEP = ["H"]                                       # after the size, with more than one halo width
OPTIONAL = [["RemoteEdges", "RemoteCorners"], ["Send_min_B"], ["Iters"], ["Slowest", "Skew"], ["Min_us", "Max_us"],
            ["Pack_us", "Mpi_us", "Stage_us", "Unpack_us", "Xfer_us", "Xfer_GBps", "Eff"],
            ["Copy_GBps", "Peer_GBps"],
            ["Comp_us", "Blocking_us", "Overlap_us", "Exposed_us", "Noise_us", "Hidden", "Comp_GBps"]]
# Half the last printed decimal of the microsecond columns, and of the 2-decimal ratios.
US = 0.05
RATIO = 0.005


def blocks(n, g):
    """(offset, extent) of each of g blocks of n cells; the first n % g get one more."""
    out, off = [], 0
    for c in range(g):
        e = n // g + (1 if c < n % g else 0)
        out.append((off, e))
        off += e
    return out


def auto_grid(ranks):
    best = None
    for gx in range(1, ranks + 1):
        for gy in range(1, ranks + 1):
            if ranks % (gx * gy):
                continue
            gz = ranks // (gx * gy)
            key = (gx + gy + gz, gx, gy)
            if best is None or key < best[0]:
                best = (key, (gx, gy, gz))
    return best[1]


def offsets(directions):
    """The offsets (dx, dy, dz) a run exchanges: faces of the named axes, or all 26."""
    if directions == "box":
        return [(x, y, z) for z in (-1, 0, 1) for y in (-1, 0, 1) for x in (-1, 0, 1) if (x, y, z) != (0, 0, 0)]
    axes = {"x": [0], "y": [1], "z": [2], "all": [0, 1, 2]}[directions]
    out = []
    for a in axes:
        for side in (-1, 1):
            d = [0, 0, 0]
            d[a] = side
            out.append(tuple(d))
    return out


def rank_figures(glob, grid, halo, dirs, fields, hosts):
    """Per rank: remote bytes, remote faces, self faces, off-node faces, remote edges,
    remote corners, ghost cells received (all fields), owned cells."""
    gx, gy, gz = grid
    split = [blocks(glob[a], grid[a]) for a in range(3)]
    figures = []
    for rank in range(gx * gy * gz):
        c = (rank % gx, (rank // gx) % gy, rank // (gx * gy))
        ext = [split[a][c[a]][1] for a in range(3)]
        rb = rf = sf = of = re_ = rc = cells = 0
        for d in dirs:
            piece = fields
            for a in range(3):
                piece *= halo if d[a] else ext[a]
            nc = [(c[a] + d[a]) % grid[a] for a in range(3)]
            peer = nc[0] + gx * (nc[1] + gy * nc[2])
            kind = sum(1 for v in d if v)
            cells += piece
            if peer == rank:
                sf += kind == 1
                continue
            rb += 8 * piece
            rf += kind == 1
            re_ += kind == 2
            rc += kind == 3
            if kind == 1 and hosts and hosts[peer] != hosts[rank]:
                of += 1
        figures.append((rb, rf, sf, of, re_, rc, cells, ext[0] * ext[1] * ext[2]))
    return figures


def expand(text):
    """"0-3,8*2,5" -> [0, 1, 2, 3, 8, 8, 5] (the header's compact lists)."""
    out = []
    for item in text.split(","):
        m = re.fullmatch(r"(-?\d+)\*(\d+)", item)
        if m:
            out += [int(m.group(1))] * int(m.group(2))
            continue
        m = re.fullmatch(r"(\d+)-(\d+)", item)
        if m:
            out += list(range(int(m.group(1)), int(m.group(2)) + 1))
            continue
        out.append(int(item))
    return out


def parse_header(lines):
    h = {"hosts": None, "columns": None, "grid_source": None, "fields": 1}
    nodes = []
    for line in lines:
        if not line.startswith("#"):
            continue
        m = re.match(r"# ranks (\d+) nodes (\d+) grid (\d+)x(\d+)x(\d+) directions (\w+) halo ([\d,]+)", line)
        if m:
            h["ranks"], h["nodes"] = int(m.group(1)), int(m.group(2))
            h["grid"] = (int(m.group(3)), int(m.group(4)), int(m.group(5)))
            h["directions"] = m.group(6)
            h["halos"] = [int(v) for v in m.group(7).split(",")]
        m = re.match(r"# ranks .* iters (\S+) warmup ", line)
        if m:
            h["iters"] = m.group(1)
        m = re.match(r"# stencil (\w+) fields (\d+) messages (\w+)", line)
        if m:
            h["fields"] = int(m.group(2))
        if line.startswith("# rank_host"):
            pairs = [p.split(":", 1) for p in line.split()[2:]]
            h["hosts"] = [name for _, name in sorted(pairs, key=lambda p: int(p[0]))]
        m = re.match(r"# node (\S+) ranks (\S+) devices (\S+)$", line)
        if m:
            nodes.append((m.group(1), expand(m.group(2))))
        m = re.match(r"# grid_source (\S+)", line)
        if m:
            h["grid_source"] = m.group(1)
        if line.startswith("# N ") or line.startswith("# L "):
            h["columns"] = line[2:].split()
    if nodes and h["hosts"] is None:
        by_rank = {}
        for name, ranks in nodes:
            for r in ranks:
                by_rank[r] = name
        h["hosts"] = [by_rank.get(r, "?") for r in range(max(by_rank) + 1)] if by_rank else None
    return h


def within(value, lo, hi, decimals):
    slack = 0.5 * 10 ** -decimals + 1e-9
    return lo - slack <= value <= hi + slack


def check_rate(send, t, uni, duplex, where, errors):
    if send == 0:
        if uni != 0 or duplex != 0:
            errors.append(f"{where}: Send_B is 0 but the rates are {uni} and {duplex}")
        return
    if t <= 0:
        errors.append(f"{where}: Time_us {t} with Send_B {send}")
        return
    lo = send / (t + 0.05) / 1e3
    hi = send / (t - 0.05) / 1e3 if t > 0.05 else float("inf")
    if not within(uni, lo, hi, 3):
        errors.append(f"{where}: Uni_GBps {uni} is not Send_B {send} / Time_us {t} "
                      f"(between {lo:.4f} and {hi:.4f})")
    if not within(duplex, 2 * lo, 2 * hi, 3) or abs(duplex - 2 * uni) > 0.0015 + 1e-9:
        errors.append(f"{where}: Duplex_GBps {duplex} is not 2 x Uni_GBps {uni}")


def check_optional(row, where, errors, stencil_bytes):
    """The derived columns against the ones they derive from, to their printed precision."""
    send, t = int(row["Send_B"]), float(row["Time_us"])
    if "Min_us" in row and not float(row["Min_us"]) <= t <= float(row["Max_us"]):
        errors.append(f"{where}: Time_us {t} is not between Min_us and Max_us")
    if "Xfer_us" in row:
        xfer = float(row["Xfer_us"])
        for name in ("Pack_us", "Mpi_us", "Stage_us", "Unpack_us", "Xfer_us"):
            if float(row[name]) < 0:
                errors.append(f"{where}: {name} is negative")
        if send == 0:
            if row["Eff"] != "n/a":
                errors.append(f"{where}: Eff {row['Eff']} with nothing remote sent")
        else:
            lo = send / (xfer + 0.05) / 1e3
            hi = send / (xfer - 0.05) / 1e3 if xfer > 0.05 else float("inf")
            if not within(float(row["Xfer_GBps"]), lo, hi, 3):
                errors.append(f"{where}: Xfer_GBps {row['Xfer_GBps']} is not Send_B / Xfer_us")
            eff = float(row["Eff"])
            if not within(eff, (xfer - 0.05) / (t + 0.05), (xfer + 0.05) / max(t - 0.05, 1e-9), 2):
                errors.append(f"{where}: Eff {eff} is not Uni_GBps / Xfer_GBps = Xfer_us / Time_us")
    if "Copy_GBps" in row and send > 0 and not float(row["Copy_GBps"]) > 0:
        errors.append(f"{where}: Copy_GBps {row['Copy_GBps']} with Send_B {send}")
    if "Comp_us" in row:
        comp, block, over = float(row["Comp_us"]), float(row["Blocking_us"]), float(row["Overlap_us"])
        if abs(float(row["Exposed_us"]) - (over - comp)) > 0.1 + 1e-9:
            errors.append(f"{where}: Exposed_us {row['Exposed_us']} is not Overlap_us - Comp_us")
        noise = float(row["Noise_us"])
        if noise < 0:
            errors.append(f"{where}: Noise_us {noise} is negative")
        check_hidden(row["Hidden"], comp, block, over, noise, where, errors)
        if comp > 0.05:
            lo, hi = stencil_bytes / (comp + 0.05) / 1e3, stencil_bytes / (comp - 0.05) / 1e3
            if not within(float(row["Comp_GBps"]), lo, hi, 3):
                errors.append(f"{where}: Comp_GBps {row['Comp_GBps']} is not 16 B x owned cells x fields "
                              f"({stencil_bytes} B) / Comp_us")


def hidden_rule(comp, block, over, noise):
    """What the rule can give for figures each printed within US: (whether it can be none,
    whether it must be none, the least and the most share it can be)."""
    exchange, saved, faster = block - comp, block - over, comp - over  # each within 2 US
    near_zero = 0.0 if abs(saved) <= 2 * US else abs(saved) - 2 * US  # the least |saved|
    can_none = (exchange - 2 * US <= noise + US or near_zero <= noise + US or saved - 2 * US < 0
                or faster + 2 * US > noise - US)
    must_none = (exchange + 2 * US <= noise - US or abs(saved) + 2 * US <= noise - US or saved + 2 * US < 0
                 or faster - 2 * US > noise + US)
    lo = max(0.0, saved - 2 * US) / (exchange + 2 * US) if exchange + 2 * US > 0 else 0.0
    hi = (saved + 2 * US) / (exchange - 2 * US) if exchange - 2 * US > 0 else float("inf")
    if faster + 2 * US > 0:
        hi = max(hi, 1.0)  # the overlapped step beat the stencil alone within the noise: all hidden
    return can_none, must_none, min(lo, 1.0), min(hi, 1.0)


def check_hidden(text, comp, block, over, noise, where, errors):
    can_none, must_none, lo, hi = hidden_rule(comp, block, over, noise)
    if text == "-":
        if not can_none:
            errors.append(f"{where}: Hidden '-', but the figures give a share: Blocking_us - Comp_us "
                          f"{block - comp:.1f} and Blocking_us - Overlap_us {block - over:.1f} are beyond Noise_us "
                          f"{noise}")
        return
    try:
        hidden = float(text)
    except ValueError:
        errors.append(f"{where}: Hidden {text!r} is neither a share nor '-'")
        return
    if text != f"{hidden:.2f}" or not 0 <= hidden <= 1:
        errors.append(f"{where}: Hidden {text} is not a share in [0, 1] with 2 decimals")
    elif must_none:
        errors.append(f"{where}: Hidden {text}, but what it measures lies within Noise_us {noise}: it must be '-'")
    elif not lo - RATIO - 1e-9 <= hidden <= hi + RATIO + 1e-9:
        errors.append(f"{where}: Hidden {text} is not (Blocking_us - Overlap_us) / (Blocking_us - Comp_us) "
                      f"(between {lo:.3f} and {hi:.3f})")


# The figures a '# Hidden ...: none: WHY' note names, each against the row's columns.
HIDDEN_WHY = (
    (r"the exchange, Blocking_us - Comp_us = (-?[\d.]+) us, is within the noise ([\d.]+) us",
     lambda c, b, o: b - c),
    (r"what overlapping saved, Blocking_us - Overlap_us = (-?[\d.]+) us, is within the noise ([\d.]+) us",
     lambda c, b, o: b - o),
    (r"the overlapped step is slower than the blocking one by (-?[\d.]+) us, beyond the noise ([\d.]+) us",
     lambda c, b, o: o - b),
    (r"the overlapped step is faster than the stencil alone by (-?[\d.]+) us, beyond the noise ([\d.]+) us",
     lambda c, b, o: c - o),
)


def check_hidden_note(note, row, where, errors):
    """A '-' row's note: one of the rule's reasons, its figures the row's."""
    comp, block, over = float(row["Comp_us"]), float(row["Blocking_us"]), float(row["Overlap_us"])
    for pattern, figure in HIDDEN_WHY:
        m = re.match(pattern, note)
        if not m:
            continue
        if abs(float(m.group(1)) - figure(comp, block, over)) > 2 * US + 1e-9:
            errors.append(f"{where}: the note's {m.group(1)} us is not the row's ({figure(comp, block, over):.1f})")
        if abs(float(m.group(2)) - float(row["Noise_us"])) > US + 1e-9:
            errors.append(f"{where}: the note's noise {m.group(2)} us is not the row's Noise_us {row['Noise_us']}")
        return
    errors.append(f"{where}: the Hidden note gives no reason the rule knows: {note}")


def check_nothing_crosses(note, h, rows_send, first_size, global_box, fields, hosts, errors):
    """The header's 'nothing crosses ranks' note against the decomposition: there exactly when no
    row sends a byte to another rank, naming the grid, the pieces and flags that would help."""
    zero = bool(rows_send) and not any(rows_send)
    if note is None:
        if zero:
            errors.append("every row's Send_B is 0, but the header has no '# nothing crosses ranks' note")
        return
    if rows_send and not zero:
        errors.append("'# nothing crosses ranks' in the header, but some row sends to another rank")
    grid = "x".join(str(g) for g in h["grid"])
    pieces = {"box": "all 26 pieces", "all": "the six faces"}.get(h["directions"], f"the \u00b1{h['directions']} faces")
    if h["ranks"] == 1:
        want = f"on grid {grid} {pieces} wrap to the one rank; run on more ranks"
        if note != want:
            errors.append(f"'# nothing crosses ranks' note: {note!r}, want {want!r}")
        return
    m = re.fullmatch(rf"on grid {re.escape(grid)} {re.escape(pieces)} wrap to the same rank; use (.+)", note)
    if not m:
        errors.append(f"'# nothing crosses ranks' note: {note!r} does not name grid {grid} and {pieces}")
        return
    for hint in m.group(1).split(" or "):
        a = re.fullmatch(r"--axis ([xyz])", hint)
        g = re.fullmatch(r"--grid (\d+),(\d+),(\d+)", hint)
        if a:
            grid_, dirs = h["grid"], offsets(a.group(1))
        elif g:
            grid_, dirs = tuple(int(v) for v in g.groups()), offsets(h["directions"])
            if grid_[0] * grid_[1] * grid_[2] != h["ranks"]:
                errors.append(f"'# nothing crosses ranks' suggests {hint}, not a grid of {h['ranks']} ranks")
                continue
        else:
            errors.append(f"'# nothing crosses ranks' suggests {hint!r}: neither --axis nor --grid")
            continue
        if first_size is not None:
            size, halo = first_size
            box = global_box(size, grid_)
            if max(f[0] for f in rank_figures(box, grid_, halo, dirs, fields, None)) == 0:
                errors.append(f"'# nothing crosses ranks' suggests {hint}, which sends nothing across ranks either")


RANK_NOTE = re.compile(r"# per-rank (.+?): rank (\d+) host (\S+) Rank_us ([\d.]+) Send_B (\d+)( \(slowest\))?$")
NODE_NOTE = re.compile(r"# per-node (.+?): node (\S+) ranks (\S+) Rank_us min ([\d.]+) median ([\d.]+) max ([\d.]+) "
                       r"\(rank (\d+)\) Send_B min (\d+) max (\d+)( \(slowest\))?$")


def check_iters(row, h, where, errors):
    """Iters: with 'iters auto' a K from 5 to 10^6 in every row; else no such column."""
    auto = h.get("iters") == "auto"
    if ("Iters" in row) != auto:
        errors.append(f"{where}: the column Iters goes with 'iters auto' in the header, and only with it")
    elif auto and not 5 <= int(row["Iters"]) <= 10 ** 6:
        errors.append(f"{where}: Iters {row['Iters']} is not a K from 5 to 1000000")


def check_ranks(row, notes, figs, hosts, where, errors):
    """Slowest and Skew against the row's per-rank (or per-node) notes, and each rank's bytes against
    the grid's."""
    slowest = int(row["Slowest"])
    if not 0 <= slowest < len(figs):
        errors.append(f"{where}: Slowest {slowest} is not a rank")
        return
    skew = None if row["Skew"] == "n/a" else float(row["Skew"])
    if skew is not None and skew < 1:
        errors.append(f"{where}: Skew {skew} is below 1: the slowest rank over the median one")
    ranks = [m for m in notes if m.re is RANK_NOTE]
    nodes = [m for m in notes if m.re is NODE_NOTE]
    if bool(ranks) == bool(nodes) or (nodes and len(figs) <= 64) or (ranks and len(figs) > 64):
        errors.append(f"{where}: {len(ranks)} per-rank and {len(nodes)} per-node notes on {len(figs)} ranks: "
                      "a note per rank up to 64 ranks, per node above")
        return
    if ranks:
        check_rank_notes(ranks, slowest, skew, figs, hosts, where, errors)
    else:
        check_node_notes(nodes, slowest, figs, hosts, where, errors)


def check_rank_notes(notes, slowest, skew, figs, hosts, where, errors):
    if sorted(int(m.group(2)) for m in notes) != list(range(len(figs))):
        errors.append(f"{where}: the per-rank notes name ranks {[int(m.group(2)) for m in notes]}")
        return
    us = [0.0] * len(figs)
    for m in notes:
        r = int(m.group(2))
        us[r] = float(m.group(4))
        if hosts and m.group(3) != hosts[r]:
            errors.append(f"{where}: rank {r} on host {m.group(3)}, the header says {hosts[r]}")
        if int(m.group(5)) != figs[r][0]:
            errors.append(f"{where}: rank {r} sends {m.group(5)} bytes, the grid gives {figs[r][0]}")
        if bool(m.group(6)) != (r == slowest):
            errors.append(f"{where}: the note of rank {r} is{'' if m.group(6) else ' not'} marked slowest, "
                          f"Slowest is {slowest}")
    if us[slowest] < max(us) - 2 * US:
        errors.append(f"{where}: Slowest {slowest} has Rank_us {us[slowest]}, rank {us.index(max(us))} has {max(us)}")
    median = sorted(us)[(len(us) - 1) // 2]
    if skew is None:
        if median > US:
            errors.append(f"{where}: Skew n/a, but the median rank's Rank_us is {median}")
        return
    lo = (us[slowest] - US) / (median + US)
    hi = (us[slowest] + US) / (median - US) if median > US else float("inf")
    if not lo - RATIO - 1e-9 <= skew <= hi + RATIO + 1e-9:
        errors.append(f"{where}: Skew {skew} is not Rank_us of Slowest {us[slowest]} over the median rank's {median}")


def check_node_notes(notes, slowest, figs, hosts, where, errors):
    seen = []
    most = max(float(m.group(6)) for m in notes)
    for m in notes:
        node_ranks = expand(m.group(3))
        seen += node_ranks
        if hosts and any(hosts[r] != m.group(2) for r in node_ranks if r < len(hosts)):
            errors.append(f"{where}: node {m.group(2)} lists ranks {m.group(3)} the header places elsewhere")
        sends = [figs[r][0] for r in node_ranks if r < len(figs)]
        if sends and (int(m.group(8)), int(m.group(9))) != (min(sends), max(sends)):
            errors.append(f"{where}: node {m.group(2)} sends {m.group(8)} to {m.group(9)} bytes, the grid gives "
                          f"{min(sends)} to {max(sends)}")
        lo, med, hi = float(m.group(4)), float(m.group(5)), float(m.group(6))
        if not lo <= med <= hi or int(m.group(7)) not in node_ranks:
            errors.append(f"{where}: node {m.group(2)}: min {lo} median {med} max {hi} (rank {m.group(7)})")
        if bool(m.group(10)) != (int(m.group(7)) == slowest):
            errors.append(f"{where}: node {m.group(2)}'s slowest mark against Slowest {slowest}")
        if int(m.group(7)) == slowest and hi < most - 2 * US:
            errors.append(f"{where}: Slowest {slowest} has Rank_us {hi}, another node's rank has {most}")
    if sorted(seen) != list(range(len(figs))):
        errors.append(f"{where}: the per-node notes cover ranks {sorted(seen)}, not 0-{len(figs) - 1}")


def expected_columns(cols):
    """The order the columns must come in, and whether the run's groups fit it."""
    lead = SIZE["local"] if cols and cols[0] == "L" else SIZE["cube"]
    order = lead + SWEEP + COLUMNS + [c for g in OPTIONAL for c in g]
    pos = [order.index(c) if c in order else -1 for c in cols]
    if -1 in pos or pos != sorted(pos) or cols[:len(lead)] != lead:
        return False
    present = set(cols)
    if not all(c in present for c in COLUMNS):
        return False
    return all(all(c in present for c in g) or not any(c in present for c in g) for g in OPTIONAL)


def check(text):
    """Returns (rows checked, list of problems)."""
    lines = text.splitlines()
    h = parse_header(lines)
    errors = []
    if "grid" not in h or h["columns"] is None:
        return 0, ["no '# ranks ... grid ...' header line or no column line"]
    grid, ranks, fields = h["grid"], h["ranks"], h["fields"]
    if grid[0] * grid[1] * grid[2] != ranks:
        errors.append(f"grid {grid} does not multiply to {ranks} ranks")
        return 0, errors
    if h["grid_source"] == "auto" and auto_grid(ranks) != grid:
        errors.append(f"automatic grid for {ranks} ranks is {auto_grid(ranks)}, printed {grid}")
    if h["directions"] not in ("x", "y", "z", "all", "box"):
        return 0, [f"unknown directions {h['directions']}"]
    dirs = offsets(h["directions"])
    hosts = h["hosts"]
    if hosts is not None and len(hosts) != ranks:
        errors.append(f"the header names hosts for {len(hosts)} ranks, not {ranks}")
        hosts = None
    if hosts is not None and len(set(hosts)) != h["nodes"]:
        errors.append(f"nodes {h['nodes']} but the header names {len(set(hosts))} hosts")
    cols = h["columns"]
    if not expected_columns(cols):
        errors.append(f"unexpected columns {cols}")
        return 0, errors
    local = cols[0] == "L"
    sweep = "H" in cols
    if sweep != (len(h["halos"]) > 1):
        errors.append(f"halo widths {h['halos']} but the column H is {'there' if sweep else 'missing'}")
    with_min = "Send_min_B" in cols
    box = "RemoteEdges" in cols
    if box != (h["directions"] == "box"):
        errors.append("RemoteEdges and RemoteCorners go with directions box, and only with it")

    def global_box(size, on=grid):
        return tuple(size * g for g in on) if local else (size, size, size)

    rows = 0
    uneven = False
    checks = {}
    hidden_notes = {}  # label -> the reason of a '# Hidden LABEL: none: ...' note awaiting its row
    rank_notes = {}    # label -> the '# per-rank' or '# per-node' notes awaiting its row
    nothing = None     # the '# nothing crosses ranks' note, without its lead
    rows_send = []     # each row's Send_B by the grid
    first_size = None
    failed = None      # (line index, the '# run failed' line's match)
    for index, line in enumerate(lines):
        m = re.match(r"# nothing crosses ranks, Send_B is 0: (.*)$", line)
        if m:
            nothing = m.group(1)
        m = re.match(r"# Hidden ((?:N|L)=\d+(?: H=\d+)?): none: (.*)$", line)
        if m:
            if m.group(1) in hidden_notes:
                errors.append(f"two Hidden notes for {m.group(1)}")
            hidden_notes[m.group(1)] = m.group(2)
        m = re.match(r"# run failed \(exit (\d+)\) after (\d+) rows?: (.+)$", line)
        if m:
            failed = (index, m)
        m = RANK_NOTE.match(line) or NODE_NOTE.match(line)
        if m:
            rank_notes.setdefault(m.group(1), []).append(m)
        m = re.match(r"# check (N|L)=(\d+)(?: H=(\d+))? passed (\d+) ghost cells", line)
        if m:
            size, halo = int(m.group(2)), int(m.group(3) or h["halos"][0])
            want = sum(f[6] for f in rank_figures(global_box(size), grid, halo, dirs, fields, hosts))
            checks[(size, halo)] = True
            if int(m.group(4)) != want:
                errors.append(f"check {m.group(1)}={size} H={halo}: {m.group(4)} ghost cells, the grid gives {want}")
        if not line.strip() or line.startswith("#"):
            continue
        values = line.split()
        where = f"row '{line}'"
        if len(values) != len(cols):
            errors.append(f"{where}: {len(values)} fields, {len(cols)} columns")
            continue
        row = dict(zip(cols, values))
        size = int(row[cols[0]])
        halo = int(row["H"]) if sweep else h["halos"][0]
        if sweep and halo not in h["halos"]:
            errors.append(f"{where}: H {halo} is not one of the widths {h['halos']}")
        glob = global_box(size)
        figs = rank_figures(glob, grid, halo, dirs, fields, hosts)
        send_max = max(f[0] for f in figs)
        rows_send.append(send_max)
        if first_size is None:
            first_size = (size, halo)
        label = f"{cols[0]}={size}" + (f" H={halo}" if sweep else "")
        note = hidden_notes.pop(label, None)
        if "Hidden" in row:
            if row["Hidden"] == "-" and note is None:
                errors.append(f"{where}: Hidden '-' without a note '# Hidden {label}: none: ...' before the row")
            elif row["Hidden"] != "-" and note is not None:
                errors.append(f"{where}: Hidden {row['Hidden']}, but the note before it says none: {note}")
            elif note is not None:
                check_hidden_note(note, row, where, errors)
        elif note is not None:
            errors.append(f"{where}: a Hidden note, but the table has no Hidden column")
        check_iters(row, h, where, errors)
        notes = rank_notes.pop(label, [])
        if "Slowest" in row:
            check_ranks(row, notes, figs, hosts, where, errors)
        elif notes:
            errors.append(f"{where}: per-rank notes, but the table has no Slowest column")
        send_min = min(f[0] for f in figs)
        uneven = uneven or send_min != send_max
        expect = {"Send_B": send_max, "RemoteFaces": max(f[1] for f in figs),
                  "SelfFaces": max(f[2] for f in figs), "OffNodeFaces": max(f[3] for f in figs)}
        if box:
            expect["RemoteEdges"] = max(f[4] for f in figs)
            expect["RemoteCorners"] = max(f[5] for f in figs)
        if with_min:
            expect["Send_min_B"] = send_min
        elif send_min != send_max:
            errors.append(f"{where}: ranks send {send_min} to {send_max} bytes but there is no Send_min_B column")
        for key, value in expect.items():
            if int(row[key]) != value:
                errors.append(f"{where}: {key} {row[key]}, the grid gives {value}")
        if local and row["Global"] != "x".join(str(v) for v in glob):
            errors.append(f"{where}: Global {row['Global']}, the grid gives {'x'.join(str(v) for v in glob)}")
        t = float(row["Time_us"])
        if row["Time_us"] != f"{t:.1f}" or row["Uni_GBps"] != f"{float(row['Uni_GBps']):.3f}" or \
                row["Duplex_GBps"] != f"{float(row['Duplex_GBps']):.3f}":
            errors.append(f"{where}: Time_us needs 1 decimal and the rates 3")
        check_rate(int(row["Send_B"]), t, float(row["Uni_GBps"]), float(row["Duplex_GBps"]), where, errors)
        check_optional(row, where, errors, 16 * fields * max(f[7] for f in figs))
        rows += 1
    if with_min and rows and not uneven:
        errors.append("Send_min_B column although every size divides evenly")
    for label, note in hidden_notes.items():
        errors.append(f"a note '# Hidden {label}: none: {note}' of no row")
    for label in rank_notes:
        errors.append(f"per-rank notes of {label}, which is no row")
    check_nothing_crosses(nothing, h, rows_send, first_size, global_box, fields, hosts, errors)
    if failed is not None:
        index, m = failed
        if int(m.group(2)) != rows:
            errors.append(f"'# run failed' says {m.group(2)} rows, the table has {rows}")
        if not 1 <= int(m.group(1)) <= 4:
            errors.append(f"'# run failed' with exit {m.group(1)}: a failed run exits 1 to 4")
        if any(l.strip() for l in lines[index + 1:]):
            errors.append("'# run failed' is not the last line")
    return rows, errors


def run_failed(text):
    """The exit code and the reason of a table's '# run failed' line, or None."""
    m = re.search(r"^# run failed \(exit (\d+)\) after \d+ rows?: (.+)$", text, re.M)
    return (int(m.group(1)), m.group(2)) if m else None


SEED = """# halo-bandwidth 0.1.0
# ranks 2 nodes 1 grid 1x1x2 directions z halo 1 iters 50 warmup 5
# rank_host 0:a 1:a
# grid_source auto transport datatype
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces
64 65536 31.1 2.104 4.209 2 0 0
128 262144 37.5 6.996 13.992 2 0 0
256 1048576 154.8 6.775 13.551 2 0 0
"""

# 2 ranks on 1x1x2, box, halo 1 and 2, 3 fields, per-rank side 8: Send_B = 16 h (N + 2h)^2 per field,
# with N the global x and y side (8) and a per-rank z side of 8.
BOX = """# ranks 2 nodes 1 grid 1x1x2 directions box halo 1,2 iters 5 warmup 1
# stencil box fields 3 messages aggregated method p2p
# node a ranks 0-1 devices -1*2
# grid_source auto transport datatype
# L Global H Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces RemoteEdges RemoteCorners
# check L=8 H=1 passed 2928 ghost cells
8 8x8x16 1 4800 10.0 0.480 0.960 2 4 0 8 8
8 8x8x16 2 13824 10.0 1.382 2.765 2 4 0 8 8
"""

# --overlap: N=16 none (what overlapping saved, -0.2 us, lies within Noise_us 0.5), N=32 a share,
# (16.0 - 10.0) / (16.0 - 8.0) = 0.75. Comp_GBps = 16 B x owned cells (16x16x8, 32x32x16) / Comp_us.
OVERLAP = """# ranks 2 nodes 1 grid 1x1x2 directions z halo 1 iters 3 warmup 5
# rank_host 0:a 1:a
# grid_source auto transport datatype
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces Comp_us Blocking_us Overlap_us \
Exposed_us Noise_us Hidden Comp_GBps
# Hidden N=16: none: what overlapping saved, Blocking_us - Overlap_us = -0.2 us, is within the noise 0.5 us \
(the largest spread of 3 interleaved rounds)
16 4096 2.6 1.575 3.151 2 0 0 1.5 3.6 3.8 2.3 0.5 - 21.845
32 16384 8.4 1.950 3.901 2 0 0 8.0 16.0 10.0 2.0 0.4 0.75 32.768
""".replace("\\\n", "")

# The default run on 2 ranks: the +-x faces on grid 1x1x2, all self.
NOTHING = """# ranks 2 nodes 1 grid 1x1x2 directions x halo 1 iters 3 warmup 5
# rank_host 0:a 1:a
# grid_source auto transport datatype
# nothing crosses ranks, Send_B is 0: on grid 1x1x2 the \u00b1x faces wrap to the same rank; use --axis z or \
--grid 2,1,1
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces
16 0 0.6 0.000 0.000 0 2 0
""".replace("\\\n", "")

# --iters auto --per-rank: each rank's time before the trailing barrier; Skew = 31.0 / 20.0 (the lower
# middle of two ranks is the faster one).
PER_RANK = """# ranks 2 nodes 1 grid 1x1x2 directions z halo 1 iters auto warmup 5
# rank_host 0:a 1:a
# grid_source auto transport datatype
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces Iters Slowest Skew
# per-rank N=64: rank 0 host a Rank_us 20.0 Send_B 65536
# per-rank N=64: rank 1 host a Rank_us 31.0 Send_B 65536 (slowest)
64 65536 31.1 2.104 4.209 2 0 0 1200 1 1.55
"""

# --per-rank above 64 ranks: a note per node. 128 ranks on 4x4x8 over two nodes, --axis z: each rank's
# brick is 16x16x8, its two z faces 2 x 8 x 16 x 16 bytes; the ranks with cz = 0 and 3 (node a) and 4
# and 7 (node b) have one face off the node.
PER_NODE = """# ranks 128 nodes 2 grid 4x4x8 directions z halo 1 iters 50 warmup 5
# node a ranks 0-63 devices -1*64
# node b ranks 64-127 devices -1*64
# grid_source auto transport datatype
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces Slowest Skew
# per-node N=64: node a ranks 0-63 Rank_us min 10.0 median 11.0 max 12.0 (rank 5) Send_B min 4096 max 4096
# per-node N=64: node b ranks 64-127 Rank_us min 10.0 median 11.0 max 20.0 (rank 70) Send_B min 4096 max 4096 \
(slowest)
64 4096 20.1 0.204 0.408 2 0 1 70 1.82
""".replace("\\\n", "")

FAILED = SEED + "# run failed (exit 4) after 3 rows: timeout on rank 0 after 2 s in MPI_Waitall: N=512 warm-up\n"


def self_test():
    rows, errors = check(SEED)
    assert rows == 3 and not errors, errors
    rows, errors = check(BOX)
    assert rows == 2 and not errors, errors
    for table, n in ((OVERLAP, 2), (NOTHING, 1), (FAILED, 3), (PER_RANK, 1), (PER_NODE, 1)):
        rows, errors = check(table)
        assert rows == n and not errors, (table, errors)
    assert run_failed(FAILED) == (4, "timeout on rank 0 after 2 s in MPI_Waitall: N=512 warm-up")
    assert run_failed(SEED) is None
    bad = {
        "Send_B": SEED.replace("64 65536 31.1", "64 65537 31.1"),
        "Uni_GBps": SEED.replace("2.104 4.209", "2.204 4.409"),
        "Duplex_GBps": SEED.replace("2.104 4.209", "2.104 4.309"),
        "SelfFaces": SEED.replace("13.992 2 0 0", "13.992 2 1 0"),
        "OffNodeFaces": SEED.replace("# rank_host 0:a 1:a", "# rank_host 0:a 1:b").replace("nodes 1", "nodes 2"),
        "automatic grid": SEED.replace("1x1x2", "2x1x1"),
        "1 decimal": SEED.replace("31.1 2.104", "31.10 2.104"),
    }
    bad_box = {
        "RemoteEdges": BOX.replace("2 4 0 8 8\n8 8x8x16 2", "2 4 0 7 8\n8 8x8x16 2"),
        "Global": BOX.replace("8 8x8x16 1", "8 8x8x8 1"),
        "ghost cells": BOX.replace("passed 2928", "passed 2927"),
        "Send_B": BOX.replace("13824", "13825"),
        "column H": BOX.replace("halo 1,2", "halo 1"),
    }
    hidden_note = "# Hidden N=16: none: what overlapping saved"
    bad_v3 = {
        "is not (Blocking_us - Overlap_us) / (Blocking_us - Comp_us)": OVERLAP.replace(" 0.75 ", " 0.90 "),
        "not a share in [0, 1]": OVERLAP.replace(" 0.75 ", " 1.20 "),
        "without a note": OVERLAP.replace(" 0.75 ", " - "),
        "the figures give a share": OVERLAP.replace(" 0.75 ", " - ").replace(
            "32 16384", "# Hidden N=32: none: the exchange, Blocking_us - Comp_us = 8.0 us, is within the noise "
            "0.4 us (x)\n32 16384"),
        "must be '-'": OVERLAP.replace(" 0.5 - ", " 0.0 0.95 ").replace(hidden_note, "# note"),
        "the note before it says none": OVERLAP.replace(" 0.5 - ", " 0.0 0.00 ").replace(
            "Blocking_us - Overlap_us = -0.2 us, is within the noise 0.5 us",
            "Blocking_us - Overlap_us = -0.2 us, is within the noise 0.0 us"),
        "is not the row's Noise_us": OVERLAP.replace("is within the noise 0.5 us", "is within the noise 0.9 us"),
        "no reason the rule knows": OVERLAP.replace("what overlapping saved", "something"),
        "of no row": OVERLAP.replace("# N Send_B", "# Hidden N=64: none: x\n# N Send_B"),
        "no '# nothing crosses ranks' note": NOTHING.replace("# nothing crosses", "# nothing"),
        "some row sends": SEED.replace("# N Send_B", NOTHING.splitlines()[3] + "\n# N Send_B"),
        "sends nothing across ranks either": NOTHING.replace("--axis z", "--axis x"),
        "does not name grid": NOTHING.replace("the \u00b1x faces", "the six faces"),
        "not a grid of 2 ranks": NOTHING.replace("--grid 2,1,1", "--grid 2,2,1"),
        "'# run failed' says 2 rows": FAILED.replace("after 3 rows", "after 2 rows"),
        "not the last line": FAILED + "# peak resident memory per rank at most 1 B (VmHWM)\n",
        "Slowest 0 has Rank_us 20.0": PER_RANK.replace("0 1200 1 1.55", "0 1200 0 1.55"),
        "is not Rank_us of Slowest": PER_RANK.replace("1200 1 1.55", "1200 1 1.20"),
        "the grid gives 65536": PER_RANK.replace("31.0 Send_B 65536", "31.0 Send_B 65535"),
        "the per-rank notes name ranks [1]": PER_RANK.replace("# per-rank N=64: rank 0 host a Rank_us 20.0 "
                                                              "Send_B 65536\n", ""),
        "is not marked slowest": PER_RANK.replace(" (slowest)", ""),
        "the header says a": PER_RANK.replace("rank 0 host a", "rank 0 host b"),
        "is not a K from 5 to 1000000": PER_RANK.replace("0 1200 1", "0 3 1"),
        "goes with 'iters auto'": PER_RANK.replace("iters auto", "iters 50"),
        "Skew 0.9 is below 1": PER_RANK.replace("1 1.55", "1 0.90"),
        "node b sends 4096 to 4097 bytes": PER_NODE.replace("max 4096 (slowest)", "max 4097 (slowest)"),
        "node a's slowest mark": PER_NODE.replace("(rank 5) Send_B min 4096 max 4096\n",
                                                  "(rank 5) Send_B min 4096 max 4096 (slowest)\n"),
        "not 0-127": PER_NODE.replace("ranks 64-127 Rank_us", "ranks 64-126 Rank_us"),
        "a note per rank up to 64 ranks, per node above": PER_RANK.replace(
            "# per-rank N=64: rank 0 host a Rank_us 20.0 Send_B 65536",
            "# per-node N=64: node a ranks 0-1 Rank_us min 1.0 median 1.0 max 1.0 (rank 0) Send_B min 1 max 1"),
        "but the table has no Slowest column": SEED.replace("# N Send_B", PER_RANK.splitlines()[4] + "\n# N Send_B"),
    }
    for what, text in bad_v3.items():
        _, errors = check(text)
        assert any(what in e for e in errors), (what, errors)
    _, errors = check(NOTHING.replace("--grid 2,1,1", "--grid 1,2,1"))
    assert any("--grid 1,2,1, which sends nothing" in e for e in errors), errors
    for what, text in list(bad.items()) + list(bad_box.items()):
        _, errors = check(text)
        assert any(what in e for e in errors), (what, errors)
    odd = SEED.replace("ranks 2 nodes 1 grid 1x1x2", "ranks 4 nodes 1 grid 1x2x2").replace(
        "# rank_host 0:a 1:a", "# rank_host 0:a 1:a 2:a 3:a").replace(
        "128 262144 37.5 6.996 13.992 2 0 0\n256 1048576 154.8 6.775 13.551 2 0 0\n", "")
    odd = odd.replace("64 65536 31.1 2.104 4.209 2 0 0", "17 2448 10.0 0.245 0.490 2 0 0")
    _, errors = check(odd)
    assert any("no Send_min_B column" in e for e in errors), errors
    print(f"check_table self-test: 7 good tables passed, {len(bad) + len(bad_box) + len(bad_v3) + 2} broken tables "
          "caught")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    text = open(argv[1]).read() if len(argv) > 1 else sys.stdin.read()
    rows, errors = check(text)
    for e in errors:
        print(f"check_table: {e}", file=sys.stderr)
    if rows == 0 and not errors:
        print("check_table: no rows", file=sys.stderr)
        return 1
    if not errors:
        failed = run_failed(text)
        tail = f"; the run failed (exit {failed[0]}) after them: {failed[1]}" if failed else ""
        print(f"check_table: {rows} rows agree with the printed grid{tail}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
