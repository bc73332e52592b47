#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
tests/tools/depcheck.py - the dependency rules of the tree (`make check-deps`).

Three levels, over every .c/.h of model/ lib/ analyze/ collect/ reports/ and
ucval.[ch]:

  folder  every quoted #include must follow ALLOWED below (the rules of the
          tree: a lower layer never includes a higher one). analyze/read/dat/
          counts as analyze/read; ucval.c and ucval.h are the folder "top".
  file    a module is x.c + x.h of one folder (a lone x.h or x.c is a module
          of its own); no module may reach itself through includes.
  call    the library's objects, built without LTO (nm lists no symbols of an
          LTO object), give a call graph of modules from their defined and
          undefined symbols; no module may reach itself through calls either
          (two modules that call each other through one shared header).

Every strongly connected component of more than one module is printed with
its members and one cycle through them. The last line sums it all up; the
exit status is 1 when anything is wrong, else 0.

Usage:
  depcheck.py [--objdir DIR]                    the check (objects: see below)
  depcheck.py --spdx                            every tracked source has its SPDX line
  depcheck.py --self-test                       the checker on small fake trees

--objdir DIR reads the objects DIR/<path>.o (`make check-deps` builds them in
build/deps/). Without it, `make deps-objs` is run first to build them.

"""

import argparse
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

SRC_DIRS = ["model", "lib", "analyze", "collect", "reports"]
TOP_FILES = ["ucval.c", "ucval.h"]

_BASE = ["lib", "model"]
_READ = ["analyze/read"] + _BASE
_REPLAY = ["analyze/replay"] + _READ
_CHECKS = ["analyze/checks"] + _REPLAY
_STORE = ["analyze/store"] + _CHECKS
_COLLECT = ["collect"] + _READ

# Folder -> the folders its files may include (besides its own).
ALLOWED = {
    "model": [],
    "lib": ["model"],
    "analyze/read": _BASE,
    "analyze/replay": _READ,
    "analyze/checks": _REPLAY,
    "analyze/store": _CHECKS,
    "analyze": _STORE,
    "collect": _READ,
    "collect/synth": _COLLECT,
    # the database only: what the store's headers include comes through them
    "reports": ["analyze/store"] + _BASE,
    "top": ["analyze", "analyze/store", "analyze/checks", "analyze/replay", "analyze/read",
            "collect", "collect/synth", "reports", "lib", "model"],
}

# (including file, included file) glob pairs allowed whatever the folders:
# the subcommands include the command table's header.
ALLOWED_FILES = [
    ("*/cmd_*.c", "ucval.h"),
]

# Folders that count as another folder's node.
FOLDER_ALIAS = {
    "analyze/read/dat": "analyze/read",
    "collect/bpf": "collect",      # the BPF program collect/probes.c loads
    "": "top",
}

SPDX = "SPDX-License-Identifier: MIT"
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


# --- the tree --------------------------------------------------------------

def source_files(root):
    """Paths (relative to root, '/'-separated) of every .c/.h checked."""
    files = [f for f in TOP_FILES if os.path.isfile(os.path.join(root, f))]
    for d in SRC_DIRS:
        for dirpath, dirnames, names in os.walk(os.path.join(root, d)):
            dirnames.sort()
            rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
            files += [rel + "/" + n for n in sorted(names) if n.endswith((".c", ".h"))]
    return sorted(files)


def folder_of(path):
    d = os.path.dirname(path)
    return FOLDER_ALIAS.get(d, d)


def module_of(path):
    """x.c and x.h of one folder are the module x."""
    return path[:-2] if path.endswith((".c", ".h")) else path


def resolve(root, path, name, known):
    """The file a quoted include names: next to the file, then from root (-I.)."""
    here = os.path.normpath(os.path.join(os.path.dirname(path), name)).replace(os.sep, "/")
    if here in known:
        return here
    top = os.path.normpath(name).replace(os.sep, "/")
    return top if top in known else None


def include_graph(root, files):
    """{file: [included file, ...]} over files (includes outside them dropped)."""
    known = set(files)
    graph = {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fp:
            names = INCLUDE_RE.findall(fp.read())
        graph[f] = [r for r in (resolve(root, f, n, known) for n in names) if r]
    return graph


# --- folder level ----------------------------------------------------------

def is_file_allowed(src, dst):
    return any(fnmatch.fnmatch(src, a) and fnmatch.fnmatch(dst, b) for a, b in ALLOWED_FILES)


def folder_violations(graph):
    out = []
    for src in sorted(graph):
        a = folder_of(src)
        for dst in graph[src]:
            b = folder_of(dst)
            if a == b or b in ALLOWED.get(a, []) or is_file_allowed(src, dst):
                continue
            out.append("%s: includes %s (folder %s may not depend on %s)" % (src, dst, a, b))
    return out


# --- cycles ----------------------------------------------------------------

def sccs(nodes, edges):
    """Strongly connected components (Tarjan, iterative) of {node: {node: why}}."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def cycle_in(comp, edges):
    """A shortest cycle from the first member back to it, inside comp."""
    members, start = set(comp), comp[0]
    prev, queue = {start: None}, [start]
    for v in queue:
        for w in sorted(edges.get(v, {})):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]


