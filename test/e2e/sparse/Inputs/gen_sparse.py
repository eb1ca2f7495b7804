"""Random pattern-pruned convolutions as MLIR models (sparse.fkw_conv,
sparse.csr_conv and the nn.conv of the same decoded dense weights).

  gen_sparse.py cases --seed S [--count N] [--tile R,T] [--unroll U] [--permute P]
      [--layout L] [--profile P[,P...]] [--merge] [--funcs both|sparse|dense]
      [--ops fkw,csr] [--tunings 'R,T:U:P[:L] ...']
      random valid cases, two public functions each: @case<i> (the fkw_conv
      and the csr_conv of one weight set, two results) and @case<i>_dense
      (nn.conv of the decoded dense weights, twice): C.1.9 compares them.
      --profile picks the shapes: mixed (the default: everything at small
      sizes), depthwise (C/group = 1), wide (8 to 24 channels per group),
      edge (empty convolutions, single kernels, 1-tap and 9-tap patterns,
      64 patterns, output widths of whole vectors, 1-column outputs, stride
      and dilation 3 with padding past the kernel, an FKR group per filter),
      share (runs of consecutive stored filters with the same (pattern,
      channel) at every kernel position, which `unroll` computes together;
      with look-alike runs across convolution groups and FKR groups, which
      it must not), large (16-20 x 60-80 outputs: the largest register
      tiles fit) or kernels (csr_conv only, --ops csr: kernels of 1x1 to
      5x5) or narrow (output widths 5 to 60 that leave lanes free in a row's
      last vector of 4, 8 or 16: the `sums` layout's rows; stride 2,
      dilation 2, padding, groups, batch 2) or rows (the same with output
      widths of whole vectors and rows of several column tiles, 4 to 96
      columns: the `sums` tiles that leave their last vector to the next
      tile, and rows ending in a tile of one vector); a comma-separated list gives
      case i the (i mod n)th.
      --merge puts every case in one function pair, @cases and @cases_dense
      (the cases' inputs and results one after the other: one compile for
      all of them); --funcs keeps only the sparse or the dense functions;
      --ops the sparse ops emitted (the dense function returns its result
      once per sparse result). With --merge, --tunings 'R,T:U:P[:L]
      ...' emits one fkw_conv per entry for every case (tile, unroll,
      permute, layout; '-' or nothing leaves one out) instead of the one
      --tile/--unroll/--permute/--layout give.
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
    if opts.get('layout'):
        t += ', layout = "%s"' % opts['layout']
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


def random_window(rng):
    """Strides, dilations, pads and an input size that gives >= 1 output."""
    strides = [int(rng.choice([1, 2])) for _ in range(2)]
    dil = [int(rng.choice([1, 1, 2])) for _ in range(2)]
    pads = [int(rng.integers(0, 3)) for _ in range(4)]
    H = int(rng.integers(1, 12)) + 2 * dil[0]
    W = int(rng.choice([int(rng.integers(1, 40)), 16, 17, 33])) + 2 * dil[1]
    if rng.random() < 0.15:  # a 1x1 output
        pads, strides, H, W = [0, 0, 0, 0], [1, 1], 2 * dil[0] + 1, 2 * dil[1] + 1
    return strides, dil, pads, H, W


def mask_weights(rng, ids, masks):
    """Random weights w[M][C][3][3], zero outside each kernel's pattern."""
    M, C = ids.shape
    w = rng.uniform(-1, 1, (M, C, 9)).astype(np.float32)
    for m in range(M):
        for c in range(C):
            keep = 0 if ids[m][c] < 0 else masks[ids[m][c]]
            w[m][c] *= [(keep >> b) & 1 for b in range(9)]
    return w.reshape(M, C, 3, 3)


def random_groups(rng, M):
    cuts = sorted(set(int(v) for v in rng.integers(1, M + 1, int(rng.integers(0, 3))))) if M > 1 else []
    return [0] + [c for c in cuts if c < M] + [M]


def finish(xs, M, w, ids, masks, order, groups, strides, pads, dil, group, bias, k=(3, 3)):
    ys = out_shape(xs, M, list(k), strides, pads, dil)
    return dict(xs=xs, ys=ys, w=w, ids=ids, masks=masks, order=order, groups=groups,
                win=window(strides, pads, dil, group), bias=bias, k=list(k))


