"""Runs `strata-run --compare` on every public function of an MLIR file.

Usage: compare_all.py FILE.mlir [--only NAME,NAME...] [extra strata-run args]
(--only: just those public functions, from a copy of the file without the
others; private functions are kept.)
Prints one line per function and exits 1 if any function fails to compile,
run, or match the reference interpreter within tolerance; a failing
function's line is followed by what strata-run said about it.

One strata-run process runs them all (--all-functions: one compile, one
device), so a target's start-up is paid once per file, not per function."""
import os
import re
import subprocess
import sys
import tempfile

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
p = subprocess.run(['strata-run', path, '--compare', '--quiet', '--all-functions'] + extra,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
tmp.cleanup()
# The run's output, split at each "function 'NAME':" line (errors go to
# stderr, merged in order: strata-run flushes stdout before each function).
blocks, current, head = {}, None, []
for line in p.stdout.splitlines():
    m = re.fullmatch(r"function '([\w$.-]+)':", line)
    if m:
        current = blocks.setdefault(m.group(1), [])
    elif current is not None:
        current.append(line)
    else:
        head.append(line)
summary = re.search(r'^(\d+) functions?, (\d+) failed$', p.stdout, re.M)
failed = []
for name in names:
    block = blocks.get(name)
    if block is not None and summary and block[-1:] == [summary.group(0)]:
        block = block[:-1]
    ok = block is not None and summary is not None and 'FAILED' not in block and \
        not any('MISMATCH' in l for l in block)
    verdicts = [m.group(1) for l in block or [] for m in [re.match(r'compare output #\d+: (.*)', l)] if m]
    print('%s: %s %s' % (name, 'OK' if ok else 'FAIL', '; '.join(verdicts)))
    if not ok:
        failed.append(name)
        if block is None:  # never reached: the run stopped before it
            print('\n'.join(head + ['(strata-run exited with %d before this function)' % p.returncode]))
        else:
            print('\n'.join(l for l in block if l != 'FAILED'))
if not failed and (p.returncode != 0 or summary is None or len(blocks) != len(names)):
    print('strata-run --all-functions: exit %d, %d functions reported for %d in the file:\n%s'
          % (p.returncode, len(blocks), len(names), p.stdout))
    failed.append('(the run)')
print('%d functions, %d failed' % (len(names), len(failed)))
sys.exit(1 if failed else 0)