def cycles(kind, edges):
    """[(first line, detail lines)] of every component of more than one module."""
    nodes = set(edges) | {w for e in edges.values() for w in e}
    out = []
    for comp in sccs(nodes, edges):
        if len(comp) < 2:
            continue
        path = cycle_in(comp, edges)
        detail = ["  %s -> %s (%s)" % (a, b, edges[a][b]) for a, b in zip(path, path[1:])]
        out.append(("%s cycle: %s" % (kind, " ".join(comp)), detail))
    return sorted(out)


def include_edges(graph):
    """{module: {module: 'file includes file'}}, one example per pair."""
    edges = {}
    for src in sorted(graph):
        m = module_of(src)
        edges.setdefault(m, {})
        for dst in graph[src]:
            if module_of(dst) != m:
                edges[m].setdefault(module_of(dst), "%s includes %s" % (src, dst))
    return edges


# --- call level ------------------------------------------------------------

def library_sources(files):
    """The .c files of the library: no subcommand, no main(), no BPF program
    (clang -target bpf: no host object, and it calls nothing of ours)."""
    return [f for f in files if f.endswith(".c") and folder_of(f) != "top"
            and not os.path.basename(f).startswith("cmd_") and not f.endswith(".bpf.c")]


def nm_symbols(obj):
    """({defined global: 'calls' or 'uses'}, {undefined}) of one object."""
    res = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True)
    defined, undefined = {}, set()
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper():
            defined[name] = "calls" if kind in "TW" else "uses"
    return defined, undefined


def call_edges(sources, objdir):
    """{module: {module: 'file calls function'}} from the objects of sources."""
    syms, owner = {}, {}
    for src in sources:
        obj = os.path.join(objdir, src[:-2] + ".o")
        if not os.path.isfile(obj):
            sys.exit("depcheck: %s missing (make deps-objs builds it)" % obj)
        syms[src] = nm_symbols(obj)
        for s, verb in syms[src][0].items():
            owner.setdefault(s, (module_of(src), verb))
    edges = {}
    for src in sources:
        m = module_of(src)
        edges.setdefault(m, {})
        for s in sorted(syms[src][1]):
            to, verb = owner.get(s, (None, None))
            if to and to != m:
                edges[m].setdefault(to, "%s %s %s" % (src, verb, s))
    return edges


def compile_objects(root, sources, objdir, cflags):
    for src in sources:
        obj = os.path.join(objdir, src[:-2] + ".o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        subprocess.run([os.environ.get("CC", "cc"), "-std=gnu11", "-O0", "-w"] + cflags
                       + ["-I", root, "-c", "-o", obj, os.path.join(root, src)], check=True)


# --- the whole check -------------------------------------------------------

def problems(root, objdir):
    """(files, modules, folders, [(first line, detail lines)])."""
    files = source_files(root)
    graph = include_graph(root, files)
    found = [(v, []) for v in folder_violations(graph)]
    found += cycles("include", include_edges(graph))
    found += cycles("call", call_edges(library_sources(files), objdir))
    modules = {module_of(f) for f in files}
    folders = {folder_of(f) for f in files}
    return len(files), len(modules), len(folders), found