def random_case(rng, profile='mixed'):
    """One random valid configuration: window, masks, ids, weights."""
    if profile == 'share':
        return share_case(rng)
    if profile == 'edge':
        return edge_case(rng)
    if profile == 'kernels':
        return kernels_case(rng)
    if profile == 'large':
        return large_case(rng)
    if profile == 'narrow':
        return narrow_case(rng)
    if profile == 'rows':
        return narrow_case(rng, [4, 8, 16, 24, 32, 33, 47, 48, 64, 65, 80, 96])
    if profile == 'depthwise':
        C = int(rng.integers(1, 9))
        group, Cg, Mg = C, 1, int(rng.integers(1, 4))
    elif profile == 'wide':
        group = int(rng.choice([1, 1, 2]))
        Cg, Mg = int(rng.integers(8, 25)), int(rng.integers(8, 25))
    else:
        group = int(rng.choice([1, 1, 1, 2, 3]))
        Cg, Mg = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    N = int(rng.choice([1, 1, 2]))
    strides, dil, pads, H, W = random_window(rng)
    if profile == 'wide':  # keep the work small: few rows
        H = int(rng.integers(1, 5)) + 2 * dil[0]
    P = int(rng.integers(1, 9))
    masks = [int(m) for m in rng.choice(np.arange(1, 512), P, replace=False)]
    M, C = group * Mg, Cg
    ids = rng.integers(-1, P, (M, C))
    ids[rng.random(M) < 0.2] = -1  # whole filters empty
    w = mask_weights(rng, ids, masks)
    order = [int(v) for v in rng.permutation(M)]
    groups = random_groups(rng, M)
    xs = [N, group * Cg, H, W]
    return finish(xs, M, w, ids, masks, order, groups, strides, pads, dil, group, rng.random() < 0.6)


def narrow_case(rng, widths=(5, 6, 7, 12, 13, 14, 26, 27, 28, 29, 44, 56, 60)):
    """Output widths with free lanes in a row's last vector (of 4, 8 or 16
    lanes; or `widths`), reached through stride 1 or 2, dilation 1 or 2 and
    padding: the rows whose last column tile the `sums` layout computes."""
    OW = int(rng.choice(widths))
    strides = [int(rng.choice([1, 2])) for _ in range(2)]
    dil = [int(rng.choice([1, 1, 2])) for _ in range(2)]
    pads = [int(rng.integers(0, 3)) for _ in range(4)]
    W = (OW - 1) * strides[1] + 1 + 2 * dil[1] - pads[1] - pads[3]
    if W < 1:
        pads[1] = pads[3] = 0
        W = (OW - 1) * strides[1] + 1 + 2 * dil[1]
    H = int(rng.integers(1, 6)) + 2 * dil[0]
    group = int(rng.choice([1, 1, 2]))
    Cg, Mg = int(rng.integers(1, 6)), int(rng.integers(1, 7))
    P = int(rng.integers(1, 9))
    masks = [int(m) for m in rng.choice(np.arange(1, 512), P, replace=False)]
    M = group * Mg
    ids = rng.integers(-1, P, (M, Cg))
    w = mask_weights(rng, ids, masks)
    order = [int(v) for v in rng.permutation(M)]
    xs = [int(rng.choice([1, 2])), group * Cg, H, W]
    return finish(xs, M, w, ids, masks, order, random_groups(rng, M), strides, pads, dil, group, rng.random() < 0.7)


# The edge kinds in turn: any 8 edge cases of a file hold every kind.
EDGE_KINDS = list(range(8))


