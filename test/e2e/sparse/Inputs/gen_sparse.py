"""Random pattern-pruned convolutions as MLIR models (sparse.fkw_conv,
sparse.csr_conv and the nn.conv of the same decoded dense weights).

  gen_sparse.py cases --seed S [--count N] [--tile R,T] [--unroll U] [--permute P]
      random valid cases, two public functions each: @case<i> (the fkw_conv
      and the csr_conv of one weight set, two results) and @case<i>_dense
      (nn.conv of the decoded dense weights, twice): C.1.9 compares them.
  gen_sparse.py layer --C c --M m --H h [--W w] [--rate 3.6] [--patterns 8]
      [--kind fkw|csr|dense|pattern] [--seed S] [--tile R,T] ...
      one VGG-like layer (stride 1, pad 1): random weights projected onto an
      8-pattern set (the largest retained sum of squares), connectivity-pruned
      to the largest-L2 ceil(M*C/rate) kernels (no pruning with --rate 1).

The FKW arrays are built here, independently of the dialect's C builder:
stored filters in a given order, kernels by pattern id then channel, weights
in increasing bit order (docs/dialects/sparse.md)."""
import argparse
import math
import sys

import numpy as np

# Centre + 3 arms and the corner squares (digest A.1's illustrative set).
PATTERNS8 = [0x03A, 0x0B2, 0x0B8, 0x09A, 0x01B, 0x036, 0x0D8, 0x1B0]


def bits(mask):
    return [b for b in range(9) if mask >> b & 1]


def project(w, masks):
    """Kernel-pattern ids of w[M][C][3][3]: the mask keeping the largest sum of
    squares; returns (ids, masked weights)."""
    M, C = w.shape[:2]
    k = w.reshape(M, C, 9)
    sel = np.stack([(k ** 2 * np.array([(m >> b) & 1 for b in range(9)])).sum(-1) for m in masks], -1)
    ids = sel.argmax(-1)
    keep = np.array([[(masks[i] >> b) & 1 for b in range(9)] for i in range(len(masks))])[ids]
    return ids, (k * keep).reshape(w.shape).astype(np.float32)


def connectivity(w, ids, rate):
    """Keeps the ceil(M*C/rate) largest-L2 kernels; pruned kernels get id -1."""
    M, C = ids.shape
    keep = math.ceil(M * C / rate)
    norms = (w.reshape(M, C, 9) ** 2).sum(-1).ravel()
    order = np.argsort(-norms, kind='stable')
    alive = np.zeros(M * C, bool)
    alive[order[:keep]] = True
    ids = np.where(alive.reshape(M, C), ids, -1)
    return ids, w * alive.reshape(M, C, 1, 1)


def length_order(ids):
    """Filters grouped by length (shortest first), stable inside a group."""
    lens = (ids >= 0).sum(1)
    order = sorted(range(len(ids)), key=lambda m: (lens[m], m))
    groups = [0] + [s for s in range(1, len(order)) if lens[order[s]] != lens[order[s - 1]]] + [len(order)]
    return order, groups


def fkw_arrays(w, ids, masks, order, groups):
    """The FKW attributes of masked weights w[M][C][3][3] with ids[M][C]."""
    P = len(masks)
    k9 = w.reshape(w.shape[0], w.shape[1], 9)
    offset, index, stride, weight = [0], [], [], []
    for m in order:
        st = [0]
        for p in range(P):
            for c in range(w.shape[1]):
                if ids[m][c] == p:
                    index.append(c)
                    weight.extend(k9[m][c][b] for b in bits(masks[p]))
            st.append(len(index) - offset[-1])
        stride.extend(st)
        offset.append(len(index))
    return dict(patterns=masks, offset=offset, reorder=list(order), index=index, stride=stride,
                groups=groups, weight=np.array(weight, np.float32))


def csr_arrays(w):
    """CSR of w[M][K...] flattened per output channel."""
    flat = w.reshape(w.shape[0], -1)
    row_ptr, cols, vals = [0], [], []
    for m in range(flat.shape[0]):
        nz = np.nonzero(flat[m])[0]
        cols.extend(int(c) for c in nz)
        vals.extend(flat[m][nz])
        row_ptr.append(len(cols))
    return dict(row_ptr=row_ptr, col_index=cols, values=np.array(vals, np.float32))


def arr(v):
    return 'array<i64%s>' % (': ' + ', '.join(str(int(x)) for x in v) if len(v) else '')


