"""Measures Strata against its peers (called by bench/run). Every number in
the table comes from this run on this machine: medians after a warm-up.

  run.py WORK [--write-docs] [--zoo-only] [--only NAME...]

--zoo-only runs the model zoo (zoo.py) alone and, with --write-docs,
rewrites only its section of docs/performance.md; --only restricts the zoo
(in either mode) to the named models."""
import ctypes
import os
import platform
import re
import subprocess
import sys
import time

import numpy as np
import torch
import torchvision

import fusion

WORK = sys.argv[1]
WRITE_DOCS = '--write-docs' in sys.argv
ZOO_ONLY = '--zoo-only' in sys.argv
ONLY = [a for a in sys.argv[sys.argv.index('--only') + 1:] if not a.startswith('--')] if '--only' in sys.argv else []
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORT_DIR = os.path.join(ROOT, 'bench', '.peers')
REPEATS = 5


def cpu_model():
    for line in open('/proc/cpuinfo'):
        if line.startswith('model name'):
            return line.split(':', 1)[1].strip()
    return platform.processor()


def strata_ms(path, extra=(), repeats=REPEATS):
    out = subprocess.run(['strata-run', path, '--quiet', '--repeat', str(repeats)] + list(extra),
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r'median ([0-9.]+) ms', out).group(1))


def aot_ms(path, threads, repeats=REPEATS):
    """The model compiled by strata-translate into an object and linked with
    examples/aot/run_model.c and libstrata_rt, timed by that program."""
    stem = os.path.splitext(path)[0]
    exe = stem + '_aot'
    if threads == 1:  # built once per run (the compiler may have changed since the last)
        subprocess.run(['strata-translate', path, '-o', stem + '_aot.o', '--header', stem + '_aot.h',
                        '--name', 'net'], check=True)
        subprocess.run(['cc', '-O2', '-I' + WORK, '-DMODEL_HEADER="%s"' % (stem + '_aot.h'), '-DENTRY=net_main',
                        os.path.join(ROOT, 'examples', 'aot', 'run_model.c'), stem + '_aot.o',
                        os.path.join(ROOT, 'build', 'runtime', 'libstrata_rt.a'), '-lm', '-lpthread', '-o', exe],
                       check=True)
    out = subprocess.run([exe, '--repeat', str(repeats), '--threads', str(threads)], check=True,
                         capture_output=True, text=True).stdout
    return float(re.search(r'median ([0-9.]+) ms', out).group(1))


def blas_threads(n):
    """torch.set_num_threads does not reach the BLAS Debian's PyTorch calls for
    matmul/linear (OpenBLAS once libopenblas-dev is installed, with its own
    threads): without this its "one thread" GEMMs ran on two."""
    for name in ('libblas.so.3', 'libopenblas.so.0'):
        try:
            ctypes.CDLL(name).openblas_set_num_threads(n)
            return
        except (OSError, AttributeError):
            pass


TORCH_BUDGET_MS = 3000  # a PyTorch measurement's timed runs take about this at most (3 runs at least)