def plural(n, what):
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


def report(root, objdir, out=sys.stdout):
    """Print the problems and the summary; 1 when there is one, else 0."""
    nr_files, nr_modules, nr_folders, found = problems(root, objdir)
    for line, detail in found:
        print(line, file=out)
        for d in detail:
            print(d, file=out)
    nr_viol = sum(1 for p in found if " cycle: " not in p[0])
    nr_cyc = len(found) - nr_viol
    what = "%s, %s" % ("no cycles" if not nr_cyc else plural(nr_cyc, "cycle"),
                       "no layering violations" if not nr_viol
                       else plural(nr_viol, "layering violation"))
    print("deps: %d files, %d modules, %d folders: %s" % (nr_files, nr_modules, nr_folders,
                                                          what), file=out)
    return 1 if found else 0


# --- SPDX ------------------------------------------------------------------

def is_spdx_source(path, root):
    name = os.path.basename(path)
    if name == "Makefile" or name.endswith((".c", ".h", ".sh", ".py")):
        return True
    if path.startswith("tests/kernel/") and "/" not in path[len("tests/kernel/"):]:
        with open(os.path.join(root, path), "rb") as fp:
            return fp.read(2) == b"#!"
    return False


def tracked_files(root):
    res = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if res.returncode == 0:
        return res.stdout.splitlines()
    out = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
        out += [os.path.relpath(os.path.join(dirpath, n), root) for n in names]
    return out


def spdx_missing(root, files):
    """Sources whose first line (second after a shebang) lacks the SPDX tag."""
    out = []
    for f in sorted(files):
        if not os.path.isfile(os.path.join(root, f)) or not is_spdx_source(f, root):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fp:
            lines = [fp.readline(), fp.readline()]
        first = lines[1] if lines[0].startswith("#!") else lines[0]
        if SPDX not in first:
            out.append(f)
    return out


def spdx_check(root, out=sys.stdout):
    files = [f for f in tracked_files(root) if is_spdx_source(f, root)
             if os.path.isfile(os.path.join(root, f))]
    missing = spdx_missing(root, files)
    for f in missing:
        print("%s: no '%s' line first (after a shebang)" % (f, SPDX), file=out)
    print("spdx: %d source files, %s" % (len(files), "%d without the tag" % len(missing)
                                         if missing else "all tagged"), file=out)
    return 1 if missing else 0


# --- self-test -------------------------------------------------------------

def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fp:
            fp.write(text)


def run_tree(files):
    """(exit status, output lines) of the check on a fake tree."""
    import io
    with tempfile.TemporaryDirectory(prefix="depcheck-") as tmp:
        write_tree(tmp, files)
        objdir = os.path.join(tmp, "obj")
        compile_objects(tmp, library_sources(source_files(tmp)), objdir, [])
        buf = io.StringIO()
        rc = report(tmp, objdir, buf)
    return rc, buf.getvalue().splitlines()


def expect(what, cond, lines):
    if not cond:
        sys.exit("depcheck self-test: %s failed; output:\n%s" % (what, "\n".join(lines)))


CLEAN = {
    "model/model.h": "int model_f(void);\n",
    "model/model.c": '#include "model.h"\nint model_f(void) { return 1; }\n',
    "lib/vec.h": '#include "model/model.h"\nint vec_f(void);\n',
    "lib/vec.c": '#include "lib/vec.h"\nint vec_f(void) { return model_f(); }\n',
    "analyze/read/dat/dat.h": '#include "analyze/read/event.h"\n',
    "analyze/read/event.h": '#include "lib/vec.h"\n',
    "analyze/cmd_analyze.c": '#include "ucval.h"\n#include "analyze/read/dat/dat.h"\n',
    "ucval.h": "int cmd_analyze(void);\n",
    "ucval.c": '#include "ucval.h"\n#include "reports/rep.h"\n',
    "reports/rep.h": '#include "lib/vec.h"\n',
}


