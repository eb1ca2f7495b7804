"""Fails if a Strata pass from `strata-opt --list-passes` lacks a docs section."""
import re
import sys

listing, doc = open(sys.argv[1]).read(), open(sys.argv[2]).read()
strata = listing.split('Upstream MLIR passes')[0]
names = re.findall(r'^  --([\w-]+)', strata, re.M)
assert names, 'no Strata passes listed'
missing = [n for n in names if '## `%s`' % n not in doc]
if missing:
    sys.exit('passes without a section in docs/passes.md: ' + ', '.join(missing))
print('%d passes documented' % len(names))