def torch_ms(fn, threads, repeats=REPEATS):
    torch.set_num_threads(threads)
    blas_threads(threads)
    with torch.no_grad():
        a = time.perf_counter()
        fn()
        warm = (time.perf_counter() - a) * 1e3
        # Debian's PyTorch takes seconds a run on the larger transformers
        repeats = max(3, min(repeats, int(TORCH_BUDGET_MS / max(warm, 1e-3))))
        t = []
        for _ in range(repeats):
            a = time.perf_counter()
            fn()
            t.append((time.perf_counter() - a) * 1e3)
    return sorted(t)[len(t) // 2]


def ort_ms(path, dims, threads, repeats=REPEATS):
    env = dict(os.environ, NODE_PATH=os.path.join(ORT_DIR, 'node_modules'))
    out = subprocess.run(['node', os.path.join(ROOT, 'bench', 'ort_time.js'), path, str(list(dims)), str(threads), str(repeats)],
                         check=True, capture_output=True, text=True, env=env).stdout
    return float(out.strip())


def openblas_ms(m, n, k, threads, repeats=REPEATS):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([os.path.join(WORK, 'sgemm_openblas'), str(m), str(n), str(k), str(repeats)],
                         check=True, capture_output=True, text=True, env=env).stdout
    return float(out.strip())


def export(model, dims, name):
    path = os.path.join(WORK, re.sub(r'\W+', '_', name) + '.onnx')
    if not os.path.exists(path):
        torch.onnx.export(model, torch.randn(*dims), path, opset_version=14)
    return path


def conv_flops(conv, dims):
    h = (dims[2] + 2 * conv.padding[0] - conv.dilation[0] * (conv.kernel_size[0] - 1) - 1) // conv.stride[0] + 1
    w = (dims[3] + 2 * conv.padding[1] - conv.dilation[1] * (conv.kernel_size[1] - 1) - 1) // conv.stride[1] + 1
    return 2.0 * conv.out_channels * h * w * conv.in_channels // conv.groups * conv.kernel_size[0] * conv.kernel_size[1]


def conv_layers(model_name, model, dims):
    """The distinct Conv2d layers of a model (shape, stride, groups), found by running it once."""
    seen, found = set(), []

    def hook(conv, inputs, _):
        d = tuple(inputs[0].shape)
        key = (d, conv.out_channels, conv.kernel_size, conv.stride, conv.padding, conv.groups)
        if key not in seen:
            seen.add(key)
            found.append((conv, d))
    handles = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    with torch.no_grad():
        model(torch.randn(*dims))
    for h in handles:
        h.remove()
    for conv, d in found:
        kind = 'depthwise ' if conv.groups == conv.in_channels and conv.groups > 1 else ''
        name = '%s conv %s%dx%d/%d %d->%d @%dx%d' % (model_name, kind, conv.kernel_size[0], conv.kernel_size[1],
                                                      conv.stride[0], conv.in_channels, conv.out_channels, d[2], d[3])
        yield name, conv, d, conv_flops(conv, d)


def workloads():
    """(name, torch module, input dims, flops or None) for every model-level row."""
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=312, nhead=12, dim_feedforward=1248, dropout=0.0, batch_first=True)
    nets = [('ResNet-18', torchvision.models.resnet18(weights=None), (1, 3, 224, 224)),
            ('MobileNetV2', torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224))]
    for name, net, dims in nets:
        net.eval()
        yield from conv_layers(name, net, dims)
    yield 'softmax 12x128x128 (last axis)', torch.nn.Softmax(dim=-1), (1, 12, 128, 128), None
    yield 'layernorm 128x312', torch.nn.LayerNorm(312), (1, 128, 312), None
    yield 'layernorm 128x768', torch.nn.LayerNorm(768), (1, 128, 768), None
    for name, net, dims in nets:
        yield name, net, dims, None
    yield 'TransformerEncoder 4x312 seq128', torch.nn.TransformerEncoder(layer, num_layers=4).eval(), (1, 128, 312), None


COLUMNS = ['upstream MLIR', 'OpenBLAS', 'ONNX Runtime', 'ONNX Runtime 2T', 'PyTorch', 'PyTorch 2T']
PEERS_1T = ['OpenBLAS', 'ONNX Runtime', 'PyTorch']  # "x best" compares against these
UPSTREAM_MAX_FLOPS = 2e9  # the scalar baseline takes minutes beyond this; skipped


