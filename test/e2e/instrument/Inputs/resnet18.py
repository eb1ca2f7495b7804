"""Instrumentation on torchvision's ResNet-18 (random weights, exported to
ONNX with Debian's PyTorch): the `flops` tool's counts on every op equal
independent counts, over the convolutions the one from PyTorch forward
hooks (2 * output elements * Cin/g * Kh * Kw per Conv2d), in total and per
op kind the one from the ONNX graph (onnx_flops.py), the `profile` tool's
JSON is a valid Chrome trace with one event per op per run, and DNNFusion's
planning gives the same blocks with the `trace` tool's probes as without.
Usage: resnet18.py WORKDIR"""
import collections
import json
import os
import re
import subprocess
import sys

import torch
import torchvision

import onnx_flops

work = sys.argv[1]
os.makedirs(work, exist_ok=True)
torch.manual_seed(0)
model, x = torchvision.models.resnet18(weights=None), torch.randn(1, 3, 224, 224)
model.eval()
flops = 0


def count(module, inputs, output):
    global flops
    if isinstance(module, torch.nn.Conv2d):
        kh, kw = module.kernel_size
        flops += 2 * output.numel() * (module.in_channels // module.groups) * kh * kw


hooks = [m.register_forward_hook(count) for m in model.modules()]
with torch.no_grad():
    model(x)
for h in hooks:  # the export runs the model again
    h.remove()
path = os.path.join(work, 'resnet18.onnx')
torch.onnx.export(model, x, path, opset_version=14, input_names=['input'], output_names=['output'])


def run(*args):
    p = subprocess.run(['strata-run', path, '--quiet'] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('strata-run %s failed:\n%s' % (' '.join(args), p.stderr))
    return p


# The flops tool on every op (the interpreter runs: the tool inserts nothing,
# so the static count needs no compiled code). Its convolutions against the
# PyTorch hooks, its total and its per-op-kind sums against the count from
# the ONNX graph (onnx_flops.py: node attributes and inferred shapes).
p = run('--interpret', '--instrument', 'tool=flops')
total = re.search(r'instrument flops: total FLOPs (\d+) bytes \d+ in (\d+) ops', p.stderr)
assert total, p.stderr
strata = collections.defaultdict(lambda: [0, 0])  # op name -> [ops, FLOPs]
for name, f in re.findall(r'instrument flops: op_id \d+ (\S+) FLOPs (\d+) ', p.stderr):
    strata[name][0] += 1
    strata[name][1] += int(f)
convs, conv_ops = strata['nn.conv'][1], strata['nn.conv'][0]
print('flops: strata convs %d in %d ops, pytorch hooks %d: %s' %
      (convs, conv_ops, flops, 'OK' if convs == flops else 'MISMATCH'))

graph = collections.defaultdict(lambda: [0, 0])  # the same, from the ONNX graph
for node, f in onnx_flops.count(path):
    if node.op_type != 'Identity':  # the importer forwards its operand: no op
        kind = graph['nn.' + re.sub(r'(?<!^)(?=[A-Z])', '_', node.op_type).lower()]
        kind[0] += 1
        kind[1] += f
same = int(total.group(1)) == sum(f for _, f in graph.values()) and dict(strata) == dict(graph)
print('flops: strata total %s in %s ops, onnx graph %d in %d nodes: %s' %
      (total.group(1), total.group(2), sum(f for _, f in graph.values()),
       sum(n for n, _ in graph.values()), 'OK' if same else 'MISMATCH'))
if not same:
    for name in sorted(set(strata) | set(graph)):
        print('  %s: strata %s, onnx graph %s' % (name, strata.get(name), graph.get(name)))

trace = os.path.join(work, 'profile.json')
run('--instrument', 'tool=profile', '--trace-out', trace, '--repeat', '2')
doc = json.load(open(trace))
events = doc['traceEvents']
for e in events:
    assert e['ph'] == 'X' and e['dur'] >= 0 and e['ts'] >= 0, e
    assert isinstance(e['pid'], int) and isinstance(e['tid'], int) and e['name'].startswith('nn.'), e
per_run = {}
for e in events:
    per_run.setdefault(e['args']['run'], []).append(e['args']['op_id'])
assert sorted(per_run) == [0, 1, 2], sorted(per_run)
ids = [sorted(v) for v in per_run.values()]
assert all(v == ids[0] and len(set(v)) == len(v) for v in ids), 'each op once per run'
names = [e['name'] for e in events if e['args']['run'] == 0]
print('profile: %d ops per run, %d runs, %d convs: OK' % (len(ids[0]), len(per_run), names.count('nn.conv')))

# The planning of strata-cpu-pipeline-fused (every decision measured): the
# traced model must find all its answers among the plain model's
# measurements (profile=db) and make the same blocks, with every probe
# inside one.
mlir, db = os.path.join(work, 'resnet18.mlir'), os.path.join(work, 'fuse.db')
subprocess.run(['strata-import', path, '-o', mlir], check=True)
if os.path.exists(db):
    os.remove(db)


def plan(instrument, mode):
    p = subprocess.run(['strata-opt', mlir, '--pass-pipeline=builtin.module(%sfunc.func(nn-fold),'
                        'func.func(nn-algebraic-rewrite),nn-fuse{cpu-kernels profile-green report=true '
                        'profile=%s profile-db=%s})' % (instrument, mode, db)], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('nn-fuse failed:\n' + p.stderr)
    blocks = re.findall(r'strata\.fused = (\{[^}]*\})', p.stdout)
    inside = len(re.findall(r'^      %\S+ = "instr\.probe"', p.stdout, re.M))
    return blocks, inside, p.stdout.count('"instr.probe"'), p.stderr


plain, _, _, _ = plan('', 'measure')
traced, inside, probes, report = plan('instrument{tool=trace},', 'db')
assert 'no database entry' not in report, report
assert probes > len(plain) and inside == probes, (probes, inside)
print('fusion: %d blocks, with %d trace probes (%d in blocks): %s' %
      (len(plain), probes, inside, 'OK' if plain == traced else 'DIFFERENT'))
