"""Dynamic-shape models from PyTorch (issue 19): a CNN with a dynamic batch
and resolution (residual blocks, strided and padded convolutions, max and
global pooling, a classifier) and a transformer encoder with a dynamic batch
and sequence length, exported with dynamic axes. Each compiles once and runs
at every shape of a sweep (strata-run --shapes --compare: against the
interpreter; its intermediates from one arena plan per shape class, planned
once per class and checked for overlaps), and at some of those shapes its outputs are checked against
PyTorch's to 1e-3 of the output range.

Usage: dyn_models.py WORKDIR    (strata-run on PATH; Debian's python3)"""
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
work = sys.argv[1]
os.makedirs(work, exist_ok=True)


class Block(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.a = nn.Conv2d(c_in, c_out, 3, stride, 1)
        self.b = nn.Conv2d(c_out, c_out, 3, 1, 1)
        self.skip = nn.Conv2d(c_in, c_out, 1, stride) if stride != 1 or c_in != c_out else nn.Identity()

    def forward(self, x):
        return torch.relu(self.b(torch.relu(self.a(x))) + self.skip(x))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 5, 2, 2)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.blocks = nn.Sequential(Block(8, 8, 1), Block(8, 16, 2))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        y = self.blocks(self.pool(torch.relu(self.stem(x))))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(y, 1), 1))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 32)
        self.enc = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)
        self.out = nn.Linear(32, 5)

    def forward(self, ids):
        return self.out(self.enc(self.emb(ids)))


MODELS = [
    ('cnn', Cnn().eval(), 'x', torch.randn(1, 3, 32, 32), {0: 'N', 2: 'H', 3: 'W'},
     [(1, 3, 17, 23), (2, 3, 32, 32), (1, 3, 64, 40), (3, 3, 9, 9), (1, 3, 96, 96)]),
    ('encoder', Encoder().eval(), 'ids', torch.randint(0, 50, (2, 7)), {0: 'B', 1: 'S'},
     [(1, 1), (2, 7), (1, 33), (3, 16), (1, 64)]),
]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.stdout.write(p.stdout + p.stderr)
    return p


failed = 0
for name, model, inp, sample, axes, shapes in MODELS:
    path = os.path.join(work, name + '.onnx')
    torch.onnx.export(model, sample, path, input_names=[inp], output_names=['y'],
                      dynamic_axes={inp: axes, 'y': {0: axes[0]}}, opset_version=17)
    sweep = os.path.join(work, name + '.shapes')
    swept = shapes + shapes[:2]  # two classes again: served from their kept plans
    with open(sweep, 'w') as f:
        for s in swept:
            f.write('%s=%s\n' % (inp, 'x'.join(map(str, s))))
    p = run(['env', 'STRATA_SHAPE_PLAN_CHECK=1', 'strata-run', path, '--shapes', sweep, '--compare', '--quiet',
             '--atol', '1e-4', '--rtol', '1e-3'])
    ok = p.returncode == 0 and ('swept %d shapes through 1 compile' % len(swept)) in p.stdout
    # one arena plan per shape class, each computed once
    ok = ok and ('shape plans: %d computed' % len(shapes)) in p.stdout and p.stdout.count('plan kept') == 2
    print('%s sweep: %s' % (name, 'OK' if ok else 'FAILED'))
    failed += not ok
    for s in shapes[:3]:
        x = torch.randn(*s) if inp == 'x' else torch.randint(0, 50, s)
        with torch.no_grad():
            ref = model(x).numpy()
        xin, yout = os.path.join(work, name + '_in.npy'), os.path.join(work, name + '_out.npy')
        np.save(xin, x.numpy())
        p = run(['strata-run', path, '--input', xin, '--output', yout, '--quiet'])
        if p.returncode:
            print('%s %s vs torch: FAILED' % (name, s))
            failed += 1
            continue
        got = np.load(yout)
        span = float(ref.max() - ref.min()) or 1.0
        err = float(np.abs(got - ref).max()) / span if got.shape == ref.shape else float('inf')
        print('%s %s vs torch: %s' % (name, 'x'.join(map(str, s)), 'OK' if err <= 1e-3 else 'MISMATCH %g' % err))
        failed += err > 1e-3
sys.exit(1 if failed else 0)
