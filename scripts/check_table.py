#!/usr/bin/env python3
"""Checks a halo-bandwidth table against its own header.

Recomputes, from the printed grid, halo widths, directions (faces, or all 26
pieces of a box stencil), fields, sizes, walls, placement and rank hosts
alone, every row's Send_B (and Send_min_B), RemoteFaces, SelfFaces,
OffNodeFaces, BoundaryFaces, OffNode_B, RemoteEdges and RemoteCorners, each
row's Global box, and the ghost-cell count of each '# check' line; checks that
Uni_GBps and Duplex_GBps agree with Send_B and Time_us, and the derived
columns (Xfer_GBps, Eff, Exposed_us, Hidden, Comp_GBps) with the ones they
derive from, to their printed precision. It imposes no speed threshold. This
is an independent implementation of the decomposition: it shares no code with
the benchmark.

Sizes: a table of global cubes leads with N; of global boxes, some no cube,
with Global (GXxGYxGZ); of per-rank bricks with L Global (all cubes) or Local
Global (some brick no cube: LXxLYxLZ). Along an axis of n cells on g blocks
the first n % g blocks get one cell more. The automatic grid (grid_source
auto) is the factorisation of the ranks with the least face area per brick of
the largest row's box, NX NY gz + NY NZ gx + NX NZ gy, ties to the smallest
gx, then gy (per-rank bricks: the cube's rule).

Walls: the note '# periodic x,y; walls along z: ...' names the open axes. A
piece whose neighbour lies beyond a wall is a boundary piece: neither sent nor
counted; BoundaryFaces is the most faces on any rank at a wall, and the
column is there exactly when some axis is open. Its ghost cells are still
verified by --check (they must keep their values): the ghost count covers
every piece.

Nodes: a rank's node is its host as the header prints it ('# rank_host' or
'# node NAME ranks ...'), nodes in the order of their first rank; where
MPI's shared-memory groups differ from the hosts, the header's
'# rank_node R:N ...' note gives each rank's node instead. A remote
face to a rank on another node is off-node; OffNode_B is the most bytes any
rank sends off its node (faces, edges and corners, all fields), there exactly
when the header says more than one node. The placement maps ranks to cells:
linear (no note) rank r holds cell r, x fastest; '# placement nodes: K nodes
as a AxBxC grid, each holding a axbxc block of ranks (of the blocks that tile
the grid, the fewest bytes off a node at GLOBAL halo H: NodeOut_B ...,
OffNode_B ...; rank order ..., ...)' is checked against the block computed
here for that row, which must be the table's largest (the most cells, the
first of equals, at the widest halo): of the blocks a|gx, b|gy, c|gz of the
ranks per node, the least NodeOut_B (the most one node sends off it), then
OffNode_B, then the least surface ab + bc + ac, then the longest along z,
then y, every rank's bytes counted for each block; its figures and rank
order's against the note's; node n (by first rank) holding the n-th block of
the node grid x fastest and its ranks, in rank order, the block's cells x
fastest; '# placement nodes fell back to linear: WHY' must have the reason
computed here (unequal nodes, no block, or rank order sending fewer bytes off
a node than the best block at the row it names); '# placement
cart: MPI_Cart_create (reorder 1) kept every rank where it was' is MPI's
row-major order (z fastest). Where cart 'moved N of R ranks', which rank holds
which cell is not known here: the off-node columns and each rank's bytes in
the per-rank notes are not checked (the main line says so).

A dry run's table ('# dry run: the plan of ...', columns N or L, [H],
[Placement], Send_B Send_min_B RemoteFaces SelfFaces OffNodeFaces
BoundaryFaces OffNode_B NodeOut_B Brick_min Brick_max Rank_B Node_B Fits) is
checked the same way, with NodeOut_B (the most bytes the ranks of one node send
off it), the least and the largest brick, and Rank_B against at least the
fields' bytes; its nodes are the blocks of P ranks its header names, a cart
planned without a launch is row-major; planned under a launcher on more than
one node, the nodes are not printed and the off-node columns are not checked.

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
import collections
import math
import re
import sys

# The table's columns in order: each run shows the standard ones and the groups it measures.
COLUMNS = ["Send_B", "Time_us", "Uni_GBps", "Duplex_GBps", "RemoteFaces", "SelfFaces", "OffNodeFaces"]
# The size columns by the registry's groups; a row leads with one of LEADS.
SIZE = {"cube": ["N"], "local": ["L"], "local_extents": ["Local"], "global_box": ["Global"]}
LEADS = [SIZE["cube"], SIZE["global_box"], SIZE["local"] + SIZE["global_box"],
         SIZE["local_extents"] + SIZE["global_box"]]
SWEEP = ["H"]                                       # after the size, with more than one halo width
OPTIONAL = [["BoundaryFaces"], ["OffNode_B"], ["RemoteEdges", "RemoteCorners"], ["Send_min_B"], ["Iters"],
            ["Slowest", "Skew"], ["Min_us", "Max_us"],
            ["Pack_us", "Mpi_us", "Stage_us", "Unpack_us", "Xfer_us", "Xfer_GBps", "Eff"],
            ["Copy_GBps", "Peer_GBps"],
            ["Comp_us", "Blocking_us", "Overlap_us", "Exposed_us", "Noise_us", "Hidden", "Comp_GBps"]]
# A dry run's columns after its size ([H] and [Placement] between).
DRY_COLUMNS = ["Send_B", "Send_min_B", "RemoteFaces", "SelfFaces", "OffNodeFaces", "BoundaryFaces", "OffNode_B",
               "NodeOut_B", "Brick_min", "Brick_max", "Rank_B", "Node_B", "Fits"]
def rate_text(v):
    """A rate as the benchmark prints it: 3 decimals, more below 0.1 GB/s, for 3 significant digits."""
    if v == 0 or not math.isfinite(v):
        return f"{v:.3f}"
    rounded = float(f"{v:.2e}")  # decided on the value rounded to 3 digits: 0.0009996 is 0.00100
    return f"{v:.{min(15, max(3, 2 - math.floor(math.log10(abs(rounded)))))}f}"


# Half the last printed decimal of the microsecond columns, and of the 2-decimal ratios.
US = 0.05
RATIO = 0.005
AXES = "xyz"
# Where MPI's nodes (MPI_COMM_TYPE_SHARED) are not the hosts' (MPICH's MPIR_CVAR_NOLOCAL): each rank's node.
RANK_NODE_NOTE = re.compile(r"# rank_node ((?:\d+:\d+ ?)+) \(MPI_COMM_TYPE_SHARED makes (\d+) (nodes?) of the ranks, "
                            r"their host names (\d+);")
WALLS_NOTE = re.compile(r"# periodic (\S+); walls along (\S+): the pieces at a wall are neither sent nor filled, "
                        r"their ghost cells keep their values \(BoundaryFaces counts them\)$")
NODES_NOTE = re.compile(r"# placement nodes: (\d+) nodes? as a (\d+)x(\d+)x(\d+) grid, each holding a "
                        r"(\d+)x(\d+)x(\d+) block of ranks \(of the blocks that tile the grid, the fewest bytes off "
                        r"a node at (\d+x\d+x\d+) halo (\d+): NodeOut_B \d+, OffNode_B \d+; rank order \d+, \d+\)$")
# The row a fallback for bytes names: 'at GXxGYxGZ halo H the best block ...'.
FELL_BACK_ROW = re.compile(r"at (\d+x\d+x\d+) halo (\d+) the best block ")
FELL_BACK = re.compile(r"# placement nodes fell back to linear: (.+)$")
CART_KEPT = "# placement cart: MPI_Cart_create (reorder 1) kept every rank where it was"
CART_MOVED = re.compile(r"# placement cart: MPI_Cart_create \(reorder 1\) moved (\d+) of (\d+) ranks$")
CART_PLANNED = ("# placement cart, planned as MPI_Cart_create without reorder (row-major, z fastest), as most MPI "
                "libraries return it; the launch may differ")
DRY_LINE = re.compile(r"# dry run: the plan of (.+): nothing launched, allocated or timed$")
DRY_BLOCKS = re.compile(r"(\d+) ranks?, (\d+) per node in blocks \(as srun places them\): (\d+) nodes?$")
DRY_JOB = re.compile(r"this job's (\d+) ranks? on (\d+) nodes? \(MPI_Comm_split_type\)$")
# A row's label in the notes: its size column (N, L, Global or Local), = and the row's cell there, and H=
# with a halo sweep.
LABEL = r"(?:N|L|Global|Local)=\d+(?:x\d+x\d+)?(?: H=\d+)?"

# What one rank sends and holds in one row: bytes, pieces by kind, cells, then the walls, the bytes off
# its node and its brick.
Figures = collections.namedtuple("Figures", "send remote_faces self_faces offnode_faces edges corners ghost owned "
                                            "boundary_faces offnode_bytes brick")


def blocks(n, g):
    """(offset, extent) of each of g blocks of n cells; the first n % g get one more."""
    out, off = [], 0
    for c in range(g):
        e = n // g + (1 if c < n % g else 0)
        out.append((off, e))
        off += e
    return out


def box(text):
    """"16x12x8" -> (16, 12, 8); "16" -> (16, 16, 16)."""
    parts = [int(v) for v in text.split("x")]
    return tuple(parts) if len(parts) == 3 else (parts[0],) * 3


def box_text(b):
    return "x".join(str(v) for v in b)


def size_text(b):
    """A box as a dry run's N or L column prints it: a cube's side, else its extents."""
    return str(b[0]) if b[0] == b[1] == b[2] else box_text(b)


def auto_grid(ranks, largest=(1, 1, 1)):
    """The grid of least face area per brick of the box `largest`: NX NY gz + NY NZ gx + NX NZ gy
    (for a cube, the least gx + gy + gz), ties to the smallest gx, then gy."""
    nx, ny, nz = largest
    best = None
    for gx in range(1, ranks + 1):
        for gy in range(1, ranks + 1):
            if ranks % (gx * gy):
                continue
            gz = ranks // (gx * gy)
            key = (nx * ny * gz + ny * nz * gx + nx * nz * gy, gx, gy)
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


def cell_coords(cell, grid):
    return (cell % grid[0], (cell // grid[0]) % grid[1], cell // (grid[0] * grid[1]))


def cell_of(c, grid):
    return c[0] + grid[0] * (c[1] + grid[1] * c[2])


def off_node(figures, node_of):
    """(NodeOut_B, OffNode_B) of every rank's figures: the most the ranks of one node send off it together,
    the most one rank sends."""
    per_node = {}
    for r, f in enumerate(figures):
        per_node[node_of[r]] = per_node.get(node_of[r], 0) + f.offnode_bytes
    return max(per_node.values()), max(f.offnode_bytes for f in figures)


def block_nodes(grid, block):
    """Each cell's node where every node holds a block of the grid (cell c on rank c)."""
    ngrid = tuple(g // b for g, b in zip(grid, block))
    return [cell_of([c[a] // block[a] for a in range(3)], ngrid)
            for c in (cell_coords(cell, grid) for cell in range(grid[0] * grid[1] * grid[2]))]


def tiling_blocks(per_node, grid):
    """Every block a x b x c of per_node ranks that tiles the grid: a | gx, b | gy, c | gz."""
    for a in range(1, per_node + 1):
        for b in range(1, per_node // a + 1):
            c = per_node // (a * b)
            if a * b * c == per_node and not (grid[0] % a or grid[1] % b or grid[2] % c):
                yield a, b, c


def node_block(per_node, grid, row):
    """(block, (NodeOut_B, OffNode_B)) of the block a x b x c of per_node ranks that tiles the grid (a | gx,
    b | gy, c | gz) whose nodes send the fewest bytes off them in the row `row` (global box, halo, directions,
    fields, walls), every rank counted: the least NodeOut_B, then OffNode_B, then the least surface ab + bc + ac,
    then the longest along z, then along y; None when none tiles it."""
    glob, halo, dirs, fields, periodic = row
    best = None
    for a, b, c in tiling_blocks(per_node, grid):
        node_of = block_nodes(grid, (a, b, c))
        sends = off_node(rank_figures(glob, grid, halo, dirs, fields, node_of, periodic), node_of)
        key = sends + (a * b + b * c + a * c, -c, -b)
        if best is None or key < best[0]:
            best = (key, (a, b, c), sends)
    return (best[1], best[2]) if best else None


def nodes_of(node_of_rank):
    """{node: its ranks in rank order}, the nodes in the order of their first rank."""
    out = {}
    for r, n in enumerate(node_of_rank):
        out.setdefault(n, []).append(r)
    return out


def nodes_placement(grid, node_of_rank, row):
    """(cell of each rank, node grid, block, what the note says of the row) of placement nodes for the row
    `row` (None: not known), or (None, why, None, None) where it falls back: unequal nodes, no block, or rank order sending fewer bytes off a
    node (then NodeOut_B, then OffNode_B) than the best block."""
    ranks_of = nodes_of(node_of_rank)
    counts = [len(r) for r in ranks_of.values()]
    if len(set(counts)) > 1:
        return None, f"the nodes hold different numbers of ranks ({counts[0]} and " \
                     f"{next(c for c in counts if c != counts[0])})", None, None
    if not any(tiling_blocks(counts[0], grid)):
        return None, f"no sub-block of {counts[0]} ranks tiles the grid {box_text(grid)}", None, None
    if row is None:
        return None, None, None, None  # a block tiles the grid: which sends least depends on the row
    chosen = node_block(counts[0], grid, row)
    block, sends = chosen
    glob, halo, dirs, fields, periodic = row
    linear = off_node(rank_figures(glob, grid, halo, dirs, fields, node_of_rank, periodic), node_of_rank)
    figures = f"NodeOut_B {sends[0]}, OffNode_B {sends[1]}; rank order {linear[0]}, {linear[1]}"
    if linear < sends:
        return None, f"at {box_text(glob)} halo {halo} the best block of {counts[0]} ranks, {box_text(block)}, " \
                     f"sends more off a node than rank order ({figures})", None, None
    ngrid = tuple(g // b for g, b in zip(grid, block))
    cells = [0] * len(node_of_rank)
    for n, ranks in enumerate(ranks_of.values()):
        at = cell_coords(n, ngrid)
        for i, r in enumerate(ranks):
            inner = cell_coords(i, block)
            cells[r] = cell_of([at[a] * block[a] + inner[a] for a in range(3)], grid)
    return cells, ngrid, block, f"at {box_text(glob)} halo {halo}: {figures}"


def cart_cells(grid):
    """MPI's Cartesian numbering without reorder: rank r at row-major coordinates, z fastest."""
    gx, gy, gz = grid
    return [cell_of((r // (gz * gy), r // gz % gy, r % gz), grid) for r in range(gx * gy * gz)]


def rank_figures(glob, grid, halo, dirs, fields, node_of=None, periodic=(True, True, True), cells=None):
    """Figures of every rank (by rank): rank r holds cell cells[r] (cell r without a placement). A piece
    beyond a wall (an open axis) is a boundary piece: neither sent nor counted, its ghost cells still
    verified. node_of: each rank's node, None where not known (no off-node figures then)."""
    gx, gy, gz = grid
    ranks = gx * gy * gz
    cells = cells if cells is not None else list(range(ranks))
    rank_of = {c: r for r, c in enumerate(cells)}
    split = [blocks(glob[a], grid[a]) for a in range(3)]
    figures = []
    for rank in range(ranks):
        c = cell_coords(cells[rank], grid)
        ext = tuple(split[a][c[a]][1] for a in range(3))
        rb = rf = sf = of = re_ = rc = ghost = bf = ob = 0
        for d in dirs:
            piece = fields
            for a in range(3):
                piece *= halo if d[a] else ext[a]
            ghost += piece
            kind = sum(1 for v in d if v)
            moved = [c[a] + d[a] for a in range(3)]
            if any(not periodic[a] and not 0 <= moved[a] < grid[a] for a in range(3)):
                bf += kind == 1
                continue
            peer = rank_of[cell_of([moved[a] % grid[a] for a in range(3)], grid)]
            if peer == rank:
                sf += kind == 1
                continue
            rb += 8 * piece
            rf += kind == 1
            re_ += kind == 2
            rc += kind == 3
            if node_of is not None and node_of[peer] != node_of[rank]:
                of += kind == 1
                ob += 8 * piece
        figures.append(Figures(rb, rf, sf, of, re_, rc, ghost, ext[0] * ext[1] * ext[2], bf, ob, ext))
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
    h = {"hosts": None, "rank_node": None, "columns": None, "grid_source": None, "fields": 1, "periodic": (True, True, True),
         "walls_note": None, "placements": [], "dry": None, "backend": None}
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
        m = re.match(r"# backend (\S+) ", line)
        if m:
            h["backend"] = m.group(1)
        if line.startswith("# rank_host"):
            pairs = [p.split(":", 1) for p in line.split()[2:]]
            h["hosts"] = [name for _, name in sorted(pairs, key=lambda p: int(p[0]))]
        m = RANK_NODE_NOTE.match(line)
        if m:
            pairs = [p.split(":", 1) for p in m.group(1).split()]
            h["rank_node"] = [int(n) for _, n in sorted(pairs, key=lambda p: int(p[0]))]
            h["rank_node_counts"] = (int(m.group(2)), m.group(3), int(m.group(4)))
        m = re.match(r"# node (\S+) ranks (\S+) devices (\S+)$", line)
        if m:
            nodes.append((m.group(1), expand(m.group(2))))
        m = re.match(r"# grid_source (\S+)", line)
        if m:
            h["grid_source"] = m.group(1)
        m = WALLS_NOTE.match(line)
        if m:
            h["walls_note"] = (m.group(1), m.group(2))
        if NODES_NOTE.match(line) or FELL_BACK.match(line) or CART_MOVED.match(line) or line in (CART_KEPT,
                                                                                                CART_PLANNED):
            h["placements"].append(line)
        m = DRY_LINE.match(line)
        if m:
            h["dry"] = m.group(1)
        if re.match(r"# (N|L|Global|Local) ", line) and "Send_B" in line:
            h["columns"] = line[2:].split()
    if nodes and h["hosts"] is None:
        by_rank = {}
        for name, ranks in nodes:
            for r in ranks:
                by_rank[r] = name
        h["hosts"] = [by_rank.get(r, "?") for r in range(max(by_rank) + 1)] if by_rank else None
    return h


def walls_of(h, errors):
    """The periodic axes, from the walls note: every axis named once, the periodic ones (or none) before
    the walls, each list in order; no note, every axis periodic."""
    if h["walls_note"] is None:
        return (True, True, True)
    wrap, open_ = h["walls_note"]
    wrap_axes = [] if wrap == "none" else wrap.split(",")
    open_axes = open_.split(",")
    if sorted(wrap_axes + open_axes) != list(AXES) or wrap_axes != sorted(wrap_axes) \
            or open_axes != sorted(open_axes) or not open_axes:
        errors.append(f"the walls note names periodic {wrap} and walls along {open_}: each of x, y, z once, in order")
    return tuple(a not in open_axes for a in AXES)


def node_of_ranks(h, errors):
    """Each rank's node (nodes numbered by their first rank), from the hosts the header prints, or from a
    dry run's blocks of P; None where not known (more than one node, no hosts printed)."""
    ranks = h["ranks"]
    if h["dry"] is not None:
        m = DRY_BLOCKS.fullmatch(h["dry"])
        if m:
            if int(m.group(1)) != ranks:
                errors.append(f"the dry run plans {m.group(1)} ranks, the header says {ranks}")
            per = int(m.group(2))
            node_of = [r // per for r in range(ranks)]
            if len(set(node_of)) != int(m.group(3)) or int(m.group(3)) != h["nodes"]:
                errors.append(f"{ranks} ranks {per} per node make {len(set(node_of))} nodes: the dry run says "
                              f"{m.group(3)}, the header nodes {h['nodes']}")
            return node_of
        m = DRY_JOB.fullmatch(h["dry"])
        if not m:
            errors.append(f"the dry run's plan of '{h['dry']}': neither blocks of P ranks nor this job's ranks")
            return None
        if (int(m.group(1)), int(m.group(2))) != (ranks, h["nodes"]):
            errors.append(f"the dry run plans {m.group(1)} ranks on {m.group(2)} nodes, the header says {ranks} "
                          f"on {h['nodes']}")
        return [0] * ranks if h["nodes"] == 1 else None
    if h["rank_node"] is not None:
        made, word, names = h["rank_node_counts"]
        if made != len(set(h["rank_node"])) or word != ("node" if made == 1 else "nodes") or (
                h["hosts"] is not None and names != len(set(h["hosts"]))):
            errors.append(f"the rank_node note counts {made} {word} and {names} host names; its ranks give "
                          f"{len(set(h['rank_node']))} nodes, rank_host "
                          f"{len(set(h['hosts'])) if h['hosts'] is not None else '?'} host names")
        if len(h["rank_node"]) != ranks or len(set(h["rank_node"])) != h["nodes"]:
            errors.append(f"the rank_node note gives {len(set(h['rank_node']))} nodes for {len(h['rank_node'])} "
                          f"ranks, the header {h['nodes']} for {ranks}")
            return None
        return h["rank_node"]
    hosts = h["hosts"]
    if hosts is None:
        return [0] * ranks if h["nodes"] == 1 else None
    number = {}
    return [number.setdefault(name, len(number)) for name in hosts]


def placements_of(h, node_of, row_of, errors):
    """({placement name: cell of each rank, or None where not known}, the (global box, halo) placement nodes
    names) of the header's notes, each checked against the block computed here for that row (row_of(box, halo):
    the row's figures' arguments)."""
    grid, out, named = h["grid"], {}, None
    for line in h["placements"]:
        m = NODES_NOTE.match(line)
        if m:
            k, ngrid, block = int(m.group(1)), tuple(int(v) for v in m.group(2, 3, 4)), \
                tuple(int(v) for v in m.group(5, 6, 7))
            named = (box(m.group(8)), int(m.group(9)))
            if k != h["nodes"] or ngrid[0] * ngrid[1] * ngrid[2] != k or \
                    any(n * b != g for n, b, g in zip(ngrid, block, grid)):
                errors.append(f"'{line[2:]}': {k} nodes of {box_text(block)} do not tile grid {box_text(grid)} on "
                              f"{h['nodes']} nodes")
                out["nodes"] = None
                continue
            if node_of is None:
                out["nodes"] = None
                continue
            cells, want_grid, want_block, said = nodes_placement(grid, node_of, row_of(*named))
            if cells is None:
                errors.append(f"'{line[2:]}', but placement nodes falls back here: {want_grid}")
            elif (want_grid, want_block) != (ngrid, block):
                errors.append(f"'{line[2:]}': the block that sends the fewest bytes off a node is "
                              f"{box_text(want_block)} ({box_text(want_grid)} nodes)")
            elif not line.endswith(f"the fewest bytes off a node {said})"):
                errors.append(f"'{line[2:]}': the row's bytes here are '{said}'")
            out["nodes"] = cells
            continue
        m = FELL_BACK.match(line)
        if m:
            at = FELL_BACK_ROW.match(m.group(1))
            if at:
                named = (box(at.group(1)), int(at.group(2)))
            if node_of is not None:
                cells, why, _, _ = nodes_placement(grid, node_of, row_of(*named) if at else None)
                if cells is not None or why is None:
                    errors.append(f"'{line[2:]}', but each node holds {len(node_of) // len(set(node_of))} ranks and "
                                  "a block of them tiles the grid, sending no more off a node than rank order")
                elif m.group(1) != why:
                    errors.append(f"placement nodes fell back because '{m.group(1)}'; the nodes say: {why}")
            out.setdefault("linear", list(range(h["ranks"])))
            continue
        m = CART_MOVED.match(line)
        if m:
            if int(m.group(2)) != h["ranks"] or not 0 < int(m.group(1)) <= h["ranks"]:
                errors.append(f"'{line[2:]}' of {h['ranks']} ranks")
            out["cart"] = None
            continue
        out["cart"] = cart_cells(grid)  # kept, or planned without a launch: row-major
    return out, named


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
    if uni == 0 or duplex == 0:
        errors.append(f"{where}: Send_B {send} crossed but a rate prints 0: it needs 3 significant digits")
        return
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


def check_nothing_crosses(note, h, rows_send, first_row, fields, periodic, errors):
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
    # Along each exchanged axis that no cut divides, the pieces wrap (periodic) or lie on walls (open).
    axes = {"box": "xyz", "all": "xyz"}.get(h["directions"], h["directions"])
    uncut = [a for a in axes if h["grid"]["xyz".index(a)] == 1]
    wraps = any(periodic["xyz".index(a)] for a in uncut)
    walls = any(not periodic["xyz".index(a)] for a in uncut)
    fate = ("wrap to the same rank or lie on walls" if wraps else "lie on walls") if walls else \
        ("wrap to the one rank" if h["ranks"] == 1 else "wrap to the same rank")
    if h["ranks"] == 1:
        want = f"on grid {grid} {pieces} {fate}; run on more ranks"
        if note != want:
            errors.append(f"'# nothing crosses ranks' note: {note!r}, want {want!r}")
        return
    m = re.fullmatch(rf"on grid {re.escape(grid)} {re.escape(pieces)} {re.escape(fate)}; use (.+)", note)
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
        if first_row is not None:
            box_on, halo = first_row
            if max(f.send for f in rank_figures(box_on(grid_), grid_, halo, dirs, fields, None, periodic)) == 0:
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


def check_ranks(row, notes, figs, hosts, where, errors, nranks):
    """Slowest and Skew against the row's per-rank (or per-node) notes, and each rank's bytes against
    the grid's (figs None: which rank holds which cell is not known, the bytes are not checked)."""
    slowest = int(row["Slowest"])
    if not 0 <= slowest < nranks:
        errors.append(f"{where}: Slowest {slowest} is not a rank")
        return
    skew = None if row["Skew"] == "n/a" else float(row["Skew"])
    if skew is not None and skew < 1:
        errors.append(f"{where}: Skew {skew} is below 1: the slowest rank over the median one")
    ranks = [m for m in notes if m.re is RANK_NOTE]
    nodes = [m for m in notes if m.re is NODE_NOTE]
    if bool(ranks) == bool(nodes) or (nodes and nranks <= 64) or (ranks and nranks > 64):
        errors.append(f"{where}: {len(ranks)} per-rank and {len(nodes)} per-node notes on {nranks} ranks: "
                      "a note per rank up to 64 ranks, per node above")
        return
    if ranks:
        check_rank_notes(ranks, slowest, skew, figs, hosts, where, errors, nranks)
    else:
        check_node_notes(nodes, slowest, figs, hosts, where, errors, nranks)


def check_rank_notes(notes, slowest, skew, figs, hosts, where, errors, nranks):
    if sorted(int(m.group(2)) for m in notes) != list(range(nranks)):
        errors.append(f"{where}: the per-rank notes name ranks {[int(m.group(2)) for m in notes]}")
        return
    us = [0.0] * nranks
    for m in notes:
        r = int(m.group(2))
        us[r] = float(m.group(4))
        if hosts and m.group(3) != hosts[r]:
            errors.append(f"{where}: rank {r} on host {m.group(3)}, the header says {hosts[r]}")
        if figs is not None and int(m.group(5)) != figs[r].send:
            errors.append(f"{where}: rank {r} sends {m.group(5)} bytes, the grid gives {figs[r].send}")
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


def check_node_notes(notes, slowest, figs, hosts, where, errors, nranks):
    seen = []
    most = max(float(m.group(6)) for m in notes)
    for m in notes:
        node_ranks = expand(m.group(3))
        seen += node_ranks
        if hosts and any(hosts[r] != m.group(2) for r in node_ranks if r < len(hosts)):
            errors.append(f"{where}: node {m.group(2)} lists ranks {m.group(3)} the header places elsewhere")
        sends = [figs[r].send for r in node_ranks if r < nranks] if figs is not None else []
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
    if sorted(seen) != list(range(nranks)):
        errors.append(f"{where}: the per-node notes cover ranks {sorted(seen)}, not 0-{nranks - 1}")


def lead_of(cols):
    """The size columns the table leads with (one of LEADS), or None."""
    for lead in sorted(LEADS, key=len, reverse=True):
        if cols[:len(lead)] == lead:
            return lead
    return None


def expected_columns(cols):
    """The order the columns must come in, and whether the run's groups fit it."""
    lead = lead_of(cols)
    if lead is None:
        return False
    order = lead + SWEEP + COLUMNS + [c for g in OPTIONAL for c in g]
    pos = [order.index(c) if c in order else -1 for c in cols]
    if -1 in pos or pos != sorted(pos):
        return False
    present = set(cols)
    if not all(c in present for c in COLUMNS):
        return False
    return all(all(c in present for c in g) or not any(c in present for c in g) for g in OPTIONAL)


def dry_columns(cols):
    """A dry run's columns: N or L (Global or Local where some size is no cube), [H], [Placement], then
    DRY_COLUMNS."""
    rest = cols[1:]
    for name in ("H", "Placement"):
        if rest[:1] == [name]:
            rest = rest[1:]
    return cols[:1] in (["N"], ["L"], ["Global"], ["Local"]) and rest == DRY_COLUMNS


class Layout:
    """What the header says about the grid, the walls, the nodes and the placements."""

    def __init__(self, h, errors):
        self.h, self.grid, self.ranks, self.fields = h, h["grid"], h["ranks"], h["fields"]
        self.dirs = offsets(h["directions"])
        self.periodic = walls_of(h, errors)
        hosts = h["hosts"]
        if hosts is not None and len(hosts) != self.ranks:
            errors.append(f"the header names hosts for {len(hosts)} ranks, not {self.ranks}")
            h["hosts"] = hosts = None
        if hosts is not None and len(set(hosts)) != h["nodes"] and h["rank_node"] is None:
            errors.append(f"nodes {h['nodes']} but the header names {len(set(hosts))} hosts")
        self.hosts = hosts
        self.node_of = node_of_ranks(h, errors)
        # The (global box, halo) that placement nodes names: the row it chose its block for.
        self.maps, self.placement_row = placements_of(
            h, self.node_of, lambda glob, halo: (glob, halo, self.dirs, self.fields, self.periodic), errors)
        real = [l for l in h["placements"] if l != CART_PLANNED]
        if h["dry"] is None and (len(h["placements"]) > 1 or real != h["placements"]):
            errors.append(f"a measured run names one placement, as it ran: {h['placements']}")
        self.cache = {}

    def cells(self, placement):
        """Cell of each rank on the placement, or None where not known (cart that moved ranks)."""
        if placement == "linear":
            return list(range(self.ranks))
        return self.maps.get(placement)

    def figures(self, glob, halo, placement):
        """Each rank's figures; off-node ones only where the nodes and the placement are known."""
        key = (glob, halo, placement)
        if key not in self.cache:
            cells = self.cells(placement)
            known = cells is not None and self.node_of is not None
            self.cache[key] = (rank_figures(glob, self.grid, halo, self.dirs, self.fields,
                                            self.node_of if known else None, self.periodic,
                                            cells if cells is not None else list(range(self.ranks))), known)
        return self.cache[key]

    def used(self):
        """The placement a measured run used: its note's, else linear."""
        for name in ("nodes", "cart"):
            if name in self.maps:
                return name
        return "linear"


def row_box(row, lead, grid, local, where, errors):
    """The row's (label size, per-rank brick or None, global box) from its size columns; None where they
    are not a size."""
    forms = {"N": r"[1-9]\d*", "L": r"[1-9]\d*", "Local": r"[1-9]\d*x[1-9]\d*x[1-9]\d*",
             "Global": r"[1-9]\d*x[1-9]\d*x[1-9]\d*"}
    bad = [c for c in lead if not re.fullmatch(forms[c], row[c])]
    if bad:
        errors.append(f"{where}: {bad[0]} {row[bad[0]]} is not a {'side' if bad[0] in ('N', 'L') else 'box XxYxZ'}")
        return None
    if lead == ["N"]:
        n = int(row["N"])
        return str(n), None, (n, n, n)
    if local:
        brick = box(row[lead[0]])
        glob = tuple(b * g for b, g in zip(brick, grid))
        if row["Global"] != box_text(glob):
            errors.append(f"{where}: Global {row['Global']}, the grid gives {box_text(glob)}")
        return row[lead[0]], brick, glob
    glob = box(row["Global"])
    return row["Global"], None, glob


def check(text):
    """Returns (rows checked, list of problems)."""
    rows, errors, _ = check_table(text)
    return rows, errors


def check_table(text):
    """Returns (rows checked, list of problems, notes on what could not be checked)."""
    lines = text.splitlines()
    h = parse_header(lines)
    errors, unchecked = [], []
    if "grid" not in h or h["columns"] is None:
        return 0, ["no '# ranks ... grid ...' header line or no column line"], unchecked
    grid, ranks, fields = h["grid"], h["ranks"], h["fields"]
    if grid[0] * grid[1] * grid[2] != ranks:
        errors.append(f"grid {grid} does not multiply to {ranks} ranks")
        return 0, errors, unchecked
    if h["directions"] not in ("x", "y", "z", "all", "box"):
        return 0, [f"unknown directions {h['directions']}"], unchecked
    dry = h["dry"] is not None
    cols = h["columns"]
    if not (dry_columns(cols) if dry else expected_columns(cols)):
        errors.append(f"unexpected columns {cols}")
        return 0, errors, unchecked
    lay = Layout(h, errors)
    if "cart" in lay.maps and lay.maps["cart"] is None:
        unchecked.append("placement cart moved ranks: which rank holds which cell is MPI's, so OffNodeFaces, "
                         "OffNode_B and each rank's bytes are not checked")
    if lay.node_of is None and h["nodes"] > 1:
        unchecked.append(f"the ranks' nodes are not printed: the off-node columns are not checked")
    lead = [cols[0]] if dry else lead_of(cols)
    local = lead[0] in ("L", "Local")
    prefix = lead[0]  # notes name a row by its size column
    sweep = "H" in cols
    if sweep != (len(h["halos"]) > 1):
        errors.append(f"halo widths {h['halos']} but the column H is {'there' if sweep else 'missing'}")
    walls = not all(lay.periodic)
    if not dry and ("BoundaryFaces" in cols) != walls:
        errors.append(f"the column BoundaryFaces goes with walls (an open axis), and only with them: "
                      f"{'walls' if walls else 'no walls'} here")
    if not dry and ("OffNode_B" in cols) != (h["nodes"] > 1):
        errors.append(f"the column OffNode_B goes with more than one node, and only with it: {h['nodes']} here")
    with_min = "Send_min_B" in cols and not dry
    box_stencil = "RemoteEdges" in cols
    if not dry and box_stencil != (h["directions"] == "box"):
        errors.append("RemoteEdges and RemoteCorners go with directions box, and only with it")

    rows = 0
    uneven = False
    boxes = []         # each row's global box and brick, for the automatic grid
    hidden_notes = {}  # label -> the reason of a '# Hidden LABEL: none: ...' note awaiting its row
    rank_notes = {}    # label -> the '# per-rank' or '# per-node' notes awaiting its row
    nothing = None     # the '# nothing crosses ranks' note, without its lead
    rows_send = []     # each row's Send_B by the grid
    first_row = None
    failed = None      # (line index, the '# run failed' line's match)
    labels = {}        # label -> (global box, brick) of each row, for the '# check' lines after it
    checks = []        # '# check' lines awaiting the end: (label, cells)
    for index, line in enumerate(lines):
        m = re.match(r"# nothing crosses ranks, Send_B is 0: (.*)$", line)
        if m:
            nothing = m.group(1)
        m = re.match(rf"# Hidden ({LABEL}): none: (.*)$", line)
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
        m = re.match(rf"# check ((N|L|Global|Local)=(\d+(?:x\d+x\d+)?)(?: H=(\d+))?) passed (\d+) ghost cells", line)
        if m:
            checks.append((m.group(2), m.group(3), int(m.group(4) or h["halos"][0]), int(m.group(5)), line))
        if not line.strip() or line.startswith("#"):
            continue
        values = line.split()
        where = f"row '{line}'"
        if len(values) != len(cols):
            errors.append(f"{where}: {len(values)} fields, {len(cols)} columns")
            continue
        row = dict(zip(cols, values))
        halo = int(row["H"]) if sweep else h["halos"][0]
        if sweep and halo not in h["halos"]:
            errors.append(f"{where}: H {halo} is not one of the widths {h['halos']}")
        if dry:
            form = r"[1-9]\d*" if cols[0] in ("N", "L") else r"[1-9]\d*x[1-9]\d*x[1-9]\d*"
            if not re.fullmatch(form, row[cols[0]]):
                errors.append(f"{where}: {cols[0]} {row[cols[0]]} is not a "
                              f"{'side' if cols[0] in ('N', 'L') else 'box XxYxZ'}")
                continue
            brick = box(row[cols[0]]) if local else None
            glob = tuple(b * g for b, g in zip(brick, grid)) if local else box(row[cols[0]])
            size = size_text(brick if local else glob) if cols[0] in ("N", "L") else box_text(brick or glob)
            if row[cols[0]] != size:
                errors.append(f"{where}: the size {row[cols[0]]} is printed as {size}")
        else:
            sized = row_box(row, lead, grid, local, where, errors)
            if sized is None:
                continue
            size, brick, glob = sized
        boxes.append((glob, brick))
        label = f"{prefix}={size}" + (f" H={halo}" if sweep else "")
        labels[label] = glob
        placement = row.get("Placement", lay.used() if not dry else None)
        if dry and placement is None:
            placement = next(iter(lay.maps), "linear")
        if placement not in ("linear", "nodes", "cart"):
            errors.append(f"{where}: placement {placement} is none of linear, nodes, cart")
            continue
        if placement != "linear" and placement not in lay.maps:
            errors.append(f"{where}: placement {placement} without its note in the header")
        figs, known = lay.figures(glob, halo, placement)
        send_max = max(f.send for f in figs)
        rows_send.append(send_max)
        if first_row is None:
            first_row = ((lambda g, brick=brick, glob=glob: tuple(b * x for b, x in zip(brick, g)) if brick else glob),
                         halo)
        send_min = min(f.send for f in figs)
        uneven = uneven or send_min != send_max
        expect = {"Send_B": send_max, "RemoteFaces": max(f.remote_faces for f in figs),
                  "SelfFaces": max(f.self_faces for f in figs)}
        if known:
            expect["OffNodeFaces"] = max(f.offnode_faces for f in figs)
        if walls or dry:
            expect["BoundaryFaces"] = max(f.boundary_faces for f in figs)
        if known and "OffNode_B" in cols:
            expect["OffNode_B"] = max(f.offnode_bytes for f in figs)
        if box_stencil:
            expect["RemoteEdges"] = max(f.edges for f in figs)
            expect["RemoteCorners"] = max(f.corners for f in figs)
        if with_min or dry:
            expect["Send_min_B"] = send_min
        elif send_min != send_max:
            errors.append(f"{where}: ranks send {send_min} to {send_max} bytes but there is no Send_min_B column")
        if dry:
            check_dry_row(row, figs, known, lay, glob, halo, where, expect, errors)
        for key, value in expect.items():
            if int(row[key]) != value:
                errors.append(f"{where}: {key} {row[key]}, the grid gives {value}")
        if not dry:
            check_measured_row(row, h, label, figs, known, lay, hidden_notes, rank_notes, where, errors)
        rows += 1
    if with_min and rows and not uneven and failed is None:
        errors.append("Send_min_B column although every rank sends as much as every other")
    check_sizes(h, lead, boxes, failed, local, errors)
    check_placement_row(lay.placement_row, h["halos"], boxes, failed, errors)
    for kind, size, halo, count, line in checks:
        label = f"{kind}={size}" + (f" H={halo}" if sweep else "")
        if label not in labels:
            errors.append(f"'{line}' of no row")
            continue
        want = sum(f.ghost for f in lay.figures(labels[label], halo, lay.used())[0])
        if count != want:
            errors.append(f"check {label}: {count} ghost cells, the grid gives {want}")
    for label, note in hidden_notes.items():
        errors.append(f"a note '# Hidden {label}: none: {note}' of no row")
    for label in rank_notes:
        errors.append(f"per-rank notes of {label}, which is no row")
    if not dry:  # a dry run says nothing of it: it plans, and warns of nothing
        check_nothing_crosses(nothing, h, rows_send, first_row, fields, lay.periodic, errors)
    if failed is not None:
        index, m = failed
        if int(m.group(2)) != rows:
            errors.append(f"'# run failed' says {m.group(2)} rows, the table has {rows}")
        if not 1 <= int(m.group(1)) <= 4:
            errors.append(f"'# run failed' with exit {m.group(1)}: a failed run exits 1 to 4")
        if any(l.strip() for l in lines[index + 1:]):
            errors.append("'# run failed' is not the last line")
    return rows, errors, unchecked


def check_sizes(h, lead, boxes, failed, local, errors):
    """The lead against the rows (N or L: every row a cube; Global or Local alone: some row not, unless
    the run failed before it), and the automatic grid against the largest row's box."""
    cubes = [b[0] == b[1] == b[2] for glob, brick in boxes for b in [brick if local else glob]]
    if boxes and lead[0] in ("Global", "Local") and all(cubes) and failed is None:
        errors.append(f"the table leads with {lead[0]}, but every row is a cube: "
                      f"{'L' if local else 'N'} would name them")
    if h["grid_source"] != "auto" or not boxes:
        return
    largest = (1, 1, 1)
    if not local:
        for glob, _ in boxes:
            if glob[0] * glob[1] * glob[2] > largest[0] * largest[1] * largest[2]:
                largest = glob
    want = auto_grid(h["ranks"], largest)
    if want != h["grid"] and failed is None:
        errors.append(f"automatic grid for {h['ranks']} ranks and the box {box_text(largest)} is {want}, "
                      f"printed {h['grid']}")


def check_placement_row(named, halos, boxes, failed, errors):
    """placement nodes chooses its block for the largest row: the largest global box (the first of equals) at
    the widest halo. Where the run failed, its largest row may not be printed: not checked."""
    if named is None or not boxes or failed is not None:
        return
    largest = boxes[0][0]
    for glob, _ in boxes:
        if glob[0] * glob[1] * glob[2] > largest[0] * largest[1] * largest[2]:
            largest = glob
    if named != (largest, max(halos)):
        errors.append(f"placement nodes chose its block at {box_text(named[0])} halo {named[1]}; the largest row is "
                      f"{box_text(largest)} at halo {max(halos)}")


def check_dry_row(row, figs, known, lay, glob, halo, where, expect, errors):
    """A dry run's own columns: NodeOut_B, the least and largest brick, Rank_B and Node_B, Fits."""
    if known:
        per_node = {}
        for r, f in enumerate(figs):
            per_node[lay.node_of[r]] = per_node.get(lay.node_of[r], 0) + f.offnode_bytes
        expect["NodeOut_B"] = max(per_node.values())
        expect["OffNode_B"] = max(f.offnode_bytes for f in figs)
        expect["OffNodeFaces"] = max(f.offnode_faces for f in figs)
    bricks = [f.brick for f in figs]
    for name, pick in (("Brick_min", min), ("Brick_max", max)):
        want = box_text(tuple(pick(b[a] for b in bricks) for a in range(3)))
        if row[name] != want:
            errors.append(f"{where}: {name} {row[name]}, the grid gives {want}")
    largest = tuple(max(b[a] for b in bricks) for a in range(3))
    fields_b = 8 * lay.fields * (largest[0] + 2 * halo) * (largest[1] + 2 * halo) * (largest[2] + 2 * halo)
    if int(row["Rank_B"]) < fields_b:
        errors.append(f"{where}: Rank_B {row['Rank_B']} is less than the fields of the largest brick, {fields_b} B")
    if lay.h["backend"] == "host" and int(row["Node_B"]) < int(row["Rank_B"]):
        errors.append(f"{where}: Node_B {row['Node_B']} is less than one rank's Rank_B {row['Rank_B']}")
    if row["Fits"] not in ("yes", "no", "n/a"):
        errors.append(f"{where}: Fits {row['Fits']} is none of yes, no, n/a")


def check_measured_row(row, h, label, figs, known, lay, hidden_notes, rank_notes, where, errors):
    """A measured row's timings, notes and derived columns."""
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
        check_ranks(row, notes, figs if lay.cells(lay.used()) is not None else None, lay.hosts, where, errors,
                    len(figs))
    elif notes:
        errors.append(f"{where}: per-rank notes, but the table has no Slowest column")
    t = float(row["Time_us"])
    if row["Time_us"] != f"{t:.1f}" or row["Uni_GBps"] != rate_text(float(row["Uni_GBps"])) or \
            row["Duplex_GBps"] != rate_text(float(row["Duplex_GBps"])):
        errors.append(f"{where}: Time_us needs 1 decimal and the rates 3, more for 3 significant digits")
    check_rate(int(row["Send_B"]), t, float(row["Uni_GBps"]), float(row["Duplex_GBps"]), where, errors)
    check_optional(row, where, errors, 16 * lay.fields * max(f.owned for f in figs))


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
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces OffNode_B Slowest Skew
# per-node N=64: node a ranks 0-63 Rank_us min 10.0 median 11.0 max 12.0 (rank 5) Send_B min 4096 max 4096
# per-node N=64: node b ranks 64-127 Rank_us min 10.0 median 11.0 max 20.0 (rank 70) Send_B min 4096 max 4096 \
(slowest)
64 4096 20.1 0.204 0.408 2 0 1 2048 70 1.82
""".replace("\\\n", "")

WALLS_NOTE_Z = ("# periodic x,y; walls along z: the pieces at a wall are neither sent nor filled, their ghost cells "
                "keep their values (BoundaryFaces counts them)")

# A box of extents beside a cube on 4 ranks, walls along y and z: the automatic grid is the cube's (12^3 cells
# are more than 16x12x8's 1536), 1x2x2. 16x12x8: bricks 16x6x4, x faces self, along y and z one face remote
# (16x4 and 16x6 cells: 512 + 768 B) and one at a wall; the ghost cells of all six faces are checked,
# 4 x (2x24 + 2x64 + 2x96) = 1472. 12: bricks 12x6x6, 2 x 576 B; 4 x (2x36 + 4x72) = 1440.
EXTENTS = """# ranks 4 nodes 1 grid 1x2x2 directions all halo 1 iters 3 warmup 1
# rank_host 0:a 1:a 2:a 3:a
# grid_source auto transport datatype schedule -
# periodic x; walls along y,z: the pieces at a wall are neither sent nor filled, their ghost cells keep their \
values (BoundaryFaces counts them)
# Global Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces BoundaryFaces
# check Global=16x12x8 passed 1472 ghost cells
16x12x8 1280 20.7 0.0618 0.124 2 2 0 2
# check Global=12x12x12 passed 1440 ghost cells
12x12x12 1152 12.7 0.0907 0.181 2 2 0 2
""".replace("\\\n", "")

# 3 ranks on 1x1x3, walls along z, N = 12: bricks 12x12x4, a z face 1152 B; the middle rank sends two, the
# ranks at the walls one (Send_min_B), each with one face at a wall.
WALLS = """# ranks 3 nodes 1 grid 1x1x3 directions z halo 1 iters 3 warmup 1
# rank_host 0:a 1:a 2:a
# grid_source auto transport datatype schedule -
""" + WALLS_NOTE_Z + """
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces BoundaryFaces Send_min_B
12 2304 18.3 0.126 0.252 2 0 0 1 1152
"""

# --local with a brick that is no cube, walls on every axis, box stencil, 2 ranks on 1x1x2: each rank has one
# neighbour, across z: the one face 8x6 (384 B; 6x6: 288 B), no edge or corner remote, 5 faces at walls.
LOCAL_EXTENTS = """# ranks 2 nodes 1 grid 1x1x2 directions box halo 1 iters 3 warmup 2
# stencil box fields 1 messages aggregated method p2p
# rank_host 0:a 1:a
# grid_source auto transport datatype schedule -
# periodic none; walls along x,y,z: the pieces at a wall are neither sent nor filled, their ghost cells keep \
their values (BoundaryFaces counts them)
# Local Global Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces BoundaryFaces RemoteEdges \
RemoteCorners
# check Local=8x6x4 passed 576 ghost cells
8x6x4 8x6x8 384 1.0 0.384 0.768 1 0 0 5 0 0
6x6x6 6x6x12 288 1.0 0.288 0.576 1 0 0 5 0 0
""".replace("\\\n", "")

# 12 ranks as 3 nodes of 4 on 3x2x2 (the hand count), 12x8x8: bricks 4^3, faces 128 B, six remote
# faces each. In rank order node 1 holds cells 4-7, and rank 4 (cell 1,1,0) sends 5 faces off it: one along
# x, two along y (both to rank 1), two along z (both to rank 10): 640 B. Placement nodes: a 1x2x2 block per
# node (the only block of 4 that tiles 3x2x2), node n the x-slab n: two x faces off each rank, 256 B. MPI's
# row-major order (cart, kept) holds the same slabs.
HOSTS12 = "# rank_host " + " ".join(f"{r}:n{r // 4}" for r in range(12))
NODES_LINEAR = """# ranks 12 nodes 3 grid 3x2x2 directions all halo 1 iters 5 warmup 1
""" + HOSTS12 + """
# grid_source --grid transport datatype schedule -
# Global Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces OffNode_B
# check Global=12x8x8 passed 1152 ghost cells
12x8x8 768 10.0 0.0768 0.154 6 0 5 640
"""
NODES_NOTE12 = ("placement nodes: 3 nodes as a 3x1x1 grid, each holding a 1x2x2 block of ranks (of the blocks that "
                "tile the grid, the fewest bytes off a node at 12x8x8 halo 1: NodeOut_B 1024, OffNode_B 256; rank "
                "order 2560, 640)")
NODES = NODES_LINEAR.replace("# Global", "# " + NODES_NOTE12 + "\n# Global").replace("6 0 5 640", "6 0 2 256")
CART_TABLE = NODES.replace(NODES_NOTE12, "placement cart: MPI_Cart_create (reorder 1) kept every rank where it was")
# The same ranks and nodes at 3x2000x2000 (bricks 1x1000x1000, an x face 8 MB, a y or z face 8 kB): the one
# block that tiles, 1x2x2, sends both x faces of each rank off its node, 64 MB a node; rank order's ragged runs
# keep most x faces on their node (node 1: one x face a rank, 32 MB and the small faces): nodes falls back.
FELL_BACK_BYTES = NODES_LINEAR.replace(
    "# Global", "# placement nodes fell back to linear: at 3x2000x2000 halo 1 the best block of 4 ranks, 1x2x2, "
    "sends more off a node than rank order (NodeOut_B 64000000, OffNode_B 16000000; rank order 32128000, "
    "16016000)\n# Global").replace("# check Global=12x8x8 passed 1152 ghost cells\n12x8x8 768 10.0 0.0768 0.154 6 0 5 640",
                                    "3x2000x2000 16032000 1000.0 16.032 32.064 6 0 5 16016000")
# Where MPI moved ranks, which rank holds which cell is MPI's: the off-node figures are not checked.
CART_MOVED_TABLE = NODES_LINEAR.replace("# Global", "# placement cart: MPI_Cart_create (reorder 1) moved 4 of 12 "
                                  "ranks\n# Global").replace("6 0 5 640", "6 0 3 384")

# 8 ranks as 2 nodes of 4 on 2x2x2, N = 16: blocks 1x2x2, 2x1x2 and 2x2x1 send the same bytes off a node
# and have the same surface (8); the tie goes to the longest along z, then y: 1x2x2, node grid 2x1x1. Either
# placement sends two 512 B faces off.
HOSTS8 = "# rank_host " + " ".join(f"{r}:n{r // 4}" for r in range(8))
NODES8 = """# ranks 8 nodes 2 grid 2x2x2 directions all halo 1 iters 5 warmup 1
""" + HOSTS8 + """
# grid_source auto transport datatype schedule -
# placement nodes: 2 nodes as a 2x1x1 grid, each holding a 1x2x2 block of ranks (of the blocks that tile the \
grid, the fewest bytes off a node at 16x16x16 halo 1: NodeOut_B 4096, OffNode_B 1024; rank order 4096, 1024)
# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces OffNode_B
16 3072 10.0 0.307 0.614 6 0 2 1024
""".replace("\\\n", "")

# 4 ranks as 2 nodes of 2 on 2x2x1, 16x32x16: bricks 8x16x16, an x face 2048 B, a y face 1024 B (z wraps to the
# rank itself). Blocks 2x1x1 and 1x2x1 have the same surface in ranks (5); 2x1x1 sends the y faces off each node,
# 4096 B, 1x2x1 the x faces, twice that: nodes takes 2x1x1, as rank order holds the nodes already.
SLAB = """# ranks 4 nodes 2 grid 2x2x1 directions all halo 1 iters 5 warmup 1
# rank_host 0:n0 1:n0 2:n1 3:n1
# grid_source --grid transport datatype schedule -
# placement nodes: 2 nodes as a 1x2x1 grid, each holding a 2x1x1 block of ranks (of the blocks that tile the \
grid, the fewest bytes off a node at 16x32x16 halo 1: NodeOut_B 4096, OffNode_B 2048; rank order 4096, 2048)
# Global Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces OffNode_B
16x32x16 6144 10.0 0.614 1.229 4 2 2 2048
""".replace("\\\n", "")

# MPICH with MPIR_CVAR_NOLOCAL: one host, but every rank a node of its own for MPI; the rank_node note gives the
# nodes (without it the hosts give one node, and both z faces would not be off-node).
NOLOCAL = SEED.replace("nodes 1", "nodes 2").replace(
    "# rank_host 0:a 1:a", "# rank_host 0:a 1:a\n# rank_node 0:0 1:1 (MPI_COMM_TYPE_SHARED makes 2 nodes of the "
    "ranks, their host names 1; OffNode_B and the placements follow MPI's nodes)").replace(
    "OffNodeFaces", "OffNodeFaces OffNode_B").replace("2 0 0\n64", "2 0 2 65536\n64").replace(
    "13.992 2 0 0", "13.992 2 0 2 262144").replace("13.551 2 0 0", "13.551 2 0 2 1048576").replace(
    "4.209 2 0 0", "4.209 2 0 2 65536")

# The dry run of 12 ranks, 4 per node in blocks, on 3x2x2 with walls along z, both placements (counted as in
# NODES above, less the z face at the wall): 12x8x8 linear, rank 4 sends 4 faces off node 1 (512 B) and node 1
# sends 2048 B (512 from each of ranks 4-7); nodes, 2 x 128 B a rank, 1024 a node. 24: bricks 8x12x12, an x
# face 1152 B, y and z 768 B; Rank_B the field, 10x14x14 x 8 B.
DRY_TABLE = """# halo-bandwidth 0.1.0
# backend host device host
# ranks 12 nodes 3 grid 3x2x2 directions all halo 1 iters 50 warmup 5
# pack datatype self copy
# stencil star fields 1 messages aggregated method p2p
# gpu_aware n/a contiguous 0
# grid_source --grid transport datatype schedule -
# dry run: the plan of 12 ranks, 4 per node in blocks (as srun places them): 3 nodes: nothing launched, \
allocated or timed
# placement nodes: 3 nodes as a 3x1x1 grid, each holding a 1x2x2 block of ranks (of the blocks that tile the \
grid, the fewest bytes off a node at 24x24x24 halo 1: NodeOut_B 9216, OffNode_B 2304; rank order 13824, 3456)
""" + WALLS_NOTE_Z + """
# Rank_B: the most one rank allocates (fields, packed buffers, staging and limit buffers); Node_B: ...
# Global Placement Send_B Send_min_B RemoteFaces SelfFaces OffNodeFaces BoundaryFaces OffNode_B NodeOut_B \
Brick_min Brick_max Rank_B Node_B Fits
12x8x8 linear 640 640 5 0 4 1 512 2048 4x4x4 4x4x4 1728 6912 yes
12x8x8 nodes 640 640 5 0 2 1 256 1024 4x4x4 4x4x4 1728 6912 yes
24x24x24 linear 4608 4608 5 0 4 1 3456 13824 8x12x12 8x12x12 15680 62720 yes
24x24x24 nodes 4608 4608 5 0 2 1 2304 9216 8x12x12 8x12x12 15680 62720 no
""".replace("\\\n", "")

# A dry run under a launcher: the job's own ranks, one node; 17 on 1x2x2 splits unevenly (17x9x9 to 17x8x8):
# the y and z faces of the largest brick, 4 x 17 x 9 cells, 4896 B; of the least 4 x 17 x 8, 4352 B; its
# field (17 + 2) x (9 + 2)^2 x 8 B = 18392 B.
DRY_JOB_TABLE = """# ranks 4 nodes 1 grid 1x2x2 directions all halo 1 iters 50 warmup 5
# backend host device host
# grid_source auto transport datatype schedule -
# dry run: the plan of this job's 4 ranks on 1 nodes (MPI_Comm_split_type): nothing launched, allocated or timed
# N Send_B Send_min_B RemoteFaces SelfFaces OffNodeFaces BoundaryFaces OffNode_B NodeOut_B Brick_min Brick_max \
Rank_B Node_B Fits
17 4896 4352 4 2 0 0 0 0 17x8x8 17x9x9 18392 67032 n/a
""".replace("\\\n", "")

FAILED = SEED + "# run failed (exit 4) after 3 rows: timeout on rank 0 after 2 s in MPI_Waitall: N=512 warm-up\n"


def self_test():
    rows, errors = check(SEED)
    assert rows == 3 and not errors, errors
    rows, errors = check(BOX)
    assert rows == 2 and not errors, errors
    good = ((OVERLAP, 2), (NOTHING, 1), (FAILED, 3), (PER_RANK, 1), (PER_NODE, 1), (EXTENTS, 2), (WALLS, 1),
            (LOCAL_EXTENTS, 2), (NODES_LINEAR, 1), (NODES, 1), (CART_TABLE, 1), (CART_MOVED_TABLE, 1), (NODES8, 1), (FELL_BACK_BYTES, 1), (SLAB, 1),
            (DRY_TABLE, 4),
            (DRY_JOB_TABLE, 1), (NOLOCAL, 3))
    for table, n in good:
        rows, errors = check(table)
        assert rows == n and not errors, (table, errors)
    _, _, unchecked = check_table(CART_MOVED_TABLE)
    assert any("placement cart moved ranks" in u for u in unchecked), unchecked
    _, _, unchecked = check_table(CART_TABLE)
    assert not unchecked, unchecked
    assert run_failed(FAILED) == (4, "timeout on rank 0 after 2 s in MPI_Waitall: N=512 warm-up")
    assert run_failed(SEED) is None
    bad = {
        "Send_B": SEED.replace("64 65536 31.1", "64 65537 31.1"),
        "Uni_GBps": SEED.replace("2.104 4.209", "2.204 4.409"),
        "Duplex_GBps": SEED.replace("2.104 4.209", "2.104 4.309"),
        "SelfFaces": SEED.replace("13.992 2 0 0", "13.992 2 1 0"),
        "OffNodeFaces": SEED.replace("# rank_host 0:a 1:a", "# rank_host 0:a 1:b").replace("nodes 1", "nodes 2"),
        "automatic grid": SEED.replace("1x1x2", "2x1x1"),
        "the rank_node note gives 1 nodes": NOLOCAL.replace("rank_node 0:0 1:1", "rank_node 0:0 1:0"),
        "the rank_node note counts 2 nodes and 2 host names": NOLOCAL.replace("their host names 1",
                                                                             "their host names 2"),
        "the rank_node note counts 1 nodes": NOLOCAL.replace("rank_node 0:0 1:1", "rank_node 0:0 1:0").replace(
            "makes 2 nodes", "makes 1 nodes"),
        "1 decimal": SEED.replace("31.1 2.104", "31.10 2.104"),
        "3 significant digits": SEED.replace("256 1048576 154.8 6.775 13.551", "256 1048576 15480000.0 0.000 0.000"),
    }
    # A slow row's rates with 3 significant digits pass.
    slow = SEED.replace("256 1048576 154.8 6.775 13.551", "256 1048576 15480000.0 0.0000677 0.000135")
    rows, errors = check(slow)
    assert rows == 3 and not errors, errors
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
    # Boxes of extents, walls, nodes and placements, the dry run: each rule with a table that breaks it.
    lead = "# periodic x; walls along y,z"
    bad_shapes = {
        "BoundaryFaces 1, the grid gives 2": EXTENTS.replace("0.124 2 2 0 2", "0.124 2 2 0 1"),
        "Send_B 1281, the grid gives 1280": EXTENTS.replace("1280 20.7 0.0618 0.124", "1281 20.7 0.0618 0.124"),
        "check Global=16x12x8: 1471 ghost cells, the grid gives 1472": EXTENTS.replace("passed 1472", "passed 1471"),
        "'# check Global=16x12x9 passed 1472 ghost cells' of no row": EXTENTS.replace("Global=16x12x8 passed",
                                                                                 "Global=16x12x9 passed"),
        "the column BoundaryFaces goes with walls": EXTENTS.replace(lead, "# x"),
        "each of x, y, z once, in order": EXTENTS.replace("walls along y,z", "walls along z,y"),
        "automatic grid for 4 ranks and the box 16x12x8 is (2, 2, 1)": "\n".join(
            l for l in EXTENTS.splitlines() if not l.startswith(("12x12x12", "# check Global=12x12x12 "))) + "\n",
        "every row is a cube": EXTENTS.replace("16x12x8 1280", "12x12x12 1152"),
        "SelfFaces 0, the grid gives 2": EXTENTS.replace("0.124 2 2 0 2", "0.124 2 0 0 2"),
        "Send_min_B 1153, the grid gives 1152": WALLS.replace("1 1152", "1 1153"),
        "no Send_min_B column": WALLS.replace(" Send_min_B", "").replace(" 1 1152", " 1"),
        "Global 8x6x9, the grid gives 8x6x8": LOCAL_EXTENTS.replace("8x6x4 8x6x8", "8x6x4 8x6x9"),
        "RemoteEdges 1, the grid gives 0": LOCAL_EXTENTS.replace("1 0 0 5 0 0\n6x6x6", "1 0 0 5 1 0\n6x6x6"),
        "check Local=8x6x4: 575 ghost cells": LOCAL_EXTENTS.replace("passed 576", "passed 575"),
        "OffNodeFaces 4, the grid gives 5": NODES_LINEAR.replace("6 0 5 640", "6 0 4 640"),
        "OffNode_B 512, the grid gives 640": NODES_LINEAR.replace("6 0 5 640", "6 0 5 512"),
        "OffNode_B 640, the grid gives 256": NODES.replace("6 0 2 256", "6 0 2 640"),
        "the column OffNode_B goes with more than one node": NODES_LINEAR.replace(" OffNode_B", "").replace(
            " 640\n", "\n"),
        "nodes 3 but the header names 2 hosts": NODES_LINEAR.replace(":n2", ":n1"),
        "a block of them tiles the grid": NODES_LINEAR.replace(
            "# Global", "# placement nodes fell back to linear: the nodes hold different numbers of ranks (4 and 2)"
            "\n# Global"),
        "the block that sends the fewest bytes off a node is 1x2x2": NODES8.replace("2x1x1 grid, each holding a 1x2x2",
                                                              "1x1x2 grid, each holding a 2x2x1"),
        "the row's bytes here are 'at 12x8x8 halo 1: NodeOut_B 1024": NODES.replace("NodeOut_B 1024", "NodeOut_B 1000"),
        "the largest row is 12x8x8 at halo 1": NODES.replace("at 12x8x8 halo 1", "at 6x8x8 halo 1"),
        "sending no more off a node than rank order": NODES_LINEAR.replace(
            "# Global", "# placement nodes fell back to linear: at 12x8x8 halo 1 the best block of 4 ranks, 1x2x2, "
            "sends more off a node than rank order (NodeOut_B 1024, OffNode_B 256; rank order 2560, 640)\n# Global"),
        "the nodes say: at 3x2000x2000 halo 1 the best block": FELL_BACK_BYTES.replace("32128000", "32128001"),
        "the block that sends the fewest bytes off a node is 2x1x1": SLAB.replace(
            "1x2x1 grid, each holding a 2x1x1", "2x1x1 grid, each holding a 1x2x1").replace(
            "NodeOut_B 4096, OffNode_B 2048;", "NodeOut_B 8192, OffNode_B 4096;").replace("2 2 2048", "2 2 4096"),
        "do not tile grid": NODES8.replace("2x1x1 grid, each holding a 1x2x2", "2x1x1 grid, each holding a 2x2x1"),
        "OffNode_B 640, the grid gives 256": CART_TABLE.replace("6 0 2 256", "6 0 2 640"),
        "a measured run names one placement": NODES.replace("# Global", CART_TABLE.splitlines()[3] + "\n# Global"),
        "NodeOut_B 2047, the grid gives 2048": DRY_TABLE.replace("512 2048", "512 2047"),
        "Brick_max 8x12x13, the grid gives 8x12x12": DRY_TABLE.replace("8x12x12 15680 62720 yes",
                                                                      "8x12x13 15680 62720 yes"),
        "Rank_B 1727 is less than the fields": DRY_TABLE.replace("4x4x4 1728 6912 yes\n12x8x8 nodes",
                                                           "4x4x4 1727 6912 yes\n12x8x8 nodes"),
        "Fits maybe": DRY_TABLE.replace("62720 no", "62720 maybe"),
        "N 12x8x8 is not a side": DRY_TABLE.replace("# Global Placement", "# N Placement"),
        "Global 24 is not a box XxYxZ": DRY_TABLE.replace("24x24x24 linear", "24 linear"),
        "L n/a is not a side": LOCAL_EXTENTS.replace("# Local Global", "# L Global").replace("8x6x4 8x6x8",
                                                                                          "n/a 8x6x8"),
        "Global 16x12 is not a box XxYxZ": EXTENTS.replace("16x12x8 1280", "16x12 1280"),
        "placement nodes without its note": DRY_TABLE.replace(DRY_TABLE.splitlines()[8] + "\n", ""),
        "OffNodeFaces 2, the grid gives 4": DRY_TABLE.replace("5 0 4 1 512", "5 0 2 1 512"),
        "Send_min_B 4896, the grid gives 4352": DRY_JOB_TABLE.replace("4896 4352", "4896 4896"),
        "Brick_min 17x9x9, the grid gives 17x8x8": DRY_JOB_TABLE.replace("17x8x8 17x9x9", "17x9x9 17x9x9"),
        "the dry run plans 4 ranks on 2 nodes": DRY_JOB_TABLE.replace("on 1 nodes", "on 2 nodes"),
        "make 3 nodes: the dry run says 2": DRY_TABLE.replace("in blocks (as srun places them): 3 nodes",
                                                        "in blocks (as srun places them): 2 nodes"),
    }
    for what, text in list(bad_v3.items()) + list(bad_shapes.items()):
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
    print(f"check_table self-test: {2 + len(good)} good tables passed, "
          f"{len(bad) + len(bad_box) + len(bad_v3) + len(bad_shapes) + 2} broken tables caught")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    text = open(argv[1]).read() if len(argv) > 1 else sys.stdin.read()
    rows, errors, unchecked = check_table(text)
    for e in errors:
        print(f"check_table: {e}", file=sys.stderr)
    if rows == 0 and not errors:
        print("check_table: no rows", file=sys.stderr)
        return 1
    if not errors:
        failed = run_failed(text)
        tail = f"; the run failed (exit {failed[0]}) after them: {failed[1]}" if failed else ""
        tail += "".join(f"; {u}" for u in unchecked)
        print(f"check_table: {rows} rows agree with the printed grid{tail}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
