#!/usr/bin/env python3
"""cmake --install into a fresh prefix, then the installed tree alone, from another folder:

  - the layout: the binary, the halobw-* tools on PATH, the reader beside them,
    the schema, the platforms, the ReFrame test and the docs;
  - halo-bandwidth --version names the version, the commit, Kokkos with its
    backends, and the MPI library;
  - the installed binary on 2 ranks (--check, JSON), its table through the
    installed halobw-check-table, its file through the installed
    halobw-compare and halobw-plot;
  - the installed tools find the installed schema and platforms (not the
    checkout's), and the result file validates against that schema.

usage: install_cases.py --build DIR --cmake CMAKE --mpiexec MPIEXEC --system-python PY
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

TIMEOUT = 120


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def expect(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
    print(f"ok: {what.splitlines()[0]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--system-python", required=True, help="a python3 with matplotlib and jsonschema")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="halobw-install-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        run([a.cmake, "--install", a.build, "--prefix", prefix])
        bindir, tools = os.path.join(prefix, "bin"), os.path.join(prefix, "libexec", "halo-bandwidth")
        data, doc = os.path.join(prefix, "share", "halo-bandwidth"), os.path.join(prefix, "share", "doc", "halo-bandwidth")
        for path in [os.path.join(bindir, "halo-bandwidth"), os.path.join(tools, "halobw_results.py"),
                     os.path.join(data, "output.schema.json"), os.path.join(data, "platforms", "this-machine.xml"),
                     os.path.join(data, "reframe", "halo_bandwidth.py"), os.path.join(doc, "output.md"),
                     os.path.join(doc, "centres.md"), os.path.join(doc, "README.md")]:
            expect(os.path.isfile(path), f"installed {os.path.relpath(path, prefix)}")
        for name in ["compare", "plot", "simulate", "check-table"]:
            link = os.path.join(bindir, "halobw-" + name)
            expect(os.access(link, os.X_OK) and os.path.islink(link), f"bin/halobw-{name} runs a tool in {tools}")

        # Nothing from the checkout or its build: PATH has the prefix first, the work folder is elsewhere.
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
        work = os.path.join(tmp, "work")
        os.mkdir(work)

        version = run(["halo-bandwidth", "--version"], env=env, cwd=work)
        first, _, rest = version.partition("\n")
        expect(first.startswith("halo-bandwidth ") and "(commit " in first and "Kokkos " in first,
               f"--version names the version, the commit and Kokkos:\n{version}")
        expect(any(b in first for b in ("Serial", "OpenMP", "Threads", "Cuda", "HIP")),
               f"--version names Kokkos's backends:\n{version}")
        expect(rest.startswith("MPI library: ") and len(rest.strip()) > len("MPI library: "),
               f"--version names the MPI library:\n{version}")

        out = os.path.join(work, "z.json")
        table = run([a.mpiexec, "-n", "2", "halo-bandwidth", "--axis", "z", "--sizes", "16,32",
                     "--iters", "5", "--warmup", "1", "--check", "--format", "json", "--output", out],
                    env=env, cwd=work)
        expect(table.count("# check N=") == 2 and "failed" not in table, "2 ranks, both rows checked")
        checked = subprocess.run(["halobw-check-table"], input=table, capture_output=True, text=True, env=env,
                                 timeout=TIMEOUT)
        expect(checked.returncode == 0, f"halobw-check-table passes the installed binary's table:\n"
               f"{checked.stdout}{checked.stderr}")

        compared = run(["halobw-compare", out, out], env=env, cwd=work)
        rows = [line.split() for line in compared.splitlines() if line.strip() and not line.startswith("#")]
        expect([r[0] for r in rows] == ["16", "32"] and all(r[-1] == "x1.00" for r in rows),
               f"halobw-compare: a row per size, the file against itself at ratio 1.00:\n{compared}")
        png = os.path.join(work, "z.png")
        run(["halobw-plot", "-o", png, out], env=env, cwd=work)
        with open(png, "rb") as f:
            expect(f.read(8) == b"\x89PNG\r\n\x1a\n", "halobw-plot wrote a PNG")

        # The installed reader's paths, and the file against the installed schema.
        probe = ("import json, sys; sys.path.insert(0, sys.argv[1]); import halobw_paths as p; "
                 "import jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(p.SCHEMA))); "
                 "print(json.dumps([p.INSTALLED, p.SCHEMA, p.PLATFORMS, p.DOCS, p.EXE_DIR]))")
        installed, schema, platforms, docs, exe_dir = json.loads(
            run([a.system_python, "-c", probe, tools, out], cwd=work))
        expect(installed and schema == os.path.join(data, "output.schema.json")
               and platforms == os.path.join(data, "platforms") and docs == doc and exe_dir == bindir,
               f"the installed tools find the installed schema, platforms, docs and binary: {schema} {exe_dir}")
        expect(json.load(open(out))["status"]["state"] == "complete",
               "the result file validates against the installed schema, status complete")
        # --dry prints smpirun's command without SimGrid: the platform by its bare name, the program by default.
        dry = run(["halobw-simulate", "--platform", "this-machine.xml", "-n", "2", "--dry", "--", "--faces"],
                  env=env, cwd=work)
        expect(os.path.join(data, "platforms", "this-machine.xml") in dry and os.path.join(bindir, "halo-bandwidth") in dry,
               f"halobw-simulate takes the installed platforms and binary:\n{dry}")
    print("install: all passed")


if __name__ == "__main__":
    main()