def self_test():
    rc, out = run_tree(CLEAN)
    expect("clean tree", rc == 0 and out[-1] == "deps: 10 files, 7 modules, 6 folders: "
           "no cycles, no layering violations", out)

    tree = dict(CLEAN)
    tree["lib/bad.c"] = '#include "reports/rep.h"\n'
    tree["analyze/read/ev.c"] = '#include "analyze/cmd_x.h"\n'
    tree["analyze/cmd_x.h"] = '#include "ucval.h"\n'
    rc, out = run_tree(tree)
    expect("folder violations", rc == 1 and out[:3] == [
        "analyze/cmd_x.h: includes ucval.h (folder analyze may not depend on top)",
        "analyze/read/ev.c: includes analyze/cmd_x.h "
        "(folder analyze/read may not depend on analyze)",
        "lib/bad.c: includes reports/rep.h (folder lib may not depend on reports)",
    ] and out[-1].endswith(": no cycles, 3 layering violations"), out)

    tree = dict(CLEAN)
    tree["lib/a.h"] = '#include "lib/b.h"\n'
    tree["lib/a.c"] = '#include "lib/a.h"\n'
    tree["lib/b.h"] = "int b;\n"
    tree["lib/b.c"] = '#include "lib/c.h"\n'
    tree["lib/c.h"] = '#include "a.h"\n'
    rc, out = run_tree(tree)
    expect("include cycle", rc == 1 and out == [
        "include cycle: lib/a lib/b lib/c",
        "  lib/a -> lib/b (lib/a.h includes lib/b.h)",
        "  lib/b -> lib/c (lib/b.c includes lib/c.h)",
        "  lib/c -> lib/a (lib/c.h includes lib/a.h)",
        "deps: 15 files, 10 modules, 6 folders: 1 cycle, no layering violations",
    ], out)

    tree = dict(CLEAN)
    tree["lib/calls.h"] = "int p_f(int n);\nint q_f(int n);\n"
    tree["lib/p.c"] = '#include "lib/calls.h"\nint p_f(int n) { return n ? q_f(n - 1) : 0; }\n'
    tree["lib/q.c"] = '#include "lib/calls.h"\nint q_f(int n) { return n ? p_f(n - 1) : 1; }\n'
    rc, out = run_tree(tree)
    expect("call cycle", rc == 1 and out[:3] == [
        "call cycle: lib/p lib/q",
        "  lib/p -> lib/q (lib/p.c calls q_f)",
        "  lib/q -> lib/p (lib/q.c calls p_f)",
    ], out)

    with tempfile.TemporaryDirectory(prefix="depcheck-") as tmp:
        write_tree(tmp, {
            "a.c": "// %s\n" % SPDX, "b.h": "/* nothing */\n",
            "t.sh": "#!/bin/sh\n# %s\n" % SPDX, "u.py": "#!/usr/bin/env python3\nx = 1\n",
            "Makefile": "# %s\n" % SPDX, "tests/kernel/init": "#!/bin/sh\n:\n",
            "tests/kernel/guest.config": "CONFIG_X=y\n", "README.md": "text\n",
        })
        files = [os.path.relpath(os.path.join(d, n), tmp) for d, _, ns in os.walk(tmp)
                 for n in ns]
        got = spdx_missing(tmp, files)
    expect("spdx", got == ["b.h", "tests/kernel/init", "u.py"], got)
    print("depcheck self-test: clean tree, folder violations, include and call cycles, "
          "SPDX: ok")
    return 0


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description="dependency rules of the ucval tree")
    ap.add_argument("--objdir", help="objects of the library built without LTO")
    ap.add_argument("--spdx", action="store_true", help="check the SPDX line of sources")
    ap.add_argument("--self-test", action="store_true", help="check the checker")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.spdx:
        return spdx_check(root)
    objdir = args.objdir
    if not objdir:
        subprocess.run(["make", "-C", root, "--no-print-directory", "-s", "deps-objs"],
                       check=True)
        objdir = os.path.join(root, "build", "deps")
    return report(root, os.path.abspath(objdir))


if __name__ == "__main__":
    sys.exit(main())
