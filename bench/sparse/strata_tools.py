"""Calling Strata's tools from the sparse bench: import, the sparse passes
through strata-opt, and timed runs through strata-run (medians of
`--repeat N` after strata-run's own warm-up run)."""
import os
import re
import subprocess

import numpy as np


class ToolError(Exception):
    """A Strata tool failed; the message carries its stderr."""


def _run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise ToolError('%s: exit %d\n%s' % (' '.join(cmd), p.returncode, p.stderr.strip()[-2000:]))
    return p


def import_onnx(onnx_path):
    mlir = os.path.splitext(onnx_path)[0] + '.mlir'
    if not os.path.exists(mlir) or os.path.getmtime(mlir) < os.path.getmtime(onnx_path):
        _run(['strata-import', onnx_path, '-o', mlir])
    return mlir


def opt(src, dst, args):
    """strata-opt src ARGS -o dst; returns its stderr (reports go there)."""
    return _run(['strata-opt', src] + list(args) + ['-o', dst]).stderr


def run(model, repeats, threads=1, extra=(), env=None, output=None, full=False):
    """strata-run MODEL --repeat N --quiet: (median ms, compile ms), and its
    stdout + stderr when `full`."""
    cmd = ['strata-run', model, '--quiet', '--repeat', str(repeats), '--threads', str(threads)] + list(extra)
    if output:
        cmd += ['--output', output]
    p = _run(cmd, env=dict(os.environ, **(env or {})))
    out = p.stdout
    median = float(re.search(r'median ([0-9.]+) ms', out).group(1))
    compiled = float(re.search(r'compiled \S+ in ([0-9.]+) ms', out).group(1))
    return (median, compiled, out + p.stderr) if full else (median, compiled)


def diff(out, ref):
    """(max abs difference, that over max |ref|) between two .npy files or arrays."""
    a = np.load(out) if isinstance(out, str) else out
    b = np.load(ref) if isinstance(ref, str) else ref
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        raise ToolError('output shape %s differs from the reference %s' % (a.shape, b.shape))
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    return err, err / max(float(np.max(np.abs(b))), 1e-30)