def peer_rows():
    """The main table (sgemm, layers, whole models) and the whole models'
    (name, ONNX path) for the sections after it."""
    peak = max(float(subprocess.run([os.path.join(WORK, 'peak')], check=True, capture_output=True, text=True).stdout)
               for _ in range(7))  # best of seven: the VM's clock varies (the first runs ramp up)
    rows, models = [], []
    for m, n, k in [(256, 256, 256), (1024, 1024, 1024), (2048, 2048, 2048), (1, 768, 3072)]:
        mlir = os.path.join(WORK, 'sgemm_%dx%dx%d.mlir' % (m, n, k))
        with open(mlir, 'w') as f:
            f.write('func.func @mm(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n'
                    '  %%c = "nn.matmul"(%%a, %%b) : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>\n'
                    '  return %%c : tensor<%dx%dxf32>\n}\n' % (m, k, k, n, m, n, m, k, k, n, m, n, m, n))
        a, b = torch.randn(m, k), torch.randn(k, n)
        s = {'Strata': strata_ms(mlir), 'Strata 2T': strata_ms(mlir, ['--threads', '2'])}
        peers = {'OpenBLAS': openblas_ms(m, n, k, 1), 'PyTorch': torch_ms(lambda: a @ b, 1),
                 'PyTorch 2T': torch_ms(lambda: a @ b, 2)}
        if 2.0 * m * n * k <= UPSTREAM_MAX_FLOPS:
            peers['upstream MLIR'] = strata_ms(mlir, ['--upstream-lowering'], repeats=1)
        rows.append(('sgemm %dx%dx%d' % (m, n, k), s, peers, 2.0 * m * n * k))
        print(rows[-1][0], file=sys.stderr)
    for name, model, dims, flops in workloads():
        path = export(model, dims, name)
        x = torch.randn(*dims)
        whole = flops is None and not name.startswith(('softmax', 'layernorm'))
        repeats = 20 if whole else REPEATS * 2
        s = {'Strata': strata_ms(path, repeats=repeats), 'Strata 2T': strata_ms(path, ['--threads', '2'], repeats=repeats)}
        if whole:
            s['AOT'], s['AOT 2T'] = aot_ms(path, 1, repeats), aot_ms(path, 2, repeats)
            models.append((name, path))
        peers = {'upstream MLIR': strata_ms(path, ['--upstream-lowering'], repeats=1),
                 'ONNX Runtime': ort_ms(path, dims, 1, repeats), 'ONNX Runtime 2T': ort_ms(path, dims, 2, repeats),
                 'PyTorch': torch_ms(lambda: model(x), 1, repeats), 'PyTorch 2T': torch_ms(lambda: model(x), 2, repeats)}
        rows.append((name, s, peers, flops))
        print(name, file=sys.stderr)
    lines = ['machine: %s; measured FMA peak %.1f GFLOP/s per core. Times in ms (medians). "Strata" is the JIT '
             '(strata-run), "AOT" the strata-translate object linked into a C program; "x best" is Strata (one '
             'thread) over the fastest one-thread peer among %s (below 1 = Strata faster); "2T gain" is Strata '
             'one thread over two; upstream MLIR is skipped above %.0e FLOP.'
             % (cpu_model(), peak, ', '.join(PEERS_1T), UPSTREAM_MAX_FLOPS), '',
             '| workload | Strata | Strata 2T | AOT | AOT 2T | ' + ' | '.join(COLUMNS) +
             ' | x best | 2T gain | Strata GFLOP/s (% of peak) |',
             '|---' * (len(COLUMNS) + 8) + '|']
    fmt = lambda v: '%.3f' % v if v is not None else '–'
    for name, s, peers, flops in rows:
        best = min(ms for peer, ms in peers.items() if peer in PEERS_1T)
        gf = '%.2f (%.1f%%)' % (flops / s['Strata'] / 1e6, 100 * flops / s['Strata'] / 1e6 / peak) if flops else ''
        lines.append('| %s | %s | %s | %s | %s | %s | %.2fx | %.2fx | %s |' % (
            name, fmt(s['Strata']), fmt(s['Strata 2T']), fmt(s.get('AOT')), fmt(s.get('AOT 2T')),
            ' | '.join(fmt(peers.get(c)) for c in COLUMNS), s['Strata'] / best, s['Strata'] / s['Strata 2T'], gf))
    return '\n'.join(lines), models


def write_docs(sections):
    """Replaces each (marker, body) section of docs/performance.md."""
    doc = os.path.join(ROOT, 'docs', 'performance.md')
    text = open(doc).read()
    for marker, body in sections:
        start = text.index('<!-- %s:begin -->' % marker)
        end = text.index('<!-- %s:end -->' % marker)
        text = text[:start] + '<!-- %s:begin -->\n' % marker + body + '\n' + text[end:]
    open(doc, 'w').write(text)


def main():
    flags = sys.argv[2:sys.argv.index('--only')] if '--only' in sys.argv else sys.argv[2:]
    unknown = [f for f in flags if f not in ('--write-docs', '--zoo-only')]
    if unknown:
        sys.exit('bench: unknown argument(s) %s; usage: run.py WORK [--write-docs] [--zoo-only] [--only NAME...]'
                 % ' '.join(unknown))
    import zoo  # the model zoo (issue 22)
    zoo.known(ONLY)  # a misspelt name fails now, not after the sections before the zoo
    if WRITE_DOCS and ONLY:
        print('bench: --only with --write-docs: the zoo section of docs/performance.md will hold only %s'
              % ', '.join(ONLY), file=sys.stderr)
    sections = []
    if not ZOO_ONLY:
        table, models = peer_rows()
        print(table)
        sections.append(('bench', table))
    zoo_table = zoo.rows(WORK, ONLY, sys.modules[__name__])
    print(zoo_table)
    sections.append(('zoo', zoo_table))
    if not ZOO_ONLY:
        fused = fusion.rows(models, WORK)
        print(fused)
        blocks = fusion.block_rows(WORK)
        print(blocks)
        import instr_overhead  # the instrumentation-overhead rows (issue 7)
        instr = instr_overhead.rows(models, WORK)
        print(instr)
        sections += [('fusion', fused), ('fusion-blocks', blocks), ('instr', instr)]
    if WRITE_DOCS:
        write_docs(sections)


if __name__ == '__main__':
    main()
