"""ONNX's own backend node tests (the cases onnx.backend.test.case.node
generates: one operator per model, with inputs and expected outputs) run
through strata.backend on the CPU target, the way ONNX Runtime and
onnx-mlir run them.

Each case is one of: pass (every data set within the case's rtol/atol, with
the expected dtypes and shapes); refused (Strata's import or compile gave a
located error: an operator, attribute or type it does not support); wrong
(it ran and the answer differs -- a silent wrong answer, a bug); run error
(the compiled code reported an error); crash (the worker process died or
hung: it is restarted after the case). Cases whose tensors are not all
float (bfloat16 included: exchanged as its bits in uint16 arrays, as
onnx.numpy_helper holds it), integer or bool (strings, complex, sequences,
optionals) are counted apart. Workers run in subprocesses, so a crash costs one case.

Random cases (RANDOM below: Bernoulli, and Dropout in training mode with a
ratio above 0) cannot compare values: their expected outputs are numpy's
stream, which Strata does not reproduce (docs/onnx.md). They are checked by
properties instead -- dtype, shape, the value set, consistency between
outputs -- and by a statistical check on a widened copy of the model (the
same nodes on N elements), with a tolerance of 6 standard deviations that a
wrong generator (constant, all kept, all dropped, a wrong probability) cannot
meet by accident. A case that passes so is 'property pass', counted apart
from the exact passes in the summary.

Usage: node_tests.py WORKDIR [--jobs N] [--filter SUBSTR] [--target cpu|interpreter]
                      [--min-pass N] [--expected FILE] [--write-expected FILE]
Writes WORKDIR/node-tests.tsv (case, status, reason) and prints counts.
Exit status 1 if any case is wrong or crashed, or fewer than N eligible
cases pass.

--expected FILE is the expected-failure list (node-tests-expected.tsv): one
line per eligible case that does not pass, `case<TAB>reason`. The list may
only shrink: an eligible case that fails and is not listed is a regression,
and a listed case that now passes must be taken off the list (both fail the
run, naming the case). --write-expected FILE writes the list from this
run."""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import threading

import numpy as np

# Debian's onnx 1.12 test generators still use numpy aliases that numpy
# 1.24 removed (np.float, np.int, ...): restore them before importing.
for _alias, _t in (('float', float), ('int', int), ('bool', bool), ('object', object), ('complex', complex),
                   ('str', str)):
    if _alias not in np.__dict__:
        setattr(np, _alias, _t)
import onnx  # noqa: E402
from onnx import TensorProto  # noqa: E402
from onnx.backend.test.case.node import collect_testcases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'python'))

PLAIN = {TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.BOOL, TensorProto.INT8,
         TensorProto.INT16, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8, TensorProto.UINT16,
         TensorProto.UINT32, TensorProto.UINT64, TensorProto.BFLOAT16}


def cases(filt):
    return [c for c in collect_testcases(None) if c.kind == 'node' and (not filt or filt in c.name)]


def plain_types(model):
    """True if every graph input and output is a tensor of a float, integer
    or bool type."""
    for v in list(model.graph.input) + list(model.graph.output):
        t = v.type
        if t.WhichOneof('value') != 'tensor_type' or t.tensor_type.elem_type not in PLAIN:
            return False
    return True


def reason_of(message):
    """A short, groupable reason from Strata's first error line."""
    line = next((ln for ln in message.splitlines() if ': error: ' in ln), message.splitlines()[0] if message else '')
    line = line.split(': error: ', 1)[-1]
    line = re.sub(r"^[A-Za-z]+ node: ", '', line)
    return line[:200]


def _adam_per_node(case, inputs):
    """Adam's outputs from ONNX's own formula (the generator's apply_adam)
    with the node's attributes and the spec's defaults."""
    from onnx.backend.test.case.node.adam import apply_adam
    node = case.model.graph.node[0]
    at = {a.name: a.f for a in node.attribute}
    n = (len(inputs) - 2) // 4
    r, t = inputs[0], inputs[1]
    outs = [apply_adam(r, t, *[inputs[2 + k * n + i] for k in range(4)], at.get('norm_coefficient', 0.0),
                       at.get('norm_coefficient_post', 0.0), at.get('alpha', 0.9), at.get('beta', 0.999),
                       at.get('epsilon', 1e-6)) for i in range(n)]
    return [outs[i][k] for k in range(3) for i in range(n)]


