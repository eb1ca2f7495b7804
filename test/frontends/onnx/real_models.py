"""Exports a real model with Debian's PyTorch/torchvision (random weights, no
downloads), runs it with strata-run, and compares with PyTorch's output:
max abs error <= 1e-3 * (output range) on the cpu target, 1e-4 on a GPU target
(issue 16's bound), once per fusion mode of strata-run; on a GPU target it also
prints the kernel launches a call makes (strata-run --stats).
Usage: real_models.py NAME WORKDIR [MODE,MODE...] [OPSET] [TARGET]  (modes:
none, fixed, dnnfusion; default fixed; opset default 14; target default cpu;
the mode `export` only writes WORKDIR/NAME_opsetN.onnx and its input)"""
import os
import subprocess
import sys

import numpy as np
import torch
import torchvision

name, work = sys.argv[1], sys.argv[2]
modes = sys.argv[3].split(',') if len(sys.argv) > 3 else ['fixed']
opset = int(sys.argv[4]) if len(sys.argv) > 4 else 14
target = sys.argv[5] if len(sys.argv) > 5 else 'cpu'
os.makedirs(work, exist_ok=True)
torch.manual_seed(0)
if name == 'resnet18':
    model, x = torchvision.models.resnet18(weights=None), torch.randn(1, 3, 224, 224)
elif name == 'mobilenet_v2':
    model, x = torchvision.models.mobilenet_v2(weights=None), torch.randn(1, 3, 224, 224)
elif name == 'transformer_encoder':
    layer = torch.nn.TransformerEncoderLayer(d_model=312, nhead=12, dim_feedforward=1248, dropout=0.0, batch_first=True)
    model, x = torch.nn.TransformerEncoder(layer, num_layers=4), torch.randn(1, 128, 312)
else:
    sys.exit('unknown model ' + name)
# Non-degenerate normalization statistics, so outputs are not vanishingly small.
for m in model.modules():
    if isinstance(m, torch.nn.BatchNorm2d):
        m.weight.data.uniform_(0.5, 1.5)
        m.bias.data.normal_(0, 0.1)
        m.running_mean.normal_(0, 0.1)
        m.running_var.uniform_(0.5, 1.5)
model.eval()
with torch.no_grad():
    want = model(x).numpy()
path = os.path.join(work, '%s_opset%d.onnx' % (name, opset))
torch.onnx.export(model, x, path, opset_version=opset, input_names=['input'], output_names=['output'])
np.save(os.path.join(work, name + '.in.npy'), x.numpy())
if modes == ['export']:
    sys.exit(0)
failed = False
for mode in modes:
    out = os.path.join(work, name + '.' + mode + '.out.npy')
    p = subprocess.run(['strata-run', path, '--quiet', '--target', target, '--fusion', mode, '--input',
                        os.path.join(work, name + '.in.npy'), '--output', out] + ([] if target == 'cpu' else ['--stats']),
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('%s (fusion %s): strata-run failed:\n%s' % (name, mode, p.stderr))
    got = np.load(out)
    err = float(np.abs(got - want).max())
    rng = float(want.max() - want.min())
    ok = got.shape == want.shape and err <= (1e-3 if target == 'cpu' else 1e-4) * rng
    failed |= not ok
    for line in p.stdout.splitlines():
        if line.startswith('stats: '):
            print('%s (fusion %s) %s' % (name, mode, line))
    print('%s opset %d%s (fusion %s): %s max abs error %.3g, output range %.3g, relative %.3g' %
          (name, opset, '' if target == 'cpu' else ' on ' + target, mode, 'OK' if ok else 'MISMATCH', err, rng,
           err / rng))
sys.exit(1 if failed else 0)