def dense(v, shape):
    """A dense f32 elements attribute (hex: compact and exact)."""
    t = 'tensor<%sxf32>' % 'x'.join(str(d) for d in shape)
    v = np.ascontiguousarray(v, np.float32)
    if v.size == 0:
        return 'dense<> : %s' % t
    return 'dense<"0x%s"> : %s' % (v.tobytes().hex().upper(), t)


def ttype(shape):
    return 'tensor<%sxf32>' % 'x'.join(str(d) for d in shape)


def window(strides, pads, dil, group):
    return 'strides = %s, pads = %s, dilations = %s, group = %d : i64' % (arr(strides), arr(pads), arr(dil), group)


def out_shape(xs, M, k, strides, pads, dil):
    oh = (xs[2] + pads[0] + pads[2] - dil[0] * (k[0] - 1) - 1) // strides[0] + 1
    ow = (xs[3] + pads[1] + pads[3] - dil[1] * (k[1] - 1) - 1) // strides[1] + 1
    return [xs[0], M, oh, ow]


def tuning(opts):
    t = ''
    if opts.get('tile'):
        t += ', tile = %s' % arr(opts['tile'])
    if opts.get('unroll'):
        t += ', unroll = %s' % arr([opts['unroll']])
    if opts.get('permute'):
        t += ', permute = "%s"' % opts['permute']
    return t


def fkw_op(name, x, b, xs, ys, f, win, opts):
    attrs = 'patterns = %s, %s, offset = %s, reorder = %s, index = %s, stride = %s, groups = %s, weight = %s%s' % (
        arr(f['patterns']), win, arr(f['offset']), arr(f['reorder']), arr(f['index']), arr(f['stride']),
        arr(f['groups']), dense(f['weight'], [len(f['weight'])]), tuning(opts))
    ops = '%s, %s' % (x, b) if b else x
    tys = '%s, tensor<%dxf32>' % (ttype(xs), ys[1]) if b else ttype(xs)
    return '  %s = "sparse.fkw_conv"(%s) {%s} : (%s) -> %s\n' % (name, ops, attrs, tys, ttype(ys))


def csr_op(name, x, b, xs, ys, c, k, win):
    attrs = 'kernel_shape = %s, %s, row_ptr = %s, col_index = %s, values = %s' % (
        arr(k), win, arr(c['row_ptr']), arr(c['col_index']), dense(c['values'], [len(c['values'])]))
    ops = '%s, %s' % (x, b) if b else x
    tys = '%s, tensor<%dxf32>' % (ttype(xs), ys[1]) if b else ttype(xs)
    return '  %s = "sparse.csr_conv"(%s) {%s} : (%s) -> %s\n' % (name, ops, attrs, tys, ttype(ys))


def conv_op(name, x, b, xs, ys, w, win, wname):
    s = '  %s = "nn.constant"() {value = %s} : () -> %s\n' % (wname, dense(w, w.shape), ttype(w.shape))
    ops = '%s, %s%s' % (x, wname, ', ' + b if b else '')
    tys = '%s, %s%s' % (ttype(xs), ttype(w.shape), ', tensor<%dxf32>' % ys[1] if b else '')
    return s + '  %s = "nn.conv"(%s) {%s} : (%s) -> %s\n' % (name, ops, win, tys, ttype(ys))


def signature(name, xs, ys, bias, nres):
    args = '%%x: %s%s' % (ttype(xs), ', %%b: tensor<%dxf32>' % ys[1] if bias else '')
    return 'func.func @%s(%s) -> (%s) {\n' % (name, args, ', '.join([ttype(ys)] * nres))


