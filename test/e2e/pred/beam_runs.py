"""Runs the worked example (examples/predication/beam_step.py) in one
directory the way a user would: as written, predicated (masked, skip) and on
the interpreter, and prints 'DIR/MODE same' when the three outputs equal the
numpy reference exactly (dtype, shape, values), 'DIR/MODE DIFFERENT ...' or
'DIR/MODE FAILED ...' otherwise.

usage: beam_runs.py STRATA_RUN DIR"""
import os
import subprocess
import sys

import numpy as np

run, d = sys.argv[1:3]
names = ('beam_scores', 'beam_tokens', 'best_finished')
env = dict(os.environ, STRATA_CACHE_DIR='')
for mode, how in (('none', []), ('masked', ['--predicate', 'masked']), ('skip', ['--predicate', 'skip']),
                  ('interpret', ['--interpret'])):
    label = '%s/%s' % (os.path.basename(d), mode)
    outs = [os.path.join(d, '%s.%s.npy' % (mode, n)) for n in names]
    cmd = [run, os.path.join(d, 'beam_step.onnx'), '--quiet', '--input', os.path.join(d, 'scores.npy'),
           '--input', os.path.join(d, 'tokens.npy')] + how
    for o in outs:
        cmd += ['--output', o]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        print('%s FAILED (exit %d): %s' % (label, p.returncode, p.stderr.strip()))
        continue
    bad = []
    for n, o in zip(names, outs):
        x, y = np.load(o), np.load(os.path.join(d, 'expect_%s.npy' % n))
        if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y, equal_nan=True):
            bad.append('%s: %s%s %s vs expected %s%s %s' % (n, x.dtype, x.shape, x, y.dtype, y.shape, y))
    print('%s %s' % (label, 'DIFFERENT ' + '; '.join(bad) if bad else 'same'))