def float_to_bfloat16_bits(x):
    """float32 -> bfloat16 bits (uint16), rounding to nearest, ties to even
    (a NaN stays a quiet NaN): ONNX's Cast from opset 19 on and ml_dtypes."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0x7fff + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), ((b >> 16) | 0x40).astype(np.uint16), r)


def _cast_to_bfloat16(case, inputs):
    return [float_to_bfloat16_bits(inputs[0])]


# Cases whose stored outputs contradict their own model, recomputed: the
# expected outputs of test_adam_multiple were computed with epsilon=1e-2,
# but its node has no epsilon attribute (the spec's default is 1e-6). Those
# of float -> bfloat16 casts truncate (onnx 1.12's generator takes the top
# 16 bits); Strata rounds to nearest even, as ONNX specifies from Cast-19
# on and numpy with ml_dtypes does.
RECOMPUTED = {'test_adam_multiple': _adam_per_node, 'test_cast_FLOAT_to_BFLOAT16': _cast_to_bfloat16,
              'test_castlike_FLOAT_to_BFLOAT16': _cast_to_bfloat16,
              'test_castlike_FLOAT_to_BFLOAT16_expanded': _cast_to_bfloat16}


# ---- Random cases: checked by properties ----

WIDE = 30000  # elements of the widened models' statistical checks


def widened(model, n):
    """A copy of model whose first input and every output are 1-D of n
    elements (the random nodes are elementwise: any shape is theirs)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.value_info[:]
    for v in [m.graph.input[0]] + list(m.graph.output):
        shape = v.type.tensor_type.shape
        del shape.dim[:]
        shape.dim.add().dim_value = n
    return m


def near(what, got, want, sd):
    """The statistical check: |got - want| within 6 standard deviations."""
    if abs(got - want) > 6 * sd:
        return '%s is %.4f, expected %.4f (6 sd = %.4f)' % (what, got, want, 6 * sd)
    return ''


