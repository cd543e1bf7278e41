#!/usr/bin/env python3
"""The column table (include/halobw/report/columns.hpp) and the settings table
(src/report/run_settings.cpp) are the one place the columns are written. This test holds
every other reader against them: the JSON schema, scripts/halobw_results.py
(compare, plot), scripts/check_table.py and docs/output.md.

usage: test_registry.py --columns-exe BUILD/halobw-columns --scripts-dir scripts
                        --schema docs/output.schema.json --docs docs/output.md
"""
import argparse
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--columns-exe", required=True)
    ap.add_argument("--scripts-dir", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--docs", required=True)
    args = ap.parse_args()
    reg = json.loads(subprocess.run([args.columns_exe], capture_output=True, text=True, check=True).stdout)
    cols = reg["columns"]
    names = [c["name"] for c in cols]
    failures = []

    def check(what, ok, detail=""):
        print(("ok    " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"))
        if not ok:
            failures.append(what)

    # The schema: one row property per column, the right types, the right required set.
    schema = json.load(open(args.schema))
    row = schema["$defs"]["row"]
    # Besides the columns, a row may carry lists that are no column (--per-rank's ranks), after them.
    lists = [p for p in row["properties"] if p not in names]
    check("schema row properties are the columns, then the row's lists",
          list(row["properties"]) == names + lists and lists == ["ranks"], f"{list(row['properties'])} vs {names}")
    always = [c["name"] for c in cols if c["group"] in ("standard", "send_min")]
    in_every_row = [c["name"] for c in cols if c["group"] == "standard" or c["always_in_files"]]
    check("schema requires the columns every row has", sorted(row["required"]) == sorted(always),
          f"{row['required']} vs {always}")
    defs = schema["$defs"]
    for c in cols:
        prop = row["properties"].get(c["name"], {})
        text = json.dumps(prop)
        if c["integer"]:
            ok = "count" in text or '"integer"' in text
        elif c["decimals"] == -2:
            ok = '"string"' in text
        else:
            ok = "time" in text or "rate" in text or '"number"' in text
        check(f"schema type of {c['name']}", ok, text)
        check(f"schema allows null in {c['name']} exactly when n/a is allowed",
              ('"null"' in text) == c["na_allowed"], text)
    run = schema["properties"]["run"]["properties"]
    for s in reg["settings"]:
        if s["json_run"]:
            check(f"schema run has setting {s['name']}", s["name"] in run)
            prop = json.dumps(run.get(s["name"], {}))
            if s["type"] == "number":
                check(f"schema type of setting {s['name']} is a number", '"number"' in prop, prop)
            elif s["type"] == "integer":
                ok = '"integer"' in prop or ('"enum"' in prop and all(
                    isinstance(v, int) for v in run.get(s["name"], {}).get("enum", ["x"])))
                check(f"schema type of setting {s['name']} is whole", ok, prop)
            elif s["type"] == "integer or auto":
                check(f"schema type of setting {s['name']} is whole or auto",
                      '"integer"' in prop and '{"const": "auto"}' in prop, prop)

    # scripts/halobw_results.py (read by compare and plot).
    sys.path.insert(0, os.path.abspath(args.scripts_dir))
    import halobw_results as hr
    check("halobw_results.SETTINGS are the CSV settings",
          list(hr.SETTINGS) == [s["name"] for s in reg["settings"] if s["csv"]], hr.SETTINGS)
    check("halobw_results.COLUMNS are the columns in file order", list(hr.COLUMNS) == names, hr.COLUMNS)
    for s in reg["settings"]:
        if s["type"] == "integer":
            check(f"halobw_results: setting {s['name']} is whole", s["name"] in hr.INT_FIELDS)
        elif s["type"] == "integer or auto":
            check(f"halobw_results: setting {s['name']} is whole, or auto",
                  s["name"] in hr.INT_FIELDS and hr.AUTO == "auto")
        elif s["type"] == "number":
            check(f"halobw_results: setting {s['name']} is a number with its CSV decimals",
                  s["name"] not in hr.INT_FIELDS and isinstance(hr.DECIMALS.get(s["name"]), int)
                  and hr.DECIMALS[s["name"]] >= 0, hr.DECIMALS.get(s["name"]))
    check("halobw_results.V3_SETTINGS (None in older runs) and V3_DEFAULTS (one value in older runs) are the "
          "settings version 2 did not have",
          set(hr.V3_SETTINGS) == {"oversubscribed", "ranks_per_core", "min_time", "per_rank"}
          and set(hr.V3_DEFAULTS) == {"periodic", "placement", "node_grid"}
          and not set(hr.V3_SETTINGS) & set(hr.V3_DEFAULTS)
          and set(hr.V3_SETTINGS) | set(hr.V3_DEFAULTS) == set(hr.SETTINGS) - set(hr.V2_SETTINGS),
          f"{hr.V3_SETTINGS} {hr.V3_DEFAULTS}")
    check("halobw_results.V3_DEFAULTS: every axis periodic, ranks in order, no node grid (as every older run was)",
          hr.V3_DEFAULTS == {"periodic": "xyz", "placement": "linear", "node_grid": "-"}, hr.V3_DEFAULTS)
    check("halobw_results.V3_ROW_COLUMNS are the columns in every file row beyond the standard ones",
          sorted(hr.V3_ROW_COLUMNS) == sorted(c["name"] for c in cols if c["always_in_files"] and c["group"] not in
                                              ("standard", "send_min", "global_box", "sweep")), hr.V3_ROW_COLUMNS)
    check("halobw_results.SIZES are the size columns of the groups cube, local and local_extents, in order",
          list(hr.SIZES) == [c["name"] for c in cols if c["group"] in ("cube", "local", "local_extents")], hr.SIZES)
    check("halobw_results.BOX_COLUMNS are the text columns that name a box",
          sorted(hr.BOX_COLUMNS) == sorted(c["name"] for c in cols if c["group"] in ("local_extents", "global_box")),
          hr.BOX_COLUMNS)
    check("halobw_results.CSV_COLUMNS: the settings, the columns, the provenance, then the status",
          list(hr.CSV_COLUMNS) == [s["name"] for s in reg["settings"] if s["csv"]] + names + list(hr.PROVENANCE)
          + ["status", "exit_code", "reason", "warnings"], hr.CSV_COLUMNS)
    check("halobw_results.MEASURES and OPTIONAL split the columns",
          sorted(list(hr.MEASURES) + list(hr.OPTIONAL)) == sorted(names) and not set(hr.MEASURES) & set(hr.OPTIONAL),
          f"{hr.MEASURES} {hr.OPTIONAL}")
    check("halobw_results.MEASURES are the standard and Send_min_B columns", list(hr.MEASURES) == always, hr.MEASURES)
    for n in in_every_row:
        check(f"the schema or the reader has {n} in every row", n in row["required"] or n in hr.MEASURES or
              n in getattr(hr, "ROW_IDS", ()) or n in getattr(hr, "SIZES", ()) or json.dumps(schema).count(f'"{n}"') > 1)
    check("halobw_results.NA_FIELDS", sorted(hr.NA_FIELDS) == sorted(c["name"] for c in cols if c["na_allowed"]),
          hr.NA_FIELDS)
    for c in cols:
        if c["integer"]:
            check(f"halobw_results: {c['name']} is whole", c["name"] in hr.INT_FIELDS)
        else:
            check(f"halobw_results: {c['name']} has {c['decimals']} decimals",
                  hr.DECIMALS.get(c["name"]) == c["decimals"], hr.DECIMALS.get(c["name"]))

    # scripts/check_table.py: the table's column order and groups.
    import check_table as ct
    table = reg["table_order"]
    groups = {}
    for c in cols:
        groups.setdefault(c["group"], []).append(c["name"])
    check("check_table.COLUMNS are the standard columns, in order", ct.COLUMNS == groups["standard"], ct.COLUMNS)
    sizes = ("cube", "local", "local_extents", "global_box")
    check("check_table's size columns are the registry's",
          all(ct.SIZE[g] == groups[g] for g in sizes) and ct.SWEEP == groups["sweep"], f"{ct.SIZE} {ct.SWEEP}")
    in_table = [c["name"] for c in cols if c["in_table"]]
    flat = [n for g in sizes for n in ct.SIZE[g]] + ct.SWEEP + ct.COLUMNS + [n for g in ct.OPTIONAL for n in g]
    check("check_table's columns are the registry's table columns, in order", flat == in_table,
          f"{flat} vs {in_table}")
    shown = {}
    for c in cols:
        if c["in_table"] and c["group"] not in sizes + ("standard", "sweep"):
            shown.setdefault(c["group"], []).append(c["name"])
    check("check_table's optional groups are the registry's groups the table shows",
          sorted(ct.OPTIONAL) == sorted(shown.values()), f"{ct.OPTIONAL} vs {shown}")
    check("check_table's leads are the size columns a table starts with (N; Global; L Global; Local Global)",
          ct.LEADS == [groups["cube"], groups["global_box"], groups["local"] + groups["global_box"],
                       groups["local_extents"] + groups["global_box"]], ct.LEADS)
    check("the registry's table of every group is in check_table's order",
          [n for n in flat if n in table] == table, f"{flat} vs {table}")

    # docs/output.md names and defines every column and setting.
    docs = open(args.docs).read()
    for n in names + [s["name"] for s in reg["settings"]]:
        check(f"docs/output.md defines {n}", f"| `{n}` |" in docs)

    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
