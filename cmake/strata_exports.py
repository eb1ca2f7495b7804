#!/usr/bin/env python3
"""Lists the functions and objects that C headers declare, for libstrata.so's
export list (a linker version script) and for the tests that check it.

    strata_exports.py --cc CC [-I DIR]... (--public-dir DIR | --only FILE)...
                      [--map OUT.map] [--list OUT.txt] HEADER...

Each HEADER is run through the C preprocessor (so declarations written with
macros, like the runtime's kernel ABI table, count as what they expand to);
a declaration is listed when the file it comes from (the preprocessor's line
markers) is under a --public-dir or is an --only file. Listed: function
declarations and `extern` objects; not typedefs, `static` (inline) functions,
or anything declared by system or MLIR headers. The map exports exactly the
list and makes every other symbol local.
"""
import argparse
import os
import re
import subprocess
import sys

TOKEN = re.compile(r'[A-Za-z_]\w*|\d[\w.]*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\S')
MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')
KEYWORDS = {'void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned',
            '_Bool', 'const', 'volatile', 'restrict', 'struct', 'union', 'enum', 'extern',
            'inline', 'static', 'typedef', 'sizeof', '_Static_assert', '_Noreturn'}


def tokens(text):
    """(token, file) pairs of preprocessed text, directives dropped."""
    current = ''
    for line in text.splitlines():
        if line.lstrip().startswith('#'):
            m = MARKER.match(line.lstrip())
            if m:
                current = os.path.realpath(m.group(2)) if not m.group(2).startswith('<') else ''
            continue
        for t in TOKEN.findall(line):
            yield t, current


def drop_attributes(toks):
    """Removes __attribute__((...)), __asm__(...) and __extension__."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i][0]
        if t in ('__attribute__', '__asm__', '__asm', 'asm', '__declspec'):
            i += 1
            depth = 0
            while i < len(toks):
                if toks[i][0] == '(':
                    depth += 1
                elif toks[i][0] == ')':
                    depth -= 1
                    if depth == 0:
                        i += 1
                        break
                i += 1
            continue
        if t not in ('__extension__', '__restrict', '__inline', '__inline__'):
            out.append(toks[i])
        i += 1
    return out


def statements(toks):
    """Top-level declarations as lists of (token, file), brace contents dropped."""
    stmt, depth, parens = [], 0, 0
    for tok in toks:
        t = tok[0]
        if depth:
            if t == '{':
                depth += 1
            elif t == '}':
                depth -= 1
                if depth == 0 and stmt and stmt[-1][0] == ')' and parens == 0:
                    yield stmt + [('{}', tok[1])]  # a function definition
                    stmt = []
            continue
        if t == '{':
            depth = 1
            continue
        if t == '(':
            parens += 1
        elif t == ')':
            parens -= 1
        if t == ';' and parens == 0:
            if stmt:
                yield stmt
            stmt = []
            continue
        stmt.append(tok)


def is_ident(t):
    return re.match(r'[A-Za-z_]\w*$', t) is not None


def declared_names(stmt):
    """(name, file) for each function or extern object `stmt` declares."""
    stmt = drop_attributes(stmt)
    words = [t for t, _ in stmt]
    if not words or words[0] == 'typedef' or 'static' in words or '_Static_assert' in words:
        return []
    if words[-1] == '{}':
        return []  # a definition in a header: static inline is the only sane kind
    # Split at top-level commas: `extern int a, b;` declares two names.
    parts, part, depth = [], [], 0
    for tok in stmt:
        if tok[0] in '([':
            depth += 1
        elif tok[0] in ')]':
            depth -= 1
        if tok[0] == ',' and depth == 0:
            parts.append(part)
            part = []
        else:
            part.append(tok)
    parts.append(part)
    found = []
    for i, p in enumerate(parts):
        w = [t for t, _ in p]
        if '(' in w:
            k = w.index('(')
            if k + 2 < len(w) and w[k + 1] == '*' and is_ident(w[k + 2]):
                # (*name)(...) is a pointer object; (*name(args))(...) a
                # function returning a function pointer.
                if k + 3 < len(w) and w[k + 3] == '(':
                    found.append(p[k + 2])
                elif 'extern' in words:
                    found.append(p[k + 2])
            elif k > 0 and is_ident(w[k - 1]) and w[k - 1] not in KEYWORDS:
                found.append(p[k - 1])
        elif 'extern' in words:
            cut = len(w)
            for j, t in enumerate(w):
                if t in ('[', '='):
                    cut = j
                    break
            idents = [p[j] for j in range(cut) if is_ident(w[j]) and w[j] not in KEYWORDS]
            if idents and (i > 0 or len(idents) > 1):
                found.append(idents[-1])
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cc', default='cc')
    ap.add_argument('-I', dest='includes', action='append', default=[])
    ap.add_argument('--public-dir', action='append', default=[])
    ap.add_argument('--only', action='append', default=[])
    ap.add_argument('--map')
    ap.add_argument('--list')
    ap.add_argument('headers', nargs='+')
    a = ap.parse_args()
    dirs = [os.path.realpath(d) + os.sep for d in a.public_dir]
    only = {os.path.realpath(f) for f in a.only}

    def wanted(f):
        return f and (f in only or any(f.startswith(d) for d in dirs))

    names = {}
    for h in a.headers:
        cmd = [a.cc, '-E', '-std=c11', '-D_POSIX_C_SOURCE=200809L', '-x', 'c']
        cmd += ['-I' + i for i in a.includes] + [h]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.stderr.write(r.stderr)
            sys.exit('strata_exports: preprocessing %s failed' % h)
        for stmt in statements(tokens(r.stdout)):
            for name, f in declared_names(stmt):
                if wanted(f):
                    names.setdefault(name, f)
    if not names:
        sys.exit('strata_exports: no declarations found in %s' % ' '.join(a.headers))
    listing = ''.join('%s\n' % n for n in sorted(names))
    if a.list:
        with open(a.list, 'w') as f:
            f.write(listing)
    if a.map:
        with open(a.map, 'w') as f:
            f.write('/* libstrata.so exports: generated by cmake/strata_exports.py from the\n'
                    ' * public headers; everything else is local. */\n{\n  global:\n')
            f.write(''.join('    %s;\n' % n for n in sorted(names)))
            f.write('  local:\n    *;\n};\n')
    if not a.list and not a.map:
        sys.stdout.write(listing)


if __name__ == '__main__':
    main()
