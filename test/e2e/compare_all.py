"""Runs `strata-run --compare` on every public function of an MLIR file.

Usage: compare_all.py FILE.mlir [--only NAME,NAME...] [extra strata-run args]
(--only: just those public functions, from a copy of the file without the
others; private functions are kept.)
Prints one line per function and exits 1 if any function fails to compile,
run, or match the reference interpreter within tolerance; a failing
function's line is followed by what strata-run said about it.

One strata-run process runs them all (--all-functions: one compile, one
device; all_functions.py), so a target's start-up is paid once per file,
not per function."""
import os
import re
import sys
import tempfile

import all_functions

path, extra = sys.argv[1], sys.argv[2:]
text = open(path).read()
names = re.findall(r'^func\.func @([\w$.-]+)\(', text, re.M)
if not names:
    sys.exit('no functions in ' + path)
only = None
if '--only' in extra:
    k = extra.index('--only')
    only, extra = extra[k + 1].split(','), extra[:k] + extra[k + 2:]
    unknown = [n for n in only if n not in names]
    if unknown:
        sys.exit('--only: no public function %s in %s' % (', '.join(unknown), path))
    names = [n for n in names if n in only]
tmp = tempfile.TemporaryDirectory()
if only is not None:
    # Drop the other public functions: each is a top-level block from its
    # `func.func @NAME(` line to the first line that is just `}`.
    def keep(m):
        return m.group(0) if m.group(1) in only else ''
    text = re.sub(r'^func\.func @([\w$.-]+)\(.*?^\}\n', keep, text, flags=re.M | re.S)
    path = os.path.join(tmp.name, os.path.basename(path))
    open(path, 'w').write(text)
run = all_functions.Run(path, ['--compare', '--quiet'] + extra)
tmp.cleanup()
failed = []
for name in names:
    ok = run.ok(name)
    verdicts = [m.group(1) for l in run.block(name) or [] for m in [re.match(r'compare output #\d+: (.*)', l)] if m]
    print('%s: %s %s' % (name, 'OK' if ok else 'FAIL', '; '.join(verdicts)))
    if not ok:
        failed.append(name)
        print(run.why(name))
if not failed and (run.returncode != 0 or not run.complete(names)):
    print('strata-run --all-functions: exit %d, %d functions reported for %d in the file:\n%s'
          % (run.returncode, len(run.blocks), len(names), run.output))
    failed.append('(the run)')
print('%d functions, %d failed' % (len(names), len(failed)))
sys.exit(1 if failed else 0)
