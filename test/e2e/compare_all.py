"""Runs `strata-run --compare` on every public function of an MLIR file.

Usage: compare_all.py FILE.mlir [extra strata-run args]
Prints one line per function and exits 1 if any function fails to compile,
run, or match the reference interpreter within tolerance."""
import re
import subprocess
import sys

path, extra = sys.argv[1], sys.argv[2:]
names = re.findall(r'^func\.func @([\w$.-]+)\(', open(path).read(), re.M)
if not names:
    sys.exit('no functions in ' + path)
failed = []
for name in names:
    p = subprocess.run(['strata-run', path, '--compare', '--quiet', '--entry', name] + extra,
                       capture_output=True, text=True)
    ok = p.returncode == 0 and 'MISMATCH' not in p.stdout
    verdicts = re.findall(r'compare output #\d+: (.*)', p.stdout)
    print('%s: %s %s' % (name, 'OK' if ok else 'FAIL', '; '.join(verdicts)))
    if not ok:
        failed.append(name)
        sys.stdout.write(p.stdout + p.stderr)
print('%d functions, %d failed' % (len(names), len(failed)))
sys.exit(1 if failed else 0)