def check_bernoulli(case, rep, inputs, got, want, target):
    """Values 0 and 1, with the mean p. The _expanded cases run the body
    ONNX 1.12 gives Bernoulli as a function -- Cast(Greater(
    RandomUniformLike(x), x)) -- which draws 1 with probability 1 - p, not
    p (the operator's spec says p): Strata runs the graph as written, so
    there the mean is 1 - p."""
    import strata.backend as backend
    y, p = got[0], np.asarray(inputs[0])
    flipped = case.name.endswith('_expanded')
    bad = set(np.unique(y).tolist()) - {0, 1}
    if bad:
        return 'values other than 0 and 1: %s' % sorted(bad)[:5]
    if np.any(y[p <= 0] != flipped) or np.any(y[p >= 1] != (not flipped)):
        return 'a probability of 0 or 1 drew the other value'
    # widened: a third of the elements at each of p = 0.1, 0.5, 0.9
    probs = np.array([0.1, 0.5, 0.9], dtype=p.dtype)
    wp = np.tile(probs, WIDE // 3)
    wy = backend.prepare(widened(case.model, wp.size), device='CPU', target=target).run([wp])[0]
    for q in probs:
        sel = wy[wp == q].astype(np.float64)
        mean = 1 - float(q) if flipped else float(q)
        msg = near('the mean where p = %g' % q, sel.mean(), mean, np.sqrt(q * (1 - q) / sel.size))
        if msg:
            return msg
    return ''


def check_dropout(case, rep, inputs, got, want, target):
    import strata.backend as backend
    x, ratio, t = np.asarray(inputs[0]), np.asarray(inputs[1]), np.asarray(inputs[2])
    scale = np.float32(1) / (np.float32(1) - ratio.astype(np.float32))
    kept = (x * scale).astype(x.dtype)
    y = got[0]
    if not np.all((y == 0) | (y == kept)):
        return 'an output element is neither 0 nor x / (1 - ratio)'
    if len(got) > 1:
        mask = got[1]
        if mask.dtype != np.bool_ or np.any(y[mask] != kept[mask]) or np.any(y[~mask] != 0):
            return 'the mask disagrees with the output'
    wx = np.linspace(1, 2, WIDE, dtype=x.dtype)  # no zeros: a kept element is nonzero
    wy = backend.prepare(widened(case.model, wx.size), device='CPU', target=target).run([wx, ratio, t])[0]
    q = 1.0 - float(ratio)
    return near('the kept fraction', float(np.mean(wy != 0)), q, np.sqrt(q * (1 - q) / wx.size))


RANDOM = {name: check_bernoulli for name in ('test_bernoulli', 'test_bernoulli_double', 'test_bernoulli_seed',
                                             'test_bernoulli_expanded', 'test_bernoulli_double_expanded',
                                             'test_bernoulli_seed_expanded')}
RANDOM.update({name: check_dropout for name in ('test_training_dropout', 'test_training_dropout_default',
                                               'test_training_dropout_mask', 'test_training_dropout_default_mask')})


def run_case(case, target):
    import strata
    import strata.backend as backend
    try:
        rep = backend.prepare(case.model, device='CPU', target=target)
    except strata.StrataError as e:
        return 'refused', reason_of(str(e))
    except onnx.checker.ValidationError as e:
        return 'refused', 'onnx.checker: ' + str(e).splitlines()[0][:150]
    for inputs, want in case.data_sets:
        if case.name in RECOMPUTED:
            want = [np.asarray(v).astype(np.asarray(w).dtype) for v, w in zip(RECOMPUTED[case.name](case, inputs), want)]
        try:
            got = rep.run(list(inputs))
        except strata.StrataError as e:
            return 'run error', reason_of(str(e))
        if len(got) != len(want):
            return 'wrong', '%d outputs, %d expected' % (len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            w = np.asarray(w)
            if g.dtype != w.dtype or g.shape != w.shape:
                return 'wrong', 'output #%d is %s %s, expected %s %s' % (i, g.dtype, g.shape, w.dtype, w.shape)
            if case.name in RANDOM:
                continue
            try:
                np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.atol)
            except AssertionError:
                if g.dtype.kind == 'f':
                    err = float(np.nanmax(np.abs(g.astype(np.float64) - w.astype(np.float64)))) if g.size else 0.0
                else:
                    err = int(np.count_nonzero(g != w))
                return 'wrong', 'output #%d differs (max abs error / differing elements: %s)' % (i, err)
        if case.name in RANDOM:
            try:
                why = RANDOM[case.name](case, rep, inputs, got, want, target)
            except strata.StrataError as e:
                return 'run error', reason_of(str(e))
            if why:
                return 'wrong', why
    return ('property pass' if case.name in RANDOM else 'pass'), ''


def worker(args):
    """Runs cases[start::step] in order, one JSON line per case, preceded by
    a 'start' line so that the parent can name a case that crashes."""
    all_cases = cases(args.filter)
    for i in range(args.start, len(all_cases), args.step):
        c = all_cases[i]
        print(json.dumps({'start': i}), flush=True)
        status, reason = run_case(c, args.target)
        print(json.dumps({'i': i, 'status': status, 'reason': reason}), flush=True)


def drive(args, start, step, total, results):
    """Runs a worker over cases[start::step], restarting it after the case
    it crashed or hung on."""
    cmd = [sys.executable, os.path.abspath(__file__), args.workdir, '--worker', '--filter', args.filter or '',
           '--target', args.target, '--step', str(step)]
    nxt = start
    while nxt < total:
        p = subprocess.Popen(cmd + ['--start', str(nxt)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
        current = None
        timer = None
        for line in p.stdout:
            if timer:
                timer.cancel()
            msg = json.loads(line)
            if 'start' in msg:
                current = msg['start']
                timer = threading.Timer(args.timeout, p.kill)
                timer.start()
            else:
                results[msg['i']] = (msg['status'], msg['reason'])
                current, nxt = None, msg['i'] + step
        if timer:
            timer.cancel()
        rc = p.wait()
        if current is None:
            break
        results[current] = ('crash', 'exit status %d' % rc if rc >= 0 else 'signal %d' % -rc)
        nxt = current + step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--filter', default='')
    ap.add_argument('--target', default='cpu')
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('--min-pass', type=int, default=0)
    ap.add_argument('--expected', default='')
    ap.add_argument('--write-expected', default='')
    ap.add_argument('--worker', action='store_true')
    ap.add_argument('--start', type=int, default=0)
    ap.add_argument('--step', type=int, default=1)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    os.makedirs(args.workdir, exist_ok=True)
    all_cases = cases(args.filter)
    results = {}
    threads = [threading.Thread(target=drive, args=(args, j, args.jobs, len(all_cases), results))
               for j in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counts = collections.Counter()
    reasons = collections.Counter()
    with open(os.path.join(args.workdir, 'node-tests.tsv'), 'w') as f:
        for i, c in enumerate(all_cases):
            status, reason = results.get(i, ('crash', 'no result'))
            group = 'eligible' if plain_types(c.model) else 'other types'
            counts[(group, status)] += 1
            if status not in ('pass', 'property pass'):
                reasons[(status, reason)] += 1
            f.write('%s\t%s\t%s\t%s\n' % (c.name, group, status, reason))
    eligible = sum(n for (g, _), n in counts.items() if g == 'eligible')
    passed = counts[('eligible', 'pass')] + counts[('eligible', 'property pass')]
    print('node tests: %d cases (%d with float, integer and bool tensors only, %d with other types)' %
          (len(all_cases), eligible, len(all_cases) - eligible))
    for group in ('eligible', 'other types'):
        print('  %s: %s' % (group, ', '.join('%s %d' % (s, counts[(group, s)])
                                             for s in ('pass', 'property pass', 'refused', 'run error', 'wrong',
                                                       'crash'))))
    print('passed: %d of %d eligible (%.1f%%): %d exactly, %d random cases by properties' %
          (passed, eligible, 100.0 * passed / max(eligible, 1), counts[('eligible', 'pass')],
           counts[('eligible', 'property pass')]))
    print('most common reasons:')
    for (status, reason), n in reasons.most_common(25):
        print('  %4d  %s: %s' % (n, status, reason))
    bad = sum(n for (g, s), n in counts.items() if s in ('wrong', 'crash'))
    print('wrong or crashed: %d' % bad)
    for i, c in enumerate(all_cases):
        status, reason = results.get(i, ('crash', 'no result'))
        if status in ('wrong', 'crash'):
            print('  %s %s: %s' % (status.upper(), c.name, reason))
    if passed < args.min_pass:
        print('FAIL: %d eligible cases pass, fewer than the %d expected' % (passed, args.min_pass))
    failing = {c.name: results.get(i, ('crash', 'no result'))
               for i, c in enumerate(all_cases)
               if plain_types(c.model) and results.get(i, ('',))[0] not in ('pass', 'property pass')}
    if args.write_expected:
        with open(args.write_expected, 'w') as f:
            f.write('# ONNX node tests (float, integer and bool tensors only) that Strata does not pass, with\n'
                    '# the reason it gives. This list may only shrink: see node_tests.py --expected.\n')
            for name in sorted(failing):
                f.write('%s\t%s: %s\n' % (name, failing[name][0], failing[name][1]))
    listed_bad = 0
    if args.expected:
        listed = {}
        with open(args.expected) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    name, _, why = line.rstrip('\n').partition('\t')
                    listed[name] = why
        known = {c.name for c in all_cases}
        for name in sorted(failing):
            if name not in listed:
                listed_bad += 1
                print('FAIL: %s is not on the expected-failure list: %s: %s' % ((name,) + failing[name]))
        for name in sorted(listed):
            if name in known and name not in failing:
                listed_bad += 1
                print('FAIL: %s passes now: take it off the expected-failure list' % name)
        print('expected failures: %d listed, %d failing' % (len(listed), len(failing)))
    return 1 if bad or listed_bad or passed < args.min_pass else 0


if __name__ == '__main__':
    sys.exit(main())