def edge_case(rng):
    """The corners: an empty convolution, one nonzero kernel, 1-tap and 9-tap
    patterns, the most patterns a set may hold (64), output widths of whole
    vectors (4 to 64 columns), 1-column outputs, stride and dilation 3 with
    padding past the kernel, and an FKR group per filter."""
    kind = EDGE_KINDS.pop(0)
    EDGE_KINDS.append(kind)
    group = int(rng.choice([1, 2]))
    Cg, Mg = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    N = int(rng.choice([1, 2]))
    strides, dil, pads, H, W = random_window(rng)
    P = int(rng.integers(1, 9))
    if kind == 2:  # single taps (the centre among them) and the whole kernel
        masks = [int(m) for m in rng.permutation([1 << b for b in range(9)] + [0x1FF])[:P]]
    elif kind == 3:  # 64 patterns
        masks = [int(m) for m in rng.choice(np.arange(1, 512), 64, replace=False)]
        P, Cg, Mg = 64, int(rng.integers(4, 9)), int(rng.integers(4, 9))
    else:
        masks = [int(m) for m in rng.choice(np.arange(1, 512), P, replace=False)]
    if kind == 4:  # whole vectors: stride 1, 4, 8, 16, 32 or 64 output columns
        strides[1], dil[1] = 1, 1
        OW = int(rng.choice([4, 8, 16, 32, 64]))
        W = OW + 2 - pads[1] - pads[3]
        if W < 1:
            pads[1], pads[3], W = 0, 0, OW + 2
    if kind == 6:  # stride and dilation 3, padding past the kernel
        strides = [int(rng.choice([1, 3])) for _ in range(2)]
        dil = [int(rng.choice([1, 3])) for _ in range(2)]
        pads = [int(rng.integers(0, 5)) for _ in range(4)]
        H, W = int(rng.integers(1, 10)), int(rng.integers(1, 30))
        for d in range(2):  # at least one output
            need = 2 * dil[d] + 1 - pads[d] - pads[d + 2]
            if d == 0:
                H = max(H, need)
            else:
                W = max(W, need)
    if kind == 5:  # one output column, several rows
        strides[1], pads[1], pads[3] = 1, 0, 0
        W = 2 * dil[1] + 1
    M, C = group * Mg, Cg
    ids = rng.integers(-1, P, (M, C))
    if kind == 0:
        ids[:] = -1
    elif kind == 1:
        ids[:] = -1
        ids[int(rng.integers(0, M))][int(rng.integers(0, C))] = int(rng.integers(0, P))
    w = mask_weights(rng, ids, masks)
    order = [int(v) for v in rng.permutation(M)]
    groups = list(range(M + 1)) if kind == 7 else random_groups(rng, M)  # kind 7: a group per filter
    xs = [N, group * Cg, H, W]
    return finish(xs, M, w, ids, masks, order, groups, strides, pads, dil, group, rng.random() < 0.6)


def large_case(rng):
    """Outputs of 16 to 20 rows and 60 to 80 columns (stride 1, padding 1):
    the largest register tiles (16 rows, several vectors) fit whole."""
    Cg, M = int(rng.integers(1, 4)), int(rng.integers(2, 7))
    H, W = int(rng.integers(16, 21)), int(rng.integers(60, 81))
    P = int(rng.integers(1, 9))
    masks = [int(m) for m in rng.permutation(PATTERNS8)[:P]]
    ids = rng.integers(-1, P, (M, Cg))
    w = mask_weights(rng, ids, masks)
    order = [int(v) for v in rng.permutation(M)]
    return finish([1, Cg, H, W], M, w, ids, masks, order, random_groups(rng, M), [1, 1], [1, 1, 1, 1], [1, 1], 1,
                  rng.random() < 0.6)


def kernels_case(rng):
    """For csr_conv alone: any kernel size from 1x1 to 5x5 (not only 3x3),
    random sparsity (some kernels empty), the window as random_window's."""
    k = [int(rng.integers(1, 6)), int(rng.integers(1, 6))]
    group = int(rng.choice([1, 1, 2]))
    Cg, Mg = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    N = int(rng.choice([1, 2]))
    strides, dil, pads, H, W = random_window(rng)
    H, W = H + dil[0] * (k[0] - 3), W + dil[1] * (k[1] - 3)
    if H + pads[0] + pads[2] < dil[0] * (k[0] - 1) + 1:
        H = dil[0] * (k[0] - 1) + 1
    if W + pads[1] + pads[3] < dil[1] * (k[1] - 1) + 1:
        W = dil[1] * (k[1] - 1) + 1
    M, C = group * Mg, Cg
    w = rng.uniform(-1, 1, (M, C, k[0], k[1])).astype(np.float32)
    w *= rng.random(w.shape) < rng.uniform(0.1, 0.7)
    w[rng.random((M, C)) < 0.3] = 0
    xs = [N, group * Cg, H, W]
    return finish(xs, M, w, None, None, None, None, strides, pads, dil, group, rng.random() < 0.6, k)


RUNS = [1, 2, 2, 3, 4, 4, 5, 8, 9]


