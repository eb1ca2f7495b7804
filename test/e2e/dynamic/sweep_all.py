"""Runs every public function of an MLIR file with dynamic shapes through
`strata-run --shapes --compare`: one compile per function, every shape set
checked against the reference interpreter.

Usage: sweep_all.py FILE.mlir WORKDIR [extra strata-run args]
A function's shape sets are the `// shapes:` comment lines just above it,
sets separated by '|', each `NAME=DIMS ...` as strata-run --input-shape takes
(NAME an input's number). Prints one line per function and exits 1 if any
function fails to compile, run or match, or sweeps fewer sets than given."""
import os
import re
import subprocess
import sys

path, work, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(work, exist_ok=True)
text = open(path).read()
funcs = re.findall(r'((?://\s*shapes:.*\n)+)func\.func @([\w$.-]+)\(', text)
if not funcs:
    sys.exit('no function with // shapes: in ' + path)
failed = []
for comments, name in funcs:
    sets = []
    for line in re.findall(r'//\s*shapes:(.*)', comments):
        sets += [s.strip() for s in line.split('|') if s.strip()]
    shapes = os.path.join(work, name + '.shapes')
    with open(shapes, 'w') as f:
        f.write('\n'.join(sets) + '\n')
    p = subprocess.run(['strata-run', path, '--entry', name, '--shapes', shapes, '--compare', '--quiet'] + extra,
                       capture_output=True, text=True)
    ok = (p.returncode == 0 and 'MISMATCH' not in p.stdout and
          ('swept %d shapes through 1 compile' % len(sets)) in p.stdout and
          p.stdout.count(': OK') >= len(sets))
    print('%s: %s (%d shapes)' % (name, 'OK' if ok else 'FAIL', len(sets)))
    if not ok:
        failed.append(name)
        sys.stdout.write(p.stdout + p.stderr)
print('%d functions, %d failed' % (len(funcs), len(failed)))
sys.exit(1 if failed else 0)
