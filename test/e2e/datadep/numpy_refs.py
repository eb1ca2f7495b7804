"""NonZero, Compress, Unique and NonMaxSuppression against NumPy: ONNX
models whose inputs have symbolic dims are compiled once for the CPU
(strata.Session) and run at several shapes on seeded random inputs with
repeated values; every output must equal the NumPy reference exactly
(dtype, shape and values). NonMaxSuppression's reference is written here
from the ONNX operator spec (greedy selection by descending score, ties to
the lower index, IoU as ONNX Runtime computes it in float32).

Usage: numpy_refs.py  (prints one line per case and 'N cases, M failed')."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

import strata

rng = np.random.default_rng(7)
TYPES = {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32, np.int64: TensorProto.INT64,
         np.bool_: TensorProto.BOOL, np.uint8: TensorProto.UINT8, np.float64: TensorProto.DOUBLE}


def model(node, inputs, outputs, opset=13):
    """inputs/outputs: (name, numpy type, rank); every dim symbolic."""
    def vi(name, t, rank):
        return helper.make_tensor_value_info(name, TYPES[t], ['%s_%d' % (name, i) for i in range(rank)])
    g = helper.make_graph([node], 'g', [vi(*i) for i in inputs], [vi(*o) for o in outputs])
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])


def ints(shape, lo=-3, hi=3, t=np.int32):
    return rng.integers(lo, hi, size=shape).astype(t)


def nms_reference(boxes, scores, max_out, iou, score_thr, center):
    f = np.float32

    def ext(b):
        if center:
            hw, hh = f(b[2] / f(2)), f(b[3] / f(2))
            return f(b[1] - hh), f(b[0] - hw), f(b[1] + hh), f(b[0] + hw)
        return min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])

    def suppress(a, b):
        u, v = ext(a), ext(b)
        ymin, xmin, ymax, xmax = max(u[0], v[0]), max(u[1], v[1]), min(u[2], v[2]), min(u[3], v[3])
        if xmax <= xmin or ymax <= ymin:
            return False
        inter = f(f(xmax - xmin) * f(ymax - ymin))
        ua, va = f(f(u[3] - u[1]) * f(u[2] - u[0])), f(f(v[3] - v[1]) * f(v[2] - v[0]))
        union = f(f(ua + va) - inter)
        if inter <= 0 or ua <= 0 or va <= 0 or union <= 0:
            return False
        return f(inter / union) > iou

    out = []
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            s = scores[b, c]
            cand = [i for i in range(len(s)) if score_thr is None or s[i] > score_thr]
            cand.sort(key=lambda i: (-s[i], i))
            kept = []
            for i in cand:
                if len(kept) >= max_out:
                    break
                if not any(suppress(boxes[b, i], boxes[b, k]) for k in kept):
                    kept.append(i)
            out += [[b, c, k] for k in kept]
    return np.array(out, np.int64).reshape(-1, 3)


def unique_reference(x, axis, sorted_):
    y, idx, inv, cnt = np.unique(x, True, True, True, axis=axis)
    if not sorted_:  # order of first occurrence, as ONNX's own test case recovers it
        order = np.argsort(idx)
        slot = np.empty_like(order)
        slot[order] = np.arange(len(order))
        idx, cnt, inv = idx[order], cnt[order], slot[inv]
        y = np.take(x if axis is not None else x.reshape(-1), idx, axis=axis or 0)
    return [y, idx.astype(np.int64), inv.reshape(-1).astype(np.int64), cnt.astype(np.int64)]


CASES = []


def case(name, m, feeds_list, ref):
    CASES.append((name, m, feeds_list, ref))


case('nonzero_i32', model(helper.make_node('NonZero', ['x'], ['y']), [('x', np.int32, 3)], [('y', np.int64, 2)]),
     [{'x': ints(s)} for s in [(2, 3, 4), (1, 1, 1), (5, 0, 2), (3, 7, 5)]], lambda d: [np.array(np.nonzero(d['x']))])
case('nonzero_bool', model(helper.make_node('NonZero', ['x'], ['y']), [('x', np.bool_, 2)], [('y', np.int64, 2)]),
     [{'x': ints(s, 0, 2, np.bool_)} for s in [(4, 4), (1, 9)]], lambda d: [np.array(np.nonzero(d['x']))])
for axis in [None, 0, -1]:
    attrs = {} if axis is None else {'axis': axis}
    node = helper.make_node('Compress', ['x', 'c'], ['y'], **attrs)
    m = model(node, [('x', np.float32, 2), ('c', np.bool_, 1)], [('y', np.float32, 1 if axis is None else 2)])
    feeds = []
    for shape in [(3, 4), (6, 2), (1, 5)]:
        n = shape[axis] if axis is not None else shape[0] * shape[1]
        for length in sorted({n, max(n - 2, 0)}):
            feeds.append({'x': rng.standard_normal(shape).astype(np.float32), 'c': ints(length, 0, 2, np.bool_)})
    case('compress_axis_%s' % axis, m, feeds, lambda d, axis=axis: [np.compress(d['c'], d['x'], axis=axis)])
for axis in [None, 0, 1]:
    for sorted_ in [1, 0]:
        attrs = {'sorted': sorted_}
        if axis is not None:
            attrs['axis'] = axis
        node = helper.make_node('Unique', ['x'], ['y', 'i', 'v', 'c'], **attrs)
        m = model(node, [('x', np.int64, 2)],
                  [('y', np.int64, 1 if axis is None else 2), ('i', np.int64, 1), ('v', np.int64, 1), ('c', np.int64, 1)])
        feeds = [{'x': ints(s, -2, 2, np.int64)} for s in [(4, 3), (1, 1), (9, 2)]]
        case('unique_axis_%s_sorted_%d' % (axis, sorted_), m, feeds,
             lambda d, axis=axis, s=sorted_: unique_reference(d['x'], axis, s))
node = helper.make_node('Unique', ['x'], ['y'])  # only Y asked for
case('unique_y_only', model(node, [('x', np.float32, 1)], [('y', np.float32, 1)]),
     [{'x': np.round(rng.standard_normal(n)).astype(np.float32)} for n in [7, 30]], lambda d: [np.unique(d['x'])])
for center in [0, 1]:
    node = helper.make_node('NonMaxSuppression', ['b', 's', 'm', 'i', 't'], ['y'], center_point_box=center)
    ins = [('b', np.float32, 3), ('s', np.float32, 3), ('m', np.int64, 1), ('i', np.float32, 1), ('t', np.float32, 1)]
    m = model(node, ins, [('y', np.int64, 2)], opset=11)
    feeds = []
    for (nb, nc, n, mo, iou, thr) in [(1, 1, 6, 3, 0.5, 0.0), (2, 3, 12, 5, 0.3, 0.2), (1, 2, 20, 20, 0.0, -1.0),
                                      (3, 1, 8, 0, 0.5, 0.0)]:
        boxes = rng.uniform(0, 4, (nb, n, 4)).astype(np.float32)
        scores = np.round(rng.uniform(0, 1, (nb, nc, n)), 1).astype(np.float32)  # ties occur
        feeds.append({'b': boxes, 's': scores, 'm': np.array([mo], np.int64), 'i': np.array([iou], np.float32),
                      't': np.array([thr], np.float32)})
    case('nms_center_%d' % center, m, feeds,
         lambda d, c=center: [nms_reference(d['b'], d['s'], d['m'][0], d['i'][0], d['t'][0], c)])
node = helper.make_node('NonMaxSuppression', ['b', 's', 'm'], ['y'])  # no thresholds
case('nms_no_thresholds', model(node, [('b', np.float32, 3), ('s', np.float32, 3), ('m', np.int64, 1)],
                                [('y', np.int64, 2)], opset=11),
     [{'b': rng.uniform(0, 4, (2, 9, 4)).astype(np.float32), 's': rng.uniform(-1, 1, (2, 2, 9)).astype(np.float32),
       'm': np.array([4], np.int64)}],
     lambda d: [nms_reference(d['b'], d['s'], 4, np.float32(0), None, 0)])

failed = 0
for name, m, feeds_list, ref in CASES:
    try:
        sess = strata.Session(m, target='cpu', cache_dir=None)
        bad = []
        for feeds in feeds_list:
            got, want = sess.run(None, feeds), ref(feeds)
            for g, w in zip(got, want):
                if g.dtype != w.dtype or g.shape != w.shape or not np.array_equal(g, w):
                    bad.append('shapes %s: got %s %s %s, want %s %s %s' % ({k: v.shape for k, v in feeds.items()},
                                                                        g.dtype, g.shape, g.tolist(), w.dtype, w.shape,
                                                                        w.tolist()))
        print('%s: %s (%d shape sets, 1 compile)' % (name, 'FAIL' if bad else 'OK', len(feeds_list)))
        for b in bad[:3]:
            print('  ' + b)
        failed += bool(bad)
    except strata.StrataError as e:
        print('%s: FAIL\n  %s' % (name, str(e).splitlines()[0]))
        failed += 1
print('%d cases, %d failed' % (len(CASES), failed))
sys.exit(1 if failed else 0)
