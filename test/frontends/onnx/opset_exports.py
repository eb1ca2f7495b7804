"""One PyTorch network (convolution, batch norm, pooling, padding, clamp,
nearest upsampling, slicing, concat, linear, log-softmax) exported at opsets
9, 10, 11 and 13 by torch.onnx and converted down to 7 and 8 by ONNX's
version converter; each model runs through strata-run and must match
PyTorch (max abs error <= 1e-4 * output range) and the others.
Usage: opset_exports.py WORKDIR"""
import os
import subprocess
import sys
import warnings

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import version_converter

warnings.filterwarnings('ignore')
work = sys.argv[1]
os.makedirs(work, exist_ok=True)
torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.bn = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8)
        self.c2 = torch.nn.Conv2d(8, 8, 3, stride=2)
        self.fc = torch.nn.Linear(8 * 2 * 3 * 2, 10)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.bn(self.c1(x))), 2)
        y = torch.clamp(self.c2(F.pad(y, (1, 0, 2, 1))), -1, 1)
        z = F.interpolate(y, scale_factor=2, mode='nearest')[:, :, 1:-1, 2:]
        y = F.avg_pool2d(torch.cat([z, z * 0.5], 1), (3, 2)).flatten(1)
        return F.log_softmax(self.fc(y), dim=1)


model = Net()
model.bn.running_mean.normal_(0, 0.1)
model.bn.running_var.uniform_(0.5, 1.5)
model.eval()
x = torch.randn(1, 3, 16, 16)
with torch.no_grad():
    want = model(x).numpy()
np.save(os.path.join(work, 'in.npy'), x.numpy())
paths = {}
for opset in (9, 10, 11, 13):
    paths[opset] = os.path.join(work, 'net_opset%d.onnx' % opset)
    torch.onnx.export(model, x, paths[opset], opset_version=opset, input_names=['x'], output_names=['y'])
for opset in (7, 8):
    paths[opset] = os.path.join(work, 'net_opset%d.onnx' % opset)
    onnx.save(version_converter.convert_version(onnx.load(paths[9]), opset), paths[opset])
failed, outs, scale = False, {}, float(np.ptp(want))
for opset in sorted(paths):
    got_version = [o.version for o in onnx.load(paths[opset]).opset_import if o.domain in ('', 'ai.onnx')][0]
    out = os.path.join(work, 'out%d.npy' % opset)
    p = subprocess.run(['strata-run', paths[opset], '--quiet', '--input', os.path.join(work, 'in.npy'), '--output', out],
                       capture_output=True, text=True)
    if p.returncode != 0 or got_version != opset:
        print('opset %d: FAIL (model opset %d) %s' % (opset, got_version, p.stderr.strip()))
        failed = True
        continue
    outs[opset] = np.load(out)
    err = float(np.abs(outs[opset] - want).max())
    ok = outs[opset].shape == want.shape and err <= 1e-4 * scale
    failed |= not ok
    print('opset %d: %s max abs error vs PyTorch %.3g (output range %.3g)' % (opset, 'OK' if ok else 'FAIL', err, scale))
spread = max(float(np.abs(o - outs[13]).max()) for o in outs.values()) if 13 in outs else float('inf')
failed |= not spread <= 1e-4 * scale
print('largest difference between opsets: %.3g' % spread)
sys.exit(1 if failed else 0)
