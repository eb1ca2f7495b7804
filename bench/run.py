"""Measures Strata against its peers (called by bench/run). Every number in
the table comes from this run on this machine: medians after a warm-up."""
import os
import platform
import re
import subprocess
import sys
import time

import numpy as np
import torch
import torchvision

WORK = sys.argv[1]
WRITE_DOCS = '--write-docs' in sys.argv
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


def torch_ms(fn, threads, repeats=REPEATS):
    torch.set_num_threads(threads)
    with torch.no_grad():
        fn()
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


def models():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=312, nhead=12, dim_feedforward=1248, dropout=0.0, batch_first=True)
    specs = [('ResNet-18', torchvision.models.resnet18(weights=None), (1, 3, 224, 224), 1.82e9),
             ('MobileNetV2', torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224), 0.30e9 * 2),
             ('TransformerEncoder 4x312 seq128', torch.nn.TransformerEncoder(layer, num_layers=4), (1, 128, 312), None)]
    for name, model, dims, _ in specs:
        model.eval()
        path = os.path.join(WORK, re.sub(r'\W+', '_', name) + '.onnx')
        if not os.path.exists(path):
            torch.onnx.export(model, torch.randn(*dims), path, opset_version=14)
        yield name, model, dims, path


def main():
    peak = max(float(subprocess.run([os.path.join(WORK, 'peak')], check=True, capture_output=True, text=True).stdout)
               for _ in range(3))  # best of three: the VM's clock varies
    rows = []
    for m, n, k in [(256, 256, 256), (1024, 1024, 1024), (1, 768, 3072)]:
        mlir = os.path.join(WORK, 'sgemm_%dx%dx%d.mlir' % (m, n, k))
        with open(mlir, 'w') as f:
            f.write('func.func @mm(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n'
                    '  %%c = "nn.matmul"(%%a, %%b) : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>\n'
                    '  return %%c : tensor<%dx%dxf32>\n}\n' % (m, k, k, n, m, n, m, k, k, n, m, n, m, n))
        flops = 2.0 * m * n * k
        a, b = torch.randn(m, k), torch.randn(k, n)
        s = strata_ms(mlir, repeats=3 if m * n * k > 1e8 else REPEATS)
        peers = {'OpenBLAS': openblas_ms(m, n, k, 1), 'PyTorch': torch_ms(lambda: a @ b, 1)}
        rows.append(('sgemm %dx%dx%d' % (m, n, k), s, peers, flops))
    for name, model, dims, path in models():
        x = torch.randn(*dims)
        s = strata_ms(path, repeats=3)
        peers = {'ONNX Runtime': ort_ms(path, dims, 1), 'PyTorch': torch_ms(lambda: model(x), 1),
                 'ONNX Runtime 2T': ort_ms(path, dims, 2), 'PyTorch 2T': torch_ms(lambda: model(x), 2)}
        rows.append((name, s, peers, None))
    header = '| workload | Strata ms (1 thread) | peer | peer ms | Strata / peer | Strata GFLOP/s (% of peak) |'
    lines = ['machine: %s; measured FMA peak %.1f GFLOP/s per core' % (cpu_model(), peak), '', header, '|---|---|---|---|---|---|']
    for name, s, peers, flops in rows:
        for i, (peer, ms) in enumerate(peers.items()):
            gf = '%.2f (%.1f%%)' % (flops / s / 1e6, 100 * flops / s / 1e6 / peak) if flops and i == 0 else ''
            lines.append('| %s | %s | %s | %.3f | %.1fx | %s |' % (name if i == 0 else '', '%.3f' % s if i == 0 else '',
                                                               peer, ms, s / ms, gf))
    table = '\n'.join(lines)
    print(table)
    if WRITE_DOCS:
        doc = os.path.join(ROOT, 'docs', 'performance.md')
        text = open(doc).read()
        start = text.index('<!-- bench:begin -->')
        end = text.index('<!-- bench:end -->')
        open(doc, 'w').write(text[:start] + '<!-- bench:begin -->\n' + table + '\n' + text[end:])


if __name__ == '__main__':
    main()