def share_case(rng):
    """Stored filters in runs that use the same (pattern, channel) at every
    kernel position (their weights differ): runs of 2, 3, 4, 5, 8 or 9
    share for unrolls that fit in them. A run may end in the next
    convolution group or across an FKR group boundary with the same kernel
    structure: those filters must not be computed together."""
    group = int(rng.choice([1, 1, 2, 3]))
    Cg, Mg = int(rng.integers(1, 7)), int(rng.integers(2, 13))
    N = int(rng.choice([1, 2]))
    strides, dil, pads, H, W = random_window(rng)
    P = int(rng.integers(1, 7))
    masks = [int(m) for m in rng.choice(np.arange(1, 512), P, replace=False)]
    M, C = group * Mg, Cg

    def template():
        t = rng.integers(-1, P, C)
        if (t < 0).all():
            t[int(rng.integers(0, C))] = int(rng.integers(0, P))
        return t

    ids = np.full((M, C), -1)
    order, runs_at = [], [0]
    prev = None
    for g in range(group):
        chans = [int(v) for v in rng.permutation(range(g * Mg, (g + 1) * Mg))]
        while chans:
            # the first run of a group copies the last group's template now and
            # then: same structure, another convolution group
            t = prev if prev is not None and rng.random() < 0.4 else template()
            L = min(int(rng.choice(RUNS)), len(chans))
            for m in chans[:L]:
                ids[m] = t
                order.append(m)
            chans = chans[L:]
            runs_at.append(len(order))
            prev = t
    w = mask_weights(rng, ids, masks)
    # FKR groups: some at run boundaries, some inside a run
    cuts = [b for b in runs_at[1:-1] if rng.random() < 0.3]
    cuts += [int(v) for v in rng.integers(1, M, int(rng.integers(0, 2)))] if M > 1 else []
    groups = [0] + sorted(set(c for c in cuts if 0 < c < M)) + [M]
    xs = [N, group * Cg, H, W]
    return finish(xs, M, w, ids, masks, order, groups, strides, pads, dil, group, rng.random() < 0.6)


def emit_case(i, case, opts):
    xs, ys, w, b = case['xs'], case['ys'], case['w'], '%b' if case['bias'] else None
    ops = opts.get('ops') or ['fkw', 'csr']
    funcs = opts.get('funcs') or 'both'
    text = ''
    if funcs != 'dense':
        text += signature('case%d' % i, xs, ys, b, len(ops))
        text += sparse_ops(case, '%x', b, '', ops, opts)
        text += '  return %s : %s\n}\n' % (', '.join('%%%s' % o for o in ops), ', '.join([ttype(ys)] * len(ops)))
    if funcs != 'sparse':
        text += signature('case%d_dense' % i, xs, ys, b, len(ops))
        text += conv_op('%y', '%x', b, xs, ys, w, case['win'], '%w')
        text += '  return %s : %s\n}\n' % (', '.join(['%y'] * len(ops)), ', '.join([ttype(ys)] * len(ops)))
    return text


def result_ops(opts):
    """The sparse results of a case: (op, tuning) pairs, one fkw_conv per
    entry of --tunings (else one with --tile/--unroll/--permute), then the
    csr_conv."""
    ops = opts.get('ops') or ['fkw', 'csr']
    tunings = opts.get('tunings') or [opts]
    return ([('fkw', t) for t in tunings] if 'fkw' in ops else []) + ([('csr', None)] if 'csr' in ops else [])


def sparse_ops(case, x, b, suffix, ops, opts):
    """The requested sparse ops of a case, results %<op><suffix>."""
    xs, ys, w = case['xs'], case['ys'], case['w']
    text = ''
    for o in ops:
        if o == 'fkw':
            if case['masks'] is None:
                sys.exit('gen_sparse.py: a kernels case has no fkw_conv (--ops csr)')
            f = fkw_arrays(w, case['ids'], case['masks'], case['order'], case['groups'])
            text += fkw_op('%fkw' + suffix, x, b, xs, ys, f, case['win'], opts)
        else:
            text += csr_op('%csr' + suffix, x, b, xs, ys, csr_arrays(w), case['k'], case['win'])
    return text


