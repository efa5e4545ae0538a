# layers.sh — the code is layered: no circle of calls or includes across files
# (issue 13).  Edges: file A calls a function file B defines (from the objects of
# the build, nm), and file A includes a private header H whose own source file is B
# (x.h with x.c beside it in engine/, gpu/ or ui/), headers followed through the
# headers they include.  The public headers (include/repview/) are the engine's
# interface of types and declarations: what crosses them is a call, counted by nm.
# A file and its own header are one node.  Any strongly
# connected set of two or more files is a failure that names every edge inside it.
# Also: no explorer pane (ui/explorer/pane_*.c) calls or includes another one, and
# the headless commands (ui/cli/) and the explorer (ui/explorer/) never call each other.
. "$RV_TOP/tests/lib.sh"
command -v nm >/dev/null && command -v python3 >/dev/null || { bad layers "needs nm and python3 (.ci/install-deps installs them)"; exit 0; }
python3 - "$RV_TOP" "$RV_BUILD" <<'PY'
import collections, os, re, subprocess, sys
top, build = sys.argv[1], sys.argv[2]
dirs = ['engine', 'gpu', 'ui']
# the source files (x.c or x.cu), by node name: their path without the extension
sources = {}
for d in dirs:
    for root, _, files in os.walk(os.path.join(top, d)):
        for f in files:
            if f.endswith(('.c', '.cu')):
                sources[os.path.relpath(os.path.join(root, f.rsplit('.', 1)[0]), top)] = os.path.join(root, f)
defs, uses = {}, collections.defaultdict(set)
for node in sorted(sources):  # objects of this tree only (a stale one may linger)
    obj = os.path.join(build, node + '.o')
    if not os.path.exists(obj): continue
    for line in subprocess.run(['nm', obj], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRC': defs.setdefault(p[2], node)
        elif len(p) == 2 and p[0] == 'U': uses[node].add(p[1])
edges = collections.defaultdict(dict)  # a -> {b: why}
for a, syms in uses.items():
    for s in sorted(syms):
        b = defs.get(s)
        if b and b != a: edges[a].setdefault(b, 'calls ' + s)
# includes
def header_path(inc, where):
    for base in (os.path.dirname(where), os.path.join(top, 'include')):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(p): return p
    return None
def pair_of(h):
    n = os.path.relpath(h, top).rsplit('.', 1)[0]
    if n.split('/')[0] not in dirs: return None  # a public header
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
pane = re.compile(r'ui/explorer/pane_')
panes = [(a, b) for a in edges for b in edges[a] if pane.match(a) and pane.match(b)]
print('PASS layers_panes_apart' if not panes else 'FAIL layers_panes_apart: ' + ', '.join('%s -> %s (%s)' % (a, b, edges[a][b]) for a, b in panes))
# the two front ends stand side by side over the engine: neither calls the other
# (main.c and front.c in ui/ serve both)
def front(n):  # 'cli', 'explorer', or '' outside them
    p = n.split('/')
    return p[1] if len(p) > 2 and p[0] == 'ui' else ''
cross = [(a, b) for a in edges for b in edges[a] if {front(a), front(b)} == {'cli', 'explorer'}]
print('PASS layers_front_ends_apart' if not cross else 'FAIL layers_front_ends_apart: ' + ', '.join('%s -> %s (%s)' % (a, b, edges[a][b]) for a, b in cross))
PY
