"""ONNX's test_loop11 (onnx.backend.test.case.node.loop): a Loop whose trip
count M and condition are graph inputs, carrying y and scanning it, so its
scan output has as many rows as the loop runs iterations -- known only at
run time. Runs it for several trip counts (0 to 5; x has 5 elements, so
iteration 6 would slice past it) and conditions, on the CPU and the
interpreter, as written and predicated (masked, skip: no static bound, so
the loop stays an scf.while and predication leaves it with a remark), and
through `pred-loop-to-guard{bound=N}` (N = 3 and 7 predicated iterations,
then the loop), and prints 'MODE M=.. cond=.. same' when both outputs equal the
numpy reference exactly (dtype, shape, values), 'DIFFERENT' or 'FAILED'
otherwise (bound=7 runs iterations past the loop's end under a false
predicate). The first data set is ONNX's own, whose stored outputs the
reference must reproduce. The stderr of each predicated import goes to
DIR/remarks.txt.

usage: loop11_runs.py BUILD_TOOLS_DIR DIR"""
import os
import subprocess
import sys

import numpy as np

# Debian's onnx 1.12 test generators still use numpy aliases that numpy
# 1.24 removed: restore them before importing (as node_tests.py does).
for _alias, _t in (('float', float), ('int', int), ('bool', bool), ('object', object), ('complex', complex),
                   ('str', str)):
    if _alias not in np.__dict__:
        setattr(np, _alias, _t)
import onnx  # noqa: E402
from onnx.backend.test.case.node import collect_testcases  # noqa: E402

tools, d = sys.argv[1:3]
env = dict(os.environ, STRATA_CACHE_DIR='')
case = next(c for c in collect_testcases(None) if c.name == 'test_loop11')
model = os.path.join(d, 'loop11.onnx')
onnx.save(case.model, model)
X = np.array([1, 2, 3, 4, 5], np.float32)  # the body's constant x


def reference(m, cond, y):
    """ONNX Loop semantics: while i < M and cond: y += x[i:i+1], scan y."""
    rows, i = [], 0
    while i < m and cond:
        y = y + X[i:i + 1]
        rows.append(y)
        i += 1
    return y, np.stack(rows) if rows else np.zeros((0, 1), np.float32)


rng = np.random.default_rng(11)
(ins, outs), = case.data_sets
sets = [tuple(ins)]
for m, cond in ((0, True), (1, True), (3, True), (5, True), (4, False)):
    sets.append((np.array(m, np.int64), np.array(cond), rng.standard_normal(1).astype(np.float32)))
ref0 = reference(*sets[0])
assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(ref0, outs)), 'reference != ONNX data'

# bound=N: N predicated iterations (masked), then the loop, on the imported
# IR. With N = 7 the last iterations run past x's end under a false
# predicate, where the body's Slice is empty and its Reshape's run-time
# check would fail: such a body must not be speculated.
imported = subprocess.run([os.path.join(tools, 'strata-import'), model], capture_output=True, text=True,
                          env=env, check=True).stdout
bounded = {}
for n in (3, 7):
    bounded[n] = os.path.join(d, 'bound%d.mlir' % n)
    with open(bounded[n], 'w') as f:
        f.write(subprocess.run([os.path.join(tools, 'strata-opt'), '-', '--pred-if-to-guard',
                                '--pred-loop-to-guard=bound=%d' % n, '--pred-lower=mode=masked'],
                               input=imported, capture_output=True, text=True, env=env, check=True).stdout)

modes = (('none', model, []), ('masked', model, ['--predicate', 'masked']),
         ('skip', model, ['--predicate', 'skip']), ('interpret', model, ['--interpret']),
         ('interpret-masked', model, ['--interpret', '--predicate', 'masked']),
         ('bound3', bounded[3], []), ('interpret-bound3', bounded[3], ['--interpret']),
         ('bound7', bounded[7], []), ('interpret-bound7', bounded[7], ['--interpret']))
remarks = open(os.path.join(d, 'remarks.txt'), 'w')
for k, data in enumerate(sets):
    want = reference(*data)
    files = []
    for i, a in enumerate(data):
        files += ['--input', os.path.join(d, 'in%d_%d.npy' % (k, i))]
        np.save(files[-1], a)
    for mode, path, how in modes:
        label = '%d %s M=%d cond=%d' % (k, mode, data[0], data[1])
        got = [os.path.join(d, '%s.%d.%d.npy' % (mode, k, i)) for i in range(2)]
        cmd = [os.path.join(tools, 'strata-run'), path, '--quiet'] + files + how
        for o in got:
            cmd += ['--output', o]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if k == 0 and mode in ('masked', 'skip'):
            remarks.write(p.stderr)
        if p.returncode != 0:
            print('%s FAILED (exit %d): %s' % (label, p.returncode, p.stderr.strip()))
            continue
        bad = []
        for i, (o, y) in enumerate(zip(got, want)):
            x = np.load(o)
            if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y):
                bad.append('#%d: %s%s %s vs expected %s%s %s' % (i, x.dtype, x.shape, x, y.dtype, y.shape, y))
        print('%s %s' % (label, 'DIFFERENT ' + '; '.join(bad) if bad else 'same'))