def emit_merged(cases, opts):
    """@cases and @cases_dense: every case's inputs (x, [b]) and results (one
    per sparse op, result_ops) one after the other."""
    rops = result_ops(opts)
    funcs = opts.get('funcs') or 'both'
    args, rtypes = [], []
    for i, c in enumerate(cases):
        args.append('%%x%d: %s' % (i, ttype(c['xs'])))
        if c['bias']:
            args.append('%%b%d: tensor<%dxf32>' % (i, c['ys'][1]))
        rtypes += [ttype(c['ys'])] * len(rops)
    text = ''
    for name in ['cases', 'cases_dense']:
        dense_fn = name == 'cases_dense'
        if funcs == ('sparse' if dense_fn else 'dense'):
            continue
        text += 'func.func @%s(%s) -> (%s) {\n' % (name, ', '.join(args), ', '.join(rtypes))
        results = []
        for i, c in enumerate(cases):
            b = '%%b%d' % i if c['bias'] else None
            if dense_fn:
                text += conv_op('%%y%d' % i, '%%x%d' % i, b, c['xs'], c['ys'], c['w'], c['win'], '%%w%d' % i)
                results += ['%%y%d' % i] * len(rops)
                continue
            for k, (o, t) in enumerate(rops):
                text += sparse_ops(c, '%%x%d' % i, b, '%d_%d' % (i, k), [o], t)
                results.append('%%%s%d_%d' % (o, i, k))
        text += '  return %s : %s\n}\n' % (', '.join(results), ', '.join(rtypes))
    return text


def parse_tunings(s):
    """'R,T:U:P[:L] ...' (each part '-' for none) -> [{tile, unroll, permute, layout}]."""
    out = []
    for entry in s.split():
        tile, unroll, permute, layout = (entry.split(':') + ['-', '-', '-'])[:4]
        out.append(dict(tile=None if tile == '-' else [int(v) for v in tile.split(',')],
                        unroll=None if unroll == '-' else int(unroll),
                        permute=None if permute == '-' else permute,
                        layout=None if layout == '-' else layout))
    return out


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
    ap.add_argument('--layout')
    ap.add_argument('--N', type=int, default=1)
    ap.add_argument('--C', type=int, default=64)
    ap.add_argument('--M', type=int, default=64)
    ap.add_argument('--H', type=int, default=56)
    ap.add_argument('--W', type=int)
    ap.add_argument('--rate', type=float, default=3.6)
    ap.add_argument('--patterns', type=int, default=8)
    ap.add_argument('--kind', default='fkw', choices=['fkw', 'csr', 'dense'])
    ap.add_argument('--profile', default=['mixed'], type=lambda s: s.split(','),
                    help='mixed, depthwise, wide, edge, share, large, kernels, narrow or rows; a list: case i has the (i mod '
                    'n)th')
    ap.add_argument('--merge', action='store_true')
    ap.add_argument('--funcs', default='both', choices=['both', 'sparse', 'dense'])
    ap.add_argument('--ops', default=['fkw', 'csr'], type=lambda s: s.split(','))
    ap.add_argument('--tunings', type=parse_tunings)
    a = ap.parse_args()
    for t in (a.tunings or []) + [vars(a)]:
        if t['tile'] and (len(t['tile']) != 2 or not all(1 <= v <= 16 for v in t['tile'])):
            ap.error('tile R,T with entries 1 to 16')
        if t['unroll'] is not None and not 1 <= t['unroll'] <= 8:
            ap.error('unroll 1 to 8')
        if t['permute'] is not None and not t['permute'].replace('_', '').isalpha():
            ap.error('permute: a loop order such as oh_ow_co_ci (the verifier has the list)')
        if t['layout'] is not None and not t['layout'].isalpha():
            ap.error('layout: an input layout such as sums (the verifier has the list)')
    if a.tunings and not a.merge:
        ap.error('--tunings needs --merge')
    if not a.ops or any(o not in ('fkw', 'csr') for o in a.ops):
        ap.error('--ops: fkw and/or csr')
    if a.mode == 'layer':
        sys.stdout.write(layer(a))
        return
    rng = np.random.default_rng(a.seed)
    EDGE_KINDS[:] = EDGE_KINDS[a.seed % 8:] + EDGE_KINDS[:a.seed % 8]
    for p in a.profile:
        if p not in ('mixed', 'depthwise', 'wide', 'edge', 'share', 'kernels', 'large', 'narrow', 'rows'):
            ap.error('bad --profile %s' % p)
    cases = [random_case(rng, a.profile[i % len(a.profile)]) for i in range(a.count)]
    if a.merge:
        sys.stdout.write(emit_merged(cases, vars(a)))
        return
    for i, case in enumerate(cases):
        sys.stdout.write(emit_case(i, case, vars(a)))


if __name__ == '__main__':
    main()
