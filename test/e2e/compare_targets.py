"""Runs every public function of an MLIR file on two targets and checks that
their outputs are equal bit for bit (the same seeded random inputs).

Usage: compare_targets.py FILE.mlir --target T [--against cpu] [extra strata-run args]
Prints one line per function and exits 1 if any function fails to compile or
run on either target, or any output differs in any bit."""
import os
import re
import subprocess
import sys
import tempfile

path, args = sys.argv[1], sys.argv[2:]
target, against = None, 'cpu'
extra = []
i = 0
while i < len(args):
    if args[i] in ('--target', '--against') and i + 1 < len(args):
        if args[i] == '--target':
            target = args[i + 1]
        else:
            against = args[i + 1]
        i += 2
    else:
        extra.append(args[i])
        i += 1
if not target:
    sys.exit('compare_targets.py: --target is required')
text = open(path).read()
funcs = re.findall(r'^func\.func @([\w$.-]+)\((.*?)\)\s*->\s*(.*?)\s*\{\s*$', text, re.M)
if not funcs:
    sys.exit('no functions in ' + path)


def num_results(sig):
    sig = sig.strip()
    if sig.startswith('('):
        sig = sig[1:-1]
    depth, n = 0, 1
    for c in sig:
        depth += c in '<(['
        depth -= c in '>)]'
        n += c == ',' and depth == 0
    return n


failed = []
with tempfile.TemporaryDirectory() as tmp:
    for name, _, results in funcs:
        outs = {}
        errors = ''
        for t in (against, target):
            files = [os.path.join(tmp, '%s.%s.%d.npy' % (name, t, k)) for k in range(num_results(results))]
            cmd = ['strata-run', path, '--quiet', '--entry', name, '--target', t] + extra
            for f in files:
                cmd += ['--output', f]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                errors += '%s: %s%s' % (t, p.stdout, p.stderr)
                continue
            outs[t] = [open(f, 'rb').read() for f in files]
        if errors:
            verdict = 'FAIL'
        else:
            diff = [k for k, (a, b) in enumerate(zip(outs[against], outs[target])) if a != b]
            verdict = 'DIFFER (output %s)' % ', '.join('#%d' % k for k in diff) if diff else 'SAME'
        print('%s: %s' % (name, verdict))
        if verdict != 'SAME':
            failed.append(name)
            sys.stdout.write(errors)
print('%d functions, %d not the same' % (len(funcs), len(failed)))
sys.exit(1 if failed else 0)
