"""Validates the JSON strata-run --trace-out writes (runtime/instr.h).

usage: check_json.py trace|profile FILE RUNS OPS...
  OPS: the expected ops as name:op_id:points, points a subset of "ba"
  (b = before, a = after). Checks the schema of every record or event, and
  coverage: each expected (op, point) seen exactly once per run, nothing else.
"""
import collections
import json
import math
import sys

kind, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
expected = {}
for spec in sys.argv[4:]:
    name, op_id, points = spec.split(':')
    for p in points:
        expected[(int(op_id), {'b': 'before', 'a': 'after'}[p])] = name

with open(path) as f:
    doc = json.load(f)
assert isinstance(doc.get('traceEvents'), list), 'no traceEvents list'
trace = doc['strataTrace']
assert trace['runs'] == runs, 'runs %r, expected %d' % (trace['runs'], runs)
assert trace['dropped'] == 0
seen = collections.Counter()

if kind == 'trace':
    assert doc['traceEvents'] == [], 'trace only: no profile events expected'
    for r in trace['records']:
        for key in ('run', 'op_id', 'op', 'point', 'index', 'shape', 'min', 'max', 'mean', 'nan', 'inf'):
            assert key in r, 'record without %r: %r' % (key, r)
        assert 0 <= r['run'] < runs
        assert expected.get((r['op_id'], r['point'])) == r['op'], 'unexpected record %r' % r
        assert all(isinstance(d, int) and d > 0 for d in r['shape'])
        assert r['nan'] >= 0 and r['inf'] >= 0
        if r['min'] is not None:
            assert r['min'] <= r['mean'] + 1e-6 and r['mean'] <= r['max'] + 1e-6, r
        seen[(r['run'], r['op_id'], r['point'], r['index'])] += 1
    # Once per point per run (per index: an op may have several inputs).
    assert all(c == 1 for c in seen.values()), 'a probe fired twice in a run'
    points = {(run, op, pt) for (run, op, pt, _) in seen}
    assert points == {(run, op, pt) for run in range(runs) for (op, pt) in expected}, \
        'coverage: %r' % sorted(points)
    print('trace ok: %d records, %d runs' % (len(trace['records']), runs))
else:
    assert trace['records'] == [], 'profile only: no trace records expected'
    ops = {op: name for (op, pt), name in expected.items()}
    for e in doc['traceEvents']:
        for key in ('name', 'ph', 'ts', 'dur', 'pid', 'tid', 'args'):
            assert key in e, 'event without %r: %r' % (key, e)
        assert e['ph'] == 'X'
        assert isinstance(e['ts'], (int, float)) and e['ts'] >= 0 and math.isfinite(e['ts'])
        assert isinstance(e['dur'], (int, float)) and e['dur'] >= 0
        assert isinstance(e['pid'], int) and isinstance(e['tid'], int)
        assert ops.get(e['args']['op_id']) == e['name'], 'unexpected event %r' % e
        seen[(e['args']['run'], e['args']['op_id'])] += 1
    assert set(seen) == {(run, op) for run in range(runs) for op in ops}, 'coverage: %r' % sorted(seen)
    assert all(c == 1 for c in seen.values()), 'an op timed twice in a run'
    print('profile ok: %d events, %d runs' % (len(doc['traceEvents']), runs))
