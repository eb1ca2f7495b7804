"""gen_models.py OUT.mlir: convolutions of random shapes (stride 2, padding,
dilation, groups, depthwise, auto_pad, batch > 1, bias) whose constant
weights follow a pattern set with connectivity zeros, plus dense 3x3 ones
(alone and two in a row) and a 5x5 one, one function each, for the sparse passes' numerics test. Seeded:
the same file every run."""
import sys
import numpy as np

# The digest's illustrative 4-entry patterns (bit 3*row+col, centre kept).
MASKS = [0x03A, 0x0B2, 0x0B8, 0x09A, 0x01B, 0x036, 0x0D8, 0x1B0]
rng = np.random.default_rng(17)


def pattern_weights(m, cg, npat, keep=1 / 3.6):
    masks = rng.choice(MASKS, size=npat, replace=False)
    w = np.zeros((m, cg, 3, 3), np.float32)
    for i in range(m):
        for c in range(cg):
            if rng.random() > keep:
                continue
            mask = int(rng.choice(masks))
            bits = np.array([(mask >> b) & 1 for b in range(9)], np.float32).reshape(3, 3)
            w[i, c] = bits * rng.standard_normal((3, 3)).astype(np.float32)
    return w


def const(name, a):
    t = 'x'.join(str(d) for d in a.shape) + 'xf32'
    return '  %%%s = "nn.constant"() {value = dense<"0x%s"> : tensor<%s>} : () -> tensor<%s>' % (
        name, a.astype('<f4').tobytes().hex().upper(), t, t)


def ttype(shape):
    return 'tensor<%sxf32>' % 'x'.join(str(d) for d in shape)


def out_dim(i, k, s, d, p0, p1):
    return (i + p0 + p1 - d * (k - 1) - 1) // s + 1


def conv(lines, x, xs, w, name, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dil=(1, 1), group=1, auto_pad=None):
    lines.append(const(name + 'w', w))
    operands = '%s, %%%sw' % (x, name)
    types = '%s, %s' % (ttype(xs), ttype(w.shape))
    if b is not None:
        lines.append(const(name + 'b', b))
        operands += ', %%%sb' % name
        types += ', ' + ttype(b.shape)
    attrs = 'strides = array<i64: %d, %d>, dilations = array<i64: %d, %d>, group = %d' % (strides + dil + (group,))
    k = w.shape[2:]
    if auto_pad:
        attrs += ', auto_pad = "%s"' % auto_pad
        oh, ow = [-(-xs[2 + i] // strides[i]) for i in range(2)]
    else:
        attrs += ', pads = array<i64: %d, %d, %d, %d>' % pads
        oh = out_dim(xs[2], k[0], strides[0], dil[0], pads[0], pads[2])
        ow = out_dim(xs[3], k[1], strides[1], dil[1], pads[1], pads[3])
    ys = (xs[0], w.shape[0], oh, ow)
    lines.append('  %%%s = "nn.conv"(%s) {%s} : (%s) -> %s' % (name, operands, attrs, types, ttype(ys)))
    return '%' + name, ys


def func(name, xs, body):
    lines = []
    y, ys = body(lines, '%x', xs)
    return '\n'.join(['func.func @%s(%%x: %s) -> %s {' % (name, ttype(xs), ttype(ys))] + lines +
                     ['  return %s : %s' % (y, ttype(ys)), '}'])


def bias(m):
    return rng.standard_normal(m).astype(np.float32)


def chain(lines, x, xs):
    y, ys = conv(lines, x, xs, pattern_weights(8, 4, 6), 'a', b=bias(8), pads=(1, 1, 1, 1))
    lines.append('  %%r = "nn.relu"(%s) : (%s) -> %s' % (y, ttype(ys), ttype(ys)))
    return conv(lines, '%r', ys, pattern_weights(6, 8, 8), 'c', strides=(2, 2), pads=(1, 1, 1, 1))


def dense(lines, x, xs):
    return conv(lines, x, xs, rng.standard_normal((6, 4, 3, 3)).astype(np.float32), 'd', b=bias(6), pads=(1, 1, 1, 1))


def dense_chain(lines, x, xs):
    y, ys = dense(lines, x, xs)
    lines.append('  %%s = "nn.relu"(%s) : (%s) -> %s' % (y, ttype(ys), ttype(ys)))
    return conv(lines, '%s', ys, rng.standard_normal((8, 6, 3, 3)).astype(np.float32), 'e', strides=(2, 2))


def k5(lines, x, xs):
    w = rng.standard_normal((4, 3, 5, 5)).astype(np.float32)
    w[rng.random(w.shape) < 0.7] = 0
    return conv(lines, x, xs, w, 'k', pads=(2, 1, 2, 1), strides=(2, 1))


FUNCS = [
    ('basic', (1, 8, 10, 10), lambda l, x, s: conv(l, x, s, pattern_weights(16, 8, 8), 'y', pads=(1, 1, 1, 1))),
    ('stride2_bias', (2, 6, 11, 9), lambda l, x, s: conv(l, x, s, pattern_weights(12, 6, 5), 'y', b=bias(12),
                                                         strides=(2, 2), pads=(1, 0, 1, 2))),
    ('dilation', (1, 4, 12, 12), lambda l, x, s: conv(l, x, s, pattern_weights(8, 4, 4), 'y', strides=(1, 2),
                                                      dil=(2, 2), pads=(2, 2, 2, 2))),
    ('groups', (2, 8, 7, 7), lambda l, x, s: conv(l, x, s, pattern_weights(12, 2, 6, keep=0.6), 'y', b=bias(12),
                                                  group=4, pads=(1, 1, 1, 1))),
    ('depthwise', (1, 6, 9, 9), lambda l, x, s: conv(l, x, s, pattern_weights(6, 1, 3, keep=1.0), 'y', group=6,
                                                     strides=(2, 2), pads=(1, 1, 1, 1))),
    ('autopad', (3, 3, 9, 8), lambda l, x, s: conv(l, x, s, pattern_weights(5, 3, 4, keep=0.5), 'y', strides=(2, 2),
                                                   auto_pad='SAME_LOWER')),
    ('chain', (2, 4, 8, 8), chain),
    ('dense', (2, 4, 6, 6), dense),
    ('dense_chain', (1, 4, 9, 9), dense_chain),
    ('k5', (1, 3, 9, 9), k5),
]

with open(sys.argv[1], 'w') as f:
    f.write('\n'.join(func(n, s, b) for n, s, b in FUNCS) + '\n')
