# layers.sh — the code is layered: no circle of calls or includes across files
# (issue 13).  Edges: file A calls a function file B defines (from the objects of
# the build, nm), and file A includes a private header H whose own source file is B
# (x.h with x.c beside it in engine/, gpu/ or ui/), headers followed through the
# headers they include.  The public headers (include/repview/) are the engine's
# interface of types and declarations: what crosses them is a call, counted by nm.
# A file and its own header are one node.  Any strongly
# connected set of two or more files is a failure that names every edge inside it.
# Also: no explorer pane (ui/pane_*.c) calls or includes another one.
. "$RV_TOP/tests/lib.sh"
command -v nm >/dev/null && command -v python3 >/dev/null || { ok "layers_skipped_no_nm_or_python3"; exit 0; }
python3 - "$RV_TOP" "$RV_BUILD" <<'PY'
import collections, os, re, subprocess, sys
top, build = sys.argv[1], sys.argv[2]
dirs = ['engine', 'gpu', 'ui']
node_of_obj = {}
defs, uses = {}, collections.defaultdict(set)
for d in dirs:
    od = os.path.join(build, d)
    for f in sorted(os.listdir(od)) if os.path.isdir(od) else []:
        if not f.endswith('.o'): continue
        node = d + '/' + f[:-2]
        for line in subprocess.run(['nm', os.path.join(od, f)], capture_output=True, text=True).stdout.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDBRC': defs.setdefault(p[2], node)
            elif len(p) == 2 and p[0] == 'U': uses[node].add(p[1])
edges = collections.defaultdict(dict)  # a -> {b: why}
for a, syms in uses.items():
    for s in sorted(syms):
        b = defs.get(s)
        if b and b != a: edges[a].setdefault(b, 'calls ' + s)
# includes
sources = {}
for d in dirs:
    for f in os.listdir(os.path.join(top, d)):
        if f.endswith(('.c', '.cu')): sources[d + '/' + f.rsplit('.', 1)[0]] = os.path.join(top, d, f)
def header_path(inc, where):
    for base in (os.path.dirname(where), os.path.join(top, 'include')):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(p): return p
    return None
def pair_of(h):
    stem = os.path.basename(h).rsplit('.', 1)[0]
    d = os.path.basename(os.path.dirname(h))
    if d not in dirs: return None  # a public header
    n = d + '/' + stem
    return n if n in sources else None
inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
closure = {}
def includes(path):
    if path in closure: return closure[path]
    closure[path] = set()
    out = set()
    for inc in inc_re.findall(open(path, errors='replace').read()):
        h = header_path(inc, path)
        if h and h.endswith(('.h', '.cuh')):
            out.add(h); out |= includes(h)
    closure[path] = out
    return out
for n, src in sources.items():
    for h in includes(src):
        b = pair_of(h)
        if b and b != n: edges[n].setdefault(b, 'includes ' + os.path.relpath(h, top))
# strongly connected components (Tarjan)
sys.setrecursionlimit(100000)
idx, low, st, on, comps, c = {}, {}, [], set(), [], [0]
def visit(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in idx: visit(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: comps.append(sorted(comp))
for v in sorted(set(sources) | set(edges)):
    if v not in idx: visit(v)
nodes = len(set(sources))
n_edges = sum(len(e) for e in edges.values())
if nodes < 40 or n_edges < 100:
    print('FAIL layers_graph: only %d files and %d edges seen (build dir %s?)' % (nodes, n_edges, build))
else:
    print('PASS layers_graph')
for d in dirs:
    bad = [comp for comp in comps if any(v.startswith(d + '/') for v in comp)]
    if bad:
        why = '; '.join(' '.join('%s -> %s (%s)' % (a, b, edges[a][b]) for a in comp for b in edges[a] if b in comp) for comp in bad)
        print('FAIL layers_no_circle_%s: %s' % (d, why[:1500]))
    else:
        print('PASS layers_no_circle_%s' % d)
panes = [(a, b) for a in edges for b in edges[a] if re.match(r'ui/pane_', a) and re.match(r'ui/pane_', b)]
print('PASS layers_panes_apart' if not panes else 'FAIL layers_panes_apart: ' + ', '.join('%s -> %s (%s)' % (a, b, edges[a][b]) for a, b in panes))
PY
