#!/usr/bin/env python3
"""layers.py TOP BUILD [DIR...] — the dependency graph of a C tree and its circles.

Nodes are files.  A source file (x.c, x.cu) and the headers that carry its name
are one node: x.h or x_y.h beside it (the longest such source name wins), and
include/repview/x.h or x_y.h for the one source of that name under the checked
folders.  Including such a header is using that source.  A header that belongs
to no source is a node of its own.

Edges, A -> B: A uses a name that B alone defines.
  - B defines functions and globals: those its object exports (nm of BUILD/**.o);
  - B's headers define macros, types, struct/enum tags, enum constants and inline
    functions.
  - A source uses every name it mentions; a header uses the names in its macros,
    types and inline functions and the types of its prototypes (the name that a
    prototype declares is used by its callers, not by the header).

Prints one line per check, "PASS name" or "FAIL name: why":
  layers_graph             the graph was read (files and edges seen)
  layers_no_circle_DIR     no strongly connected set of two or more files in DIR
  layers_rooms_one_way     engine's folders only use the folders below them
                           (ROOMS below) and include/repview/ uses no engine file
  layers_panes_apart       no explorer pane uses another pane
  layers_front_ends_apart  ui/cli/ and ui/explorer/ never use each other
With --fixture only the circle checks run, over every folder given.
"""
import collections
import os
import re
import subprocess
import sys

# engine's rooms from the ground up: a room may use the rooms before it only
ROOMS = ['base', 'input', 'index', 'query', 'search', 'align', 'scale']
MIN_FILES, MIN_EDGES = 40, 100

COMMENT_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
IDENT_RE = re.compile(r'[A-Za-z_]\w*')
DEFINE_RE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?((?:[^\n]*\\\n)*[^\n]*)', re.M)
DIRECTIVE_RE = re.compile(r'^[ \t]*#[^\n]*', re.M)
KEYWORDS = set("""auto break case char const continue default do double else enum extern float for
goto if inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Atomic _Bool _Static_assert defined""".split())


def strip(text):
    return COMMENT_RE.sub(lambda m: ' ' if m.group(0)[0] in '/' else '""', text)


def header_names(text):
    """(names a header defines, names its code uses).  Defined: macros, typedefs,
    enum constants, inline functions (a struct tag alone is no definition: an
    opaque type names it without using it).  Used: every name in
    macro bodies, type definitions and inline function bodies, and the types in
    prototypes; the name a prototype declares is not a use (its callers use it)."""
    text = strip(text)
    defined, used = set(), set()
    for m in DEFINE_RE.finditer(text):
        defined.add(m.group(1))
        used |= set(IDENT_RE.findall(m.group(3)))
    text = DIRECTIVE_RE.sub(' ', text)
    # top-level statements (ending in ';' at depth 0, or a function body)
    depth, start, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        end = depth == 0 and ch == ';'
        if depth == 0 and ch == '}':  # a function's body ends its statement
            end = text[start:i].split('{', 1)[0].rstrip().endswith(')')
        if end:
            stmt = text[start:i + 1]
            start = i + 1
            head = stmt.split('{', 1)[0]
            body = stmt[len(head):]
            words = IDENT_RE.findall(head)
            if 'typedef' in words:
                fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', stmt)
                if '}' in stmt:
                    defined |= set(IDENT_RE.findall(stmt.rsplit('}', 1)[-1])[:1])
                elif fp:
                    defined.add(fp.group(1))
                else:
                    defined |= set(IDENT_RE.findall(re.sub(r'\[[^]]*\]', '', stmt))[-1:])
            for m in re.finditer(r'\benum\b[^{]*\{([^}]*)\}', stmt):
                for item in m.group(1).split(','):
                    w = IDENT_RE.findall(item)
                    if w:
                        defined.add(w[0])
            fn = re.search(r'(\w+)\s*\([^;{]*\)\s*$', head)
            if body and fn and 'inline' in words and '=' not in head:
                defined.add(fn.group(1))  # an inline function
            for w in IDENT_RE.findall(body):
                used.add(w)
            if not body and '(' not in head and 'typedef' not in words:
                # variables' declarations: the name of each declarator is not a use
                parts = head.split('=', 1)[0].split(',')
                for k, part in enumerate(parts):
                    w = IDENT_RE.findall(re.sub(r'\[[^]]*\]', '', part))
                    used |= set(w[:-1] if k == 0 else [])
            else:
                used |= {m.group(0) for m in re.finditer(r'[A-Za-z_]\w*', head)
                         if not re.match(r'\s*\(', head[m.end():])}
        i += 1
    return defined - KEYWORDS, used - KEYWORDS