def random_case(rng):
    """One random valid configuration: window, masks, ids, weights."""
    group = int(rng.choice([1, 1, 1, 2, 3]))
    Cg, Mg = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    N = int(rng.choice([1, 1, 2]))
    strides = [int(rng.choice([1, 2])) for _ in range(2)]
    dil = [int(rng.choice([1, 1, 2])) for _ in range(2)]
    pads = [int(rng.integers(0, 3)) for _ in range(4)]
    H = int(rng.integers(1, 12)) + 2 * dil[0]
    W = int(rng.choice([int(rng.integers(1, 40)), 16, 17, 33])) + 2 * dil[1]
    if rng.random() < 0.15:  # a 1x1 output
        pads, strides, H, W = [0, 0, 0, 0], [1, 1], 2 * dil[0] + 1, 2 * dil[1] + 1
    P = int(rng.integers(1, 9))
    masks = [int(m) for m in rng.choice(np.arange(1, 512), P, replace=False)]
    M, C = group * Mg, Cg
    ids = rng.integers(-1, P, (M, C))
    ids[rng.random(M) < 0.2] = -1  # whole filters empty
    w = rng.uniform(-1, 1, (M, C, 9)).astype(np.float32)
    for m in range(M):
        for c in range(C):
            keep = 0 if ids[m][c] < 0 else masks[ids[m][c]]
            w[m][c] *= [(keep >> b) & 1 for b in range(9)]
    w = w.reshape(M, C, 3, 3)
    order = [int(v) for v in rng.permutation(M)]
    cuts = sorted(set(int(v) for v in rng.integers(1, M + 1, int(rng.integers(0, 3))))) if M > 1 else []
    groups = [0] + [c for c in cuts if c < M] + [M]
    xs = [N, group * Cg, H, W]
    ys = out_shape(xs, M, [3, 3], strides, pads, dil)
    return dict(xs=xs, ys=ys, w=w, ids=ids, masks=masks, order=order, groups=groups,
                win=window(strides, pads, dil, group), bias=rng.random() < 0.6)


def emit_case(i, case, opts):
    xs, ys, w, b = case['xs'], case['ys'], case['w'], '%b' if case['bias'] else None
    f = fkw_arrays(w, case['ids'], case['masks'], case['order'], case['groups'])
    text = signature('case%d' % i, xs, ys, b, 2)
    text += fkw_op('%y', '%x', b, xs, ys, f, case['win'], opts)
    text += csr_op('%z', '%x', b, xs, ys, csr_arrays(w), [3, 3], case['win'])
    text += '  return %y, %z : ' + ', '.join([ttype(ys)] * 2) + '\n}\n'
    text += signature('case%d_dense' % i, xs, ys, b, 2)
    text += conv_op('%y', '%x', b, xs, ys, w, case['win'], '%w')
    text += '  return %y, %y : ' + ', '.join([ttype(ys)] * 2) + '\n}\n'
    return text


def layer(a):
    rng = np.random.default_rng(a.seed)
    masks = PATTERNS8[:a.patterns]
    w = rng.normal(0, 1, (a.M, a.C, 3, 3)).astype(np.float32)
    ids, w = project(w, masks)
    if a.rate > 1:
        ids, w = connectivity(w, ids, a.rate)
    xs = [a.N, a.C, a.H, a.W or a.H]
    ys = out_shape(xs, a.M, [3, 3], [1, 1], [1, 1, 1, 1], [1, 1])
    win = window([1, 1], [1, 1, 1, 1], [1, 1], 1)
    b = '%b'
    text = signature('layer', xs, ys, b, 1)
    if a.kind == 'fkw':
        order, groups = length_order(ids)
        f = fkw_arrays(w, ids, masks, order, groups)
        text += fkw_op('%y', '%x', b, xs, ys, f, win, vars(a))
    elif a.kind == 'csr':
        text += csr_op('%y', '%x', b, xs, ys, csr_arrays(w), [3, 3], win)
    else:
        text += conv_op('%y', '%x', b, xs, ys, w, win, '%w')
    return text + '  return %%y : %s\n}\n' % ttype(ys)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['cases', 'layer'])
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--count', type=int, default=8)
    ap.add_argument('--tile', type=lambda s: [int(v) for v in s.split(',')])
    ap.add_argument('--unroll', type=int)
    ap.add_argument('--permute')
    ap.add_argument('--N', type=int, default=1)
    ap.add_argument('--C', type=int, default=64)
    ap.add_argument('--M', type=int, default=64)
    ap.add_argument('--H', type=int, default=56)
    ap.add_argument('--W', type=int)
    ap.add_argument('--rate', type=float, default=3.6)
    ap.add_argument('--patterns', type=int, default=8)
    ap.add_argument('--kind', default='fkw', choices=['fkw', 'csr', 'dense'])
    a = ap.parse_args()
    if a.mode == 'layer':
        sys.stdout.write(layer(a))
        return
    rng = np.random.default_rng(a.seed)
    for i in range(a.count):
        sys.stdout.write(emit_case(i, random_case(rng), vars(a)))


if __name__ == '__main__':
    main()
