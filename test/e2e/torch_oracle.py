"""Checks nn op semantics against PyTorch, an independent oracle.

Each case is one nn function and the torch expression that ONNX's definition
of the op corresponds to. Inputs are seeded random numpy arrays; the
interpreter (strata-run --interpret) and the compiled code (strata-run) must
both match torch within tolerance. Usage: torch_oracle.py CASES.py WORKDIR
where CASES.py defines CASES = [Case(...), ...]."""
import os
import runpy
import subprocess
import sys

import numpy as np
import torch

torch.set_grad_enabled(False)
NP_TO_MLIR = {np.float32: 'f32', np.float64: 'f64', np.int64: 'i64', np.int32: 'i32', np.bool_: 'i1'}


class Case:
    """name: function name; inputs: list of (shape, dtype[, (lo, hi)]);
    body: MLIR lines using %arg0.. and defining %r; result: result type;
    torch_fn: callable on torch tensors giving the expected output."""

    def __init__(self, name, inputs, body, result, torch_fn, rtol=1e-4, atol=1e-4):
        self.name, self.inputs, self.body, self.result = name, inputs, body, result
        self.torch_fn, self.rtol, self.atol = torch_fn, rtol, atol


def tensor_type(shape, dtype):
    dims = 'x'.join(str(d) for d in shape)
    return 'tensor<%s%s>' % (dims + 'x' if shape else '', NP_TO_MLIR[dtype])


def make_inputs(case, rng):
    arrays = []
    for spec in case.inputs:
        shape, dtype = spec[0], spec[1]
        lo, hi = spec[2] if len(spec) > 2 else (-1.0, 1.0)
        if dtype == np.bool_:
            arrays.append(rng.random(shape) < 0.5)
        elif np.issubdtype(dtype, np.integer):
            arrays.append(rng.integers(int(lo), int(hi), size=shape).astype(dtype))
        else:
            arrays.append(rng.uniform(lo, hi, size=shape).astype(dtype))
    return arrays


def run(case, workdir, rng):
    arrays = make_inputs(case, rng)
    args = ', '.join('%%arg%d: %s' % (i, tensor_type(a.shape, a.dtype.type)) for i, a in enumerate(arrays))
    text = 'func.func @%s(%s) -> %s {\n%s\n  return %%r : %s\n}\n' % (
        case.name, args, case.result, '\n'.join('  ' + line for line in case.body), case.result)
    mlir = os.path.join(workdir, case.name + '.mlir')
    with open(mlir, 'w') as f:
        f.write(text)
    ins = []
    for i, a in enumerate(arrays):
        path = os.path.join(workdir, '%s.in%d.npy' % (case.name, i))
        np.save(path, a)
        ins += ['--input', path]
    want = case.torch_fn(*[torch.from_numpy(a) for a in arrays]).numpy()
    problems = []
    for mode in ('interpret', 'jit'):
        out = os.path.join(workdir, '%s.%s.npy' % (case.name, mode))
        cmd = ['strata-run', mlir, '--quiet', '--output', out] + ins + (['--interpret'] if mode == 'interpret' else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            problems.append('%s failed: %s' % (mode, p.stderr.strip()))
            continue
        got = np.load(out)
        if got.shape != want.shape:
            problems.append('%s shape %s, torch %s' % (mode, got.shape, want.shape))
        elif not np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=case.rtol, atol=case.atol, equal_nan=True):
            err = np.nanmax(np.abs(got.astype(np.float64) - want.astype(np.float64)))
            problems.append('%s differs from torch by %g' % (mode, err))
    return problems


def main():
    cases = runpy.run_path(sys.argv[1], init_globals={'Case': Case, 'torch': torch, 'np': np})['CASES']
    workdir = sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    rng = np.random.default_rng(1234)
    failed = 0
    for case in cases:
        problems = run(case, workdir, rng)
        print('%s: %s' % (case.name, 'OK' if not problems else 'FAIL ' + '; '.join(problems)))
        failed += bool(problems)
    print('%d cases, %d failed' % (len(cases), failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
