"""Validates the profile trace a GPU target adds to strata-run --trace-out
(targets/gpu/gpu_profile.h, runtime/instr.h).

usage: check_gpu_profile.py FILE TARGET ENTRY RUNS PROGRAM [OPS]
  PROGRAM: the plain (uninstrumented) model's kernel-level IR, as
  strata-opt --strata-gpu-kernels[-unfused|-fused] writes it: each
  gpu.launch_func is a kernel launch of a call, each memref.copy a copy.
  OPS: comma-separated nn op names each run's events must name.
Checks: one call event per run (track 1, `cat` "call", named ENTRY), and
per run one event per kernel launch and per copy of the plain model's
program (track 2), with a positive duration, a name, the run, the target,
increasing step numbers, ops/op_ids of one length (nodes, the ONNX node
names, no longer), and times inside the call's; the call's launch and copy
counts agree. Prints run 0's events: kind, name, ops (nodes).
"""
import collections
import json
import math
import re
import sys

path, target, entry, runs, program = sys.argv[1:6]
runs = int(runs)
want_ops = set(sys.argv[6].split(',')) if len(sys.argv) > 6 else set()
text = open(program).read()
kernels = len(re.findall(r'gpu\.launch_func ', text))
copies = len(re.findall(r'memref\.copy ', text))
assert kernels > 0, 'no kernel in %s' % program

with open(path) as f:
    doc = json.load(f)
trace = doc['strataTrace']
assert trace['runs'] == runs, 'runs %r, expected %d' % (trace['runs'], runs)
assert trace['dropped'] == 0 and trace['records'] == []
calls = {}
steps = collections.defaultdict(list)
for e in doc['traceEvents']:
    for key in ('name', 'cat', 'ph', 'ts', 'dur', 'pid', 'tid', 'args'):
        assert key in e, 'event without %r: %r' % (key, e)
    a = e['args']
    assert e['ph'] == 'X' and e['pid'] == 1 and e['name'], e
    assert math.isfinite(e['ts']) and e['ts'] >= 0, e
    assert math.isfinite(e['dur']) and e['dur'] > 0, 'duration not positive: %r' % e
    assert a['target'] == target and 0 <= a['run'] < runs, e
    if e['cat'] == 'call':
        assert e['tid'] == 1 and e['name'] == entry and a['run'] not in calls, e
        calls[a['run']] = e
    else:
        assert e['cat'] in ('kernel', 'copy') and e['tid'] == 2, e
        assert a['kernel'] == e['name'], e
        assert (e['cat'] == 'copy') == e['name'].startswith('copy #'), e
        assert len(a['ops']) == len(a['op_ids']) >= len(a['nodes']), e
        assert all(isinstance(o, str) and o.startswith('nn.') for o in a['ops']), e
        steps[a['run']].append(e)
assert sorted(calls) == list(range(runs)), 'call events of runs %r' % sorted(calls)
for run in range(runs):
    evs, call = steps[run], calls[run]
    got_k = sum(e['cat'] == 'kernel' for e in evs)
    got_c = len(evs) - got_k
    assert (got_k, got_c) == (kernels, copies), \
        'run %d: %d kernel and %d copy events; the program has %d kernels and %d copies' % (
            run, got_k, got_c, kernels, copies)
    assert (call['args']['launches'], call['args']['copies']) == (kernels, copies), call
    order = [e['args']['step'] for e in evs]
    assert order == sorted(set(order)), 'run %d: steps %r' % (run, order)
    assert len({e['name'] for e in evs if e['cat'] == 'kernel'}) == kernels, 'a kernel twice'
    # The device's times fall inside the call's host time (1 ms of slack
    # for the two clocks' placement).
    for e in evs:
        assert e['ts'] >= call['ts'] - 1000 and e['ts'] + e['dur'] <= call['ts'] + call['dur'] + 1000, (e, call)
    named = {o for e in evs for o in e['args']['ops']}
    assert want_ops <= named, 'run %d: no event names %r' % (run, sorted(want_ops - named))
print('%s profile ok: %d runs, %d kernels and %d copies each' % (target, runs, kernels, copies))
# What run 0 launched, for FileCheck: each event's kind, name and nn ops.
for e in steps[0]:
    nodes = e['args']['nodes']
    print('  %s %s: %s%s' % (e['cat'], e['name'], ' '.join(e['args']['ops']) or '-',
                             ' (%s)' % ' '.join(nodes) if nodes else ''))
