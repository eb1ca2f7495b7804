"""Checks the trace of Inputs/special.mlir against its outputs (numpy)."""
import json
import sys

import numpy as np

doc = json.load(open(sys.argv[1]))
s, l = np.load(sys.argv[2]), np.load(sys.argv[3])
recs = {r['op']: r for r in doc['strataTrace']['records']}
assert set(recs) == {'nn.sqrt', 'nn.relu', 'nn.log'}, recs.keys()


def check(rec, values):
    assert rec['shape'] == list(values.shape), rec
    nan, inf = int(np.isnan(values).sum()), int(np.isinf(values).sum())
    assert (rec['nan'], rec['inf']) == (nan, inf), (rec, nan, inf)
    finite = values[np.isfinite(values)]
    assert abs(rec['min'] - finite.min()) < 1e-6 and abs(rec['max'] - finite.max()) < 1e-6, rec
    assert abs(rec['mean'] - finite.mean()) < 1e-5, (rec, finite.mean())
    return nan, inf


nan, _ = check(recs['nn.sqrt'], s)
_, inf = check(recs['nn.log'], l)
assert nan > 0 and inf > 0, 'the input should give both NaN and Inf'
print('stats ok: %d NaN, %d Inf' % (nan, inf))
