"""Runs every public function of an MLIR file on two targets and checks that
their outputs are equal bit for bit (the same seeded random inputs).

Usage: compare_targets.py FILE.mlir --target T [--against cpu] [extra strata-run args]
Prints one line per function and exits 1 if any function fails to compile or
run on either target, or any output differs in any bit."""
import os
import re
import sys
import tempfile

import all_functions

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
names = re.findall(r'^func\.func @([\w$.-]+)\(', open(path).read(), re.M)
if not names:
    sys.exit('no functions in ' + path)

# One strata-run per target (--all-functions: one compile, one device),
# each function's results written as DIR/NAME.K.npy.
failed = []
with tempfile.TemporaryDirectory() as tmp:
    runs = {}
    for t in (against, target):
        os.mkdir(os.path.join(tmp, t))
        runs[t] = all_functions.Run(path, ['--quiet', '--target', t, '--output-dir', os.path.join(tmp, t)] + extra)
    for name in names:
        errors = ''.join('%s: %s\n' % (t, runs[t].why(name)) for t in (against, target) if not runs[t].ok(name))
        if errors:
            verdict = 'FAIL'
        else:
            files = {t: sorted(f for f in os.listdir(os.path.join(tmp, t)) if re.fullmatch(re.escape(name) + r'\.\d+\.npy', f))
                     for t in (against, target)}
            if files[against] != files[target] or not files[target]:
                verdict = 'DIFFER (results %s and %s)' % (files[against], files[target])
            else:
                diff = [f for f in files[target] if open(os.path.join(tmp, against, f), 'rb').read() !=
                        open(os.path.join(tmp, target, f), 'rb').read()]
                verdict = 'DIFFER (output %s)' % ', '.join('#' + f.split('.')[-2] for f in diff) if diff else 'SAME'
        print('%s: %s' % (name, verdict))
        if verdict != 'SAME':
            failed.append(name)
            sys.stdout.write(errors)
    for t in (against, target):
        if not failed and (runs[t].returncode != 0 or not runs[t].complete(names)):
            print('%s: strata-run --all-functions: exit %d:\n%s' % (t, runs[t].returncode, runs[t].output))
            failed.append('(the %s run)' % t)
print('%d functions, %d not the same' % (len(names), len(failed)))
sys.exit(1 if failed else 0)
