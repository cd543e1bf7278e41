#!/usr/bin/env python3
"""Checks a halo-bandwidth table against its own header.

Recomputes, from the printed grid, halo, directions and rank hosts alone, every
row's Send_B (and Send_min_B), RemoteFaces, SelfFaces and OffNodeFaces, and
the ghost-cell count of each '# check' line; checks that Uni_GBps and
Duplex_GBps agree with Send_B and Time_us to their printed precision. It
imposes no speed threshold. This is an independent implementation of the
decomposition: it shares no code with the benchmark.

Usage: check_table.py [FILE]   (standard input when no file)
       check_table.py --self-test
Exit status 0 when every row checks, 1 otherwise (each problem on stderr).
"""
import re
import sys

COLUMNS = ["N", "Send_B", "Time_us", "Uni_GBps", "Duplex_GBps",
           "RemoteFaces", "SelfFaces", "OffNodeFaces"]
# Optional groups, in this order after the standard columns.
OPTIONAL = [["Send_min_B"], ["Min_us", "Max_us"],
            ["Pack_us", "Xfer_us", "Stage_us", "Unpack_us", "Xfer_GBps", "Eff"], ["Copy_GBps", "Peer_GBps"]]


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


def rank_figures(n, grid, halo, axes, hosts):
    """Per rank: remote bytes, remote, self and off-node faces, ghost cells received."""
    gx, gy, gz = grid
    split = [blocks(n, g) for g in grid]
    figures = []
    for rank in range(gx * gy * gz):
        c = (rank % gx, (rank // gx) % gy, rank // (gx * gy))
        ext = [split[a][c[a]][1] for a in range(3)]
        rb = rf = sf = of = cells = 0
        for a in axes:
            others = [ext[b] for b in range(3) if b != a]
            face_cells = halo * others[0] * others[1]
            for side in (-1, 1):
                nc = list(c)
                nc[a] = (c[a] + side) % grid[a]
                peer = nc[0] + gx * (nc[1] + gy * nc[2])
                cells += face_cells
                if peer == rank:
                    sf += 1
                else:
                    rf += 1
                    rb += 8 * face_cells
                    if hosts and hosts[peer] != hosts[rank]:
                        of += 1
        figures.append((rb, rf, sf, of, cells))
    return figures


def parse_header(lines):
    h = {"hosts": None, "columns": None, "grid_source": None}
    for line in lines:
        if not line.startswith("#"):
            continue
        m = re.match(r"# ranks (\d+) nodes (\d+) grid (\d+)x(\d+)x(\d+) directions (\w+) halo (\d+)", line)
        if m:
            h["ranks"], h["nodes"] = int(m.group(1)), int(m.group(2))
            h["grid"] = (int(m.group(3)), int(m.group(4)), int(m.group(5)))
            h["directions"], h["halo"] = m.group(6), int(m.group(7))
        if line.startswith("# rank_host"):
            pairs = [p.split(":", 1) for p in line.split()[2:]]
            h["hosts"] = [name for _, name in sorted(pairs, key=lambda p: int(p[0]))]
        m = re.match(r"# grid_source (\S+)", line)
        if m:
            h["grid_source"] = m.group(1)
        if line.startswith("# N "):
            h["columns"] = line[2:].split()
    return h


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
    eps = 1e-9
    if not (lo - 0.0005 - eps <= uni <= hi + 0.0005 + eps):
        errors.append(f"{where}: Uni_GBps {uni} is not Send_B {send} / Time_us {t} "
                      f"(between {lo:.4f} and {hi:.4f})")
    if not (2 * lo - 0.0005 - eps <= duplex <= 2 * hi + 0.0005 + eps) or abs(duplex - 2 * uni) > 0.0015 + eps:
        errors.append(f"{where}: Duplex_GBps {duplex} is not 2 x Uni_GBps {uni}")


def check_optional(row, where, errors):
    """The optional columns against the standard ones, to their printed precision."""
    send, t = int(row["Send_B"]), float(row["Time_us"])
    if "Min_us" in row and not float(row["Min_us"]) <= t <= float(row["Max_us"]):
        errors.append(f"{where}: Time_us {t} is not between Min_us and Max_us")
    if "Xfer_us" in row:
        xfer = float(row["Xfer_us"])
        if send == 0:
            if row["Eff"] != "n/a":
                errors.append(f"{where}: Eff {row['Eff']} with nothing remote sent")
        else:
            lo = send / (xfer + 0.05) / 1e3 - 0.0005
            hi = (send / (xfer - 0.05) / 1e3 if xfer > 0.05 else float("inf")) + 0.0005
            if not lo <= float(row["Xfer_GBps"]) <= hi:
                errors.append(f"{where}: Xfer_GBps {row['Xfer_GBps']} is not Send_B / Xfer_us")
            eff = float(row["Eff"])
            want_lo = (xfer - 0.05) / (t + 0.05) - 0.005
            want_hi = (xfer + 0.05) / max(t - 0.05, 1e-9) + 0.005
            if not want_lo <= eff <= want_hi:
                errors.append(f"{where}: Eff {eff} is not Uni_GBps / Xfer_GBps = Xfer_us / Time_us")
    if "Copy_GBps" in row and send > 0 and not float(row["Copy_GBps"]) > 0:
        errors.append(f"{where}: Copy_GBps {row['Copy_GBps']} with Send_B {send}")


def check(text):
    """Returns (rows checked, list of problems)."""
    lines = text.splitlines()
    h = parse_header(lines)
    errors = []
    if "grid" not in h or h["columns"] is None:
        return 0, ["no '# ranks ... grid ...' header line or no column line"]
    grid, halo, ranks = h["grid"], h["halo"], h["ranks"]
    if grid[0] * grid[1] * grid[2] != ranks:
        errors.append(f"grid {grid} does not multiply to {ranks} ranks")
        return 0, errors
    if h["grid_source"] == "auto" and auto_grid(ranks) != grid:
        errors.append(f"automatic grid for {ranks} ranks is {auto_grid(ranks)}, printed {grid}")
    axes = {"x": [0], "y": [1], "z": [2], "all": [0, 1, 2]}.get(h["directions"])
    if axes is None:
        return 0, [f"unknown directions {h['directions']}"]
    hosts = h["hosts"]
    if hosts is not None and len(hosts) != ranks:
        errors.append(f"rank_host lists {len(hosts)} ranks, not {ranks}")
        hosts = None
    if hosts is not None and len(set(hosts)) != h["nodes"]:
        errors.append(f"nodes {h['nodes']} but rank_host names {len(set(hosts))} hosts")
    cols = h["columns"]
    rest = cols[len(COLUMNS):]
    for group in OPTIONAL:
        if rest[:len(group)] == group:
            rest = rest[len(group):]
    if cols[:len(COLUMNS)] != COLUMNS or rest:
        errors.append(f"unexpected columns {cols}")
        return 0, errors
    with_min = "Send_min_B" in cols
    rows = 0
    for line in lines:
        m = re.match(r"# check N=(\d+) passed (\d+) ghost cells", line)
        if m:
            n = int(m.group(1))
            want = sum(f[4] for f in rank_figures(n, grid, halo, axes, hosts))
            if int(m.group(2)) != want:
                errors.append(f"check N={n}: {m.group(2)} ghost cells, the grid gives {want}")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        where = f"row '{line}'"
        if len(fields) != len(cols):
            errors.append(f"{where}: {len(fields)} fields, {len(cols)} columns")
            continue
        row = dict(zip(cols, fields))
        n = int(row["N"])
        figs = rank_figures(n, grid, halo, axes, hosts)
        send_max = max(f[0] for f in figs)
        send_min = min(f[0] for f in figs)
        expect = {"Send_B": send_max, "RemoteFaces": max(f[1] for f in figs),
                  "SelfFaces": max(f[2] for f in figs), "OffNodeFaces": max(f[3] for f in figs)}
        if with_min:
            expect["Send_min_B"] = send_min
        elif send_min != send_max:
            errors.append(f"{where}: ranks send {send_min} to {send_max} bytes but there is no Send_min_B column")
        for key, value in expect.items():
            if int(row[key]) != value:
                errors.append(f"{where}: {key} {row[key]}, the grid gives {value}")
        t = float(row["Time_us"])
        if row["Time_us"] != f"{t:.1f}" or row["Uni_GBps"] != f"{float(row['Uni_GBps']):.3f}" or \
                row["Duplex_GBps"] != f"{float(row['Duplex_GBps']):.3f}":
            errors.append(f"{where}: Time_us needs 1 decimal and the rates 3")
        check_rate(int(row["Send_B"]), t, float(row["Uni_GBps"]), float(row["Duplex_GBps"]), where, errors)
        check_optional(row, where, errors)
        rows += 1
    if with_min and rows and all(
            min(f[0] for f in rank_figures(int(l.split()[0]), grid, halo, axes, hosts)) ==
            max(f[0] for f in rank_figures(int(l.split()[0]), grid, halo, axes, hosts))
            for l in lines if l.strip() and not l.startswith("#")):
        errors.append("Send_min_B column although every size divides evenly")
    return rows, errors


SEED = """# halo-bandwidth 0.1.0
# ranks 2 nodes 1 grid 1x1x2 directions z halo 1 iters 50 warmup 5
# rank_host 0:a 1:a
# grid_source auto transport datatype
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces
64 65536 31.1 2.104 4.209 2 0 0
128 262144 37.5 6.996 13.992 2 0 0
256 1048576 154.8 6.775 13.551 2 0 0
"""


def self_test():
    rows, errors = check(SEED)
    assert rows == 3 and not errors, errors
    bad = {
        "Send_B": SEED.replace("64 65536 31.1", "64 65537 31.1"),
        "Uni_GBps": SEED.replace("2.104 4.209", "2.204 4.409"),
        "Duplex_GBps": SEED.replace("2.104 4.209", "2.104 4.309"),
        "SelfFaces": SEED.replace("13.992 2 0 0", "13.992 2 1 0"),
        "OffNodeFaces": SEED.replace("# rank_host 0:a 1:a", "# rank_host 0:a 1:b").replace("nodes 1", "nodes 2"),
        "automatic grid": SEED.replace("1x1x2", "2x1x1"),
        "1 decimal": SEED.replace("31.1 2.104", "31.10 2.104"),
    }
    for what, text in bad.items():
        _, errors = check(text)
        assert any(what in e for e in errors), (what, errors)
    odd = SEED.replace("ranks 2 nodes 1 grid 1x1x2", "ranks 4 nodes 1 grid 1x2x2").replace(
        "# rank_host 0:a 1:a", "# rank_host 0:a 1:a 2:a 3:a").replace(
        "128 262144 37.5 6.996 13.992 2 0 0\n256 1048576 154.8 6.775 13.551 2 0 0\n", "")
    odd = odd.replace("64 65536 31.1 2.104 4.209 2 0 0", "17 2448 10.0 0.245 0.490 2 0 0")
    _, errors = check(odd)
    assert any("no Send_min_B column" in e for e in errors), errors
    print("check_table self-test: 1 good table passed, 8 broken tables caught")
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
        print(f"check_table: {rows} rows agree with the printed grid")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