def walk(top, dirs, exts):
    for d in dirs:
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in sorted(files):
                if f.endswith(exts):
                    yield os.path.relpath(os.path.join(root, f), top)


def stem(path):
    return path.rsplit('.', 1)[0]


class Graph:
    def __init__(self, top, build, dirs):
        self.top, self.build, self.dirs = top, build, dirs
        self.sources = {stem(p): p for p in walk(top, dirs, ('.c', '.cu'))}
        by_name = collections.defaultdict(list)
        for n in self.sources:
            by_name[os.path.basename(n)].append(n)
        self.node_of = {}  # header path -> node
        for h in walk(top, dirs, ('.h', '.cuh')):
            self.node_of[h] = self.owner(stem(h), [n for n in self.sources
                                                   if os.path.dirname(n) == os.path.dirname(h)]) or h
        pub = os.path.join(top, 'include', 'repview')
        if os.path.isdir(pub):
            for f in sorted(os.listdir(pub)):
                if f.endswith('.h'):
                    h = os.path.join('include', 'repview', f)
                    self.node_of[h] = h
        self.edges = collections.defaultdict(dict)  # a -> {b: why}
        self.defs = {}
        self.read_objects()
        self.read_names()

    @staticmethod
    def owner(h, candidates, unique=False):
        """The source a header belongs to: the one of its name, else the longest
        whose name and '_' begin the header's (x_internal.h belongs to x.c)."""
        name = os.path.basename(h)
        best = [n for n in candidates if os.path.basename(n) == name]
        if not best:
            fit = [n for n in candidates if name.startswith(os.path.basename(n) + '_')]
            longest = max((len(os.path.basename(n)) for n in fit), default=0)
            best = [n for n in fit if len(os.path.basename(n)) == longest]
        return best[0] if len(best) == 1 or (best and not unique) else None

    def add(self, a, b, why):
        if a != b:
            self.edges[a].setdefault(b, why)

    def read_objects(self):
        uses = collections.defaultdict(set)
        dup = set()
        for n in sorted(self.sources):
            obj = os.path.join(self.build, n + '.o')
            if not os.path.exists(obj):
                continue
            out = subprocess.run(['nm', obj], capture_output=True, text=True).stdout
            for line in out.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in 'TDBRC':
                    if p[2] in self.defs and self.defs[p[2]] != n:
                        dup.add(p[2])
                    self.defs.setdefault(p[2], n)
                elif len(p) == 2 and p[0] == 'U':
                    uses[n].add(p[1])
        # a source this build did not compile (the GPU stub beside the CUDA code)
        # still defines its functions: a name with two definers has no owner
        fn_def = re.compile(r'^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;{]*\)\s*\{', re.M)
        for n in sorted(self.sources):
            if not os.path.exists(os.path.join(self.build, n + '.o')):
                text = strip(open(os.path.join(self.top, self.sources[n]), errors='replace').read())
                for name in fn_def.findall(text):
                    if not text[:0] and name in self.defs and self.defs[name] != n:
                        dup.add(name)
        for s in dup:  # defined twice (the GPU code and its stub): no one owner
            del self.defs[s]
        for a, syms in uses.items():
            for s in sorted(syms):
                if s in self.defs:
                    self.add(a, self.defs[s], 'calls ' + s)

    def read_names(self):
        """Edges by name: A uses a name (a type, macro, inline function or enum
        constant) that a header of B defines."""
        owner, dup, uses = {}, set(), {}
        for h, node in sorted(self.node_of.items()):
            defined, used = header_names(open(os.path.join(self.top, h), errors='replace').read())
            for d in defined:
                if d in owner and owner[d] != node:
                    dup.add(d)
                owner.setdefault(d, node)
            uses.setdefault(node, set()).update(used)
        for n, src in self.sources.items():
            raw = open(os.path.join(self.top, src), errors='replace').read()
            local, _ = header_names(raw)  # a source's own types and macros shadow others
            text = DIRECTIVE_RE.sub(' ', strip(raw))
            uses.setdefault(n, set()).update(set(IDENT_RE.findall(text)) - local)
        for d in dup:
            del owner[d]
        for a, names in sorted(uses.items()):
            for name in sorted(names):
                b = owner.get(name) or self.defs.get(name)
                if b:
                    self.add(a, b, 'uses ' + name)

    def circles(self):
        sys.setrecursionlimit(100000)
        idx, low, stack, on, comps, c = {}, {}, [], set(), [], [0]

        def visit(v):
            idx[v] = low[v] = c[0]
            c[0] += 1
            stack.append(v)
            on.add(v)
            for w in self.edges[v]:
                if w not in idx:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], idx[w])
            if low[v] == idx[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
        nodes = set(self.sources) | set(self.node_of.values()) | set(self.edges)
        for v in sorted(nodes):
            if v not in idx:
                visit(v)
        return comps

    def describe(self, comp):
        return ' '.join('%s -> %s (%s);' % (a, b, self.edges[a][b])
                        for a in comp for b in sorted(self.edges[a]) if b in comp)


def check_circles(g, dirs):
    comps = g.circles()
    for d in dirs:
        bad = [comp for comp in comps if any(v.startswith(d + '/') for v in comp)]
        if bad:
            why = ' | '.join('%d files: %s' % (len(c), g.describe(c)) for c in bad)
            print('FAIL layers_no_circle_%s: %s' % (d.replace('/', '_'), why[:3000]))
        else:
            print('PASS layers_no_circle_%s' % d.replace('/', '_'))


def room(n):
    p = n.split('/')
    if p[0] == 'include':
        return 'include'
    return p[1] if p[0] == 'engine' and len(p) > 2 else None


def check_rooms(g):
    bad = []
    for a in sorted(g.edges):
        for b in sorted(g.edges[a]):
            ra, rb = room(a), room(b)
            if ra == 'include' and b.startswith('engine/'):
                bad.append('%s -> %s (%s)' % (a, b, g.edges[a][b]))
            elif ra in ROOMS and rb in ROOMS and ROOMS.index(rb) > ROOMS.index(ra):
                bad.append('%s -> %s (%s)' % (a, b, g.edges[a][b]))
    unknown = sorted({room(n) for n in g.sources if n.startswith('engine/')} - set(ROOMS))
    if unknown:
        bad.append('engine folders not in the room order: ' + ', '.join(map(str, unknown)))
    print('PASS layers_rooms_one_way' if not bad else 'FAIL layers_rooms_one_way: ' + '; '.join(bad)[:3000])


def check_fronts(g):
    pane = re.compile(r'ui/explorer/pane_')
    panes = [(a, b) for a in g.edges for b in g.edges[a] if pane.match(a) and pane.match(b)]
    print('PASS layers_panes_apart' if not panes else 'FAIL layers_panes_apart: ' +
          ', '.join('%s -> %s (%s)' % (a, b, g.edges[a][b]) for a, b in panes))

    def front(n):  # 'cli', 'explorer', or '' (main.c and front.c in ui/ serve both)
        p = n.split('/')
        return p[1] if len(p) > 2 and p[0] == 'ui' else ''
    cross = [(a, b) for a in g.edges for b in g.edges[a] if {front(a), front(b)} == {'cli', 'explorer'}]
    print('PASS layers_front_ends_apart' if not cross else 'FAIL layers_front_ends_apart: ' +
          ', '.join('%s -> %s (%s)' % (a, b, g.edges[a][b]) for a, b in cross))


def main(argv):
    fixture = '--fixture' in argv
    args = [a for a in argv[1:] if a != '--fixture']
    top, build = args[0], args[1]
    dirs = args[2:] or ['engine', 'gpu', 'ui']
    g = Graph(top, build, dirs)
    if fixture:
        check_circles(g, dirs)
        return 0
    n_edges = sum(len(e) for e in g.edges.values())
    if len(g.sources) < MIN_FILES or n_edges < MIN_EDGES:
        print('FAIL layers_graph: only %d files and %d edges seen (build dir %s?)'
              % (len(g.sources), n_edges, build))
    else:
        print('PASS layers_graph')
    check_circles(g, dirs)
    check_rooms(g)
    check_fronts(g)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
