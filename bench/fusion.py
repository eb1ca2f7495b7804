"""The DNNFusion rows of the benchmark (called by bench/run.py): for each
whole model, layer counts and intermediate-result bytes with no fusion,
fixed-pattern fusion (kernel epilogues) and DNNFusion (nn-fuse), beside the
closest models of the thesis' Table 3.5, and the one-thread times of the
three modes measured in this run -- interleaved in one process by
bench/fusion_time.c, since separate processes on this VM differ by up to
20% on the same code."""
import os
import re
import subprocess

# Table 3.5 of the thesis (layers total -> after DNNFusion; IRS MB before ->
# after), for the model each of ours is closest to.
THESIS = {
    'ResNet-18': 'VGG-16: 51 -> 17 layers, IRS 161 -> 52 MB',
    'MobileNetV2': 'EfficientNet-B0: 309 -> 97 layers, IRS 108 -> 26 MB',
    'TransformerEncoder 4x312 seq128': 'TinyBERT: 366 -> 74 layers, IRS 183 -> 50 MB',
}


def _opt(mlir, *args):
    p = subprocess.run(['strata-opt', mlir] + list(args), check=True, capture_output=True, text=True)
    return p.stdout, p.stderr


def _layers(ir):
    """Layers of lowered-or-not IR: runtime kernel calls plus Strata ops
    (constants are not layers)."""
    calls = len(re.findall(r'call @strata_rt_', ir))
    ops = len([m for m in re.findall(r'"nn\.(\w+)"', ir) if m != 'constant'])
    return calls + ops


def counts(mlir, db):
    """Layers per mode and the DNNFusion report's IRS bytes (before, after)."""
    plain, _ = _opt(mlir, '--nn-fold')
    fixed, _ = _opt(mlir, '--pass-pipeline=builtin.module(func.func(nn-fold),func.func(nn-raise),nn-to-kernels)')
    # the planning of strata-cpu-pipeline-fused, with the same database
    _, report = _opt(mlir, '--pass-pipeline=builtin.module(func.func(nn-fold),func.func(nn-raise),'
                     'func.func(nn-algebraic-rewrite),'
                     'nn-fuse{cpu-kernels profile-green report=true profile-db=%s})' % db)
    after = int(re.search(r'layers after: (\d+)', report).group(1))
    irs = [float(x) for x in re.findall(r'intermediate bytes (?:before|after): (\d+)', report)]
    return {'none': _layers(plain), 'fixed': _layers(fixed), 'dnnfusion': after}, irs


def times(mlir, db, runs=60):
    """Median ms per mode, the three modes' runs interleaved in one process."""
    exe = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'build', 'bench', 'fusion_time')
    out = subprocess.run([exe, mlir, str(runs), db], check=True, capture_output=True, text=True).stdout
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines()}


def rows(models, work):
    """models: [(name, onnx path)]."""
    db = os.path.join(work, 'fusion-profile.db')  # measured once per machine, reused
    lines = ['| model | layers: none / fixed / DNNFusion | IRS MB before -> after | thesis (Table 3.5) | '
             'ms: none | fixed | DNNFusion | DNNFusion over none | over fixed |', '|---' * 9 + '|']
    for name, path in models:
        mlir = os.path.splitext(path)[0] + '.mlir'
        subprocess.run(['strata-import', path, '-o', mlir], check=True)
        layers, irs = counts(mlir, db)
        ms = times(mlir, db)
        lines.append('| %s | %d / %d / %d | %.1f -> %.1f | %s | %.2f | %.2f | %.2f | %.2fx | %.2fx |' % (
            name, layers['none'], layers['fixed'], layers['dnnfusion'], irs[0] / 1e6, irs[1] / 1e6,
            THESIS.get(name, ''), ms['none'], ms['fixed'], ms['dnnfusion'],
            ms['none'] / ms['dnnfusion'], ms['fixed'] / ms['dnnfusion']))
    return '\n'.join(lines)


# Blocks that element-wise loop fusion leaves as several nests (a reduction
# and its element-wise users), written op by op as exporters emit them.
# nn-raise does not recognize these (a layer norm it would make one op).
BLOCKS = {
    'softmax, op by op (512x1024, last axis)': '''
func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %m = "nn.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<512x1024xf32>) -> tensor<512x1xf32>
  %s = "nn.sub"(%x, %m) : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
  %e = "nn.exp"(%s) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %t = "nn.reduce_sum"(%e) {axes = array<i64: 1>} : (tensor<512x1024xf32>) -> tensor<512x1xf32>
  %r = "nn.div"(%e, %t) : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
  return %r : tensor<512x1024xf32>
}''',
    'RMS norm (8x256x1024, last axis, scaled)': '''
func.func @rms(%x: tensor<8x256x1024xf32>, %g: tensor<1024xf32>) -> tensor<8x256x1024xf32> {
  %sq = "nn.mul"(%x, %x) : (tensor<8x256x1024xf32>, tensor<8x256x1024xf32>) -> tensor<8x256x1024xf32>
  %m = "nn.reduce_mean"(%sq) {axes = array<i64: -1>} : (tensor<8x256x1024xf32>) -> tensor<8x256x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.add"(%m, %eps) : (tensor<8x256x1xf32>, tensor<f32>) -> tensor<8x256x1xf32>
  %q = "nn.sqrt"(%a) : (tensor<8x256x1xf32>) -> tensor<8x256x1xf32>
  %n = "nn.div"(%x, %q) : (tensor<8x256x1024xf32>, tensor<8x256x1xf32>) -> tensor<8x256x1024xf32>
  %r = "nn.mul"(%n, %g) : (tensor<8x256x1024xf32>, tensor<1024xf32>) -> tensor<8x256x1024xf32>
  return %r : tensor<8x256x1024xf32>
}''',
    'max over channels, subtracted (1x64x112x112)': '''
func.func @channel_max(%x: tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32> {
  %m = "nn.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<1x64x112x112xf32>) -> tensor<1x1x112x112xf32>
  %r = "nn.sub"(%x, %m) : (tensor<1x64x112x112xf32>, tensor<1x1x112x112xf32>) -> tensor<1x64x112x112xf32>
  %e = "nn.exp"(%r) : (tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  return %e : tensor<1x64x112x112xf32>
}''',
}


def block_rows(work, runs=60):
    """Fused code generation of reduction blocks: the three modes, and the
    plan fusing every profile cell compiled with and without
    fused-blocks-tile (one nest over tiles vs the nests element-wise
    fusion leaves), interleaved in one process."""
    exe = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'build', 'bench', 'fusion_time')
    lines = ['| block | ms: none | fixed | DNNFusion | all cells fused, one nest per block (tiled) | '
             'same blocks, untiled | tiled over untiled | tiled over none |', '|---' * 8 + '|']
    for i, (name, text) in enumerate(BLOCKS.items()):
        path = os.path.join(work, 'block%d.mlir' % i)
        with open(path, 'w') as f:
            f.write(text.lstrip() + '\n')
        out = subprocess.run([exe, path, str(runs), '--tiling'], check=True, capture_output=True, text=True).stdout
        ms = {line.split()[0]: float(line.split()[1]) for line in out.splitlines()}
        lines.append('| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.2fx | %.2fx |' % (
            name, ms['none'], ms['fixed'], ms['dnnfusion'], ms['always'], ms['always-untiled'],
            ms['always-untiled'] / ms['always'], ms['none'] / ms['always']))
    return '\n'.join(lines)
