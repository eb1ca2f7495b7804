"""Checks the trace of Inputs/stats.mlir against its outputs (numpy): the
whole tensor (the sink's vectorized blocks and the scalar tail), every other
row and every third column (strided views). min/max are float32 values and
must be exact; the mean is accumulated in float within blocks of the sink."""
import json
import sys

import numpy as np

doc = json.load(open(sys.argv[1]))
outputs = [np.load(p) for p in sys.argv[2:5]]
recs = doc['strataTrace']['records']
by_op = {}
for r in recs:
    by_op.setdefault(r['op'], []).append(r)
assert len(by_op['nn.add']) == 1 and len(by_op['nn.slice']) == 2, by_op.keys()
pairs = [(by_op['nn.add'][0], outputs[0])]
pairs += [(r, v) for r in by_op['nn.slice'] for v in outputs[1:] if r['shape'] == list(v.shape)]
assert len(pairs) == 3, 'the slices should have distinct shapes'

for rec, values in pairs:
    assert rec['shape'] == list(values.shape), rec
    nan, inf = int(np.isnan(values).sum()), int(np.isinf(values).sum())
    assert (rec['nan'], rec['inf']) == (nan, inf), (rec, nan, inf)
    finite = values[np.isfinite(values)]
    assert nan > 0 and inf > 0 and finite.min() < 0, 'the input should give NaN, Inf and negatives'
    assert np.float32(rec['min']) == finite.min(), (rec, finite.min())
    assert np.float32(rec['max']) == finite.max(), (rec, finite.max())
    mean = finite.astype(np.float64).mean()
    assert abs(rec['mean'] - mean) <= 1e-6 * np.abs(finite).astype(np.float64).mean(), (rec, mean)
    print('%s %s: %d NaN, %d Inf, %d finite: ok' % (rec['op'], rec['shape'], nan, inf, finite.size))
