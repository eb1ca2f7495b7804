"""The integer element types (i8, i16, i32, i64, ui8, ui16, ui32, ui64) through
the CPU pipeline AND the reference interpreter, each output compared
exactly with a Python reference computed on unbounded integers: edge
values (0, 1, the type's max and min, 2^63 for ui64, values whose unsigned
and signed readings differ), division and remainder by zero (Strata defines
0), shifts by >= the width (0), wrapping Pow and negative exponents, and
float -> int Cast saturation (NaN -> 0), reductions that wrap. Both sides must agree with the
reference, so a signed operation where an unsigned one belongs (divsi for
divui, a signed compare, sitofp for ui64) fails here.

Usage: int_types.py WORKDIR   (prints one line per case, then a summary)"""
import math
import os
import subprocess
import sys

import numpy as np

WORK = sys.argv[1]
os.makedirs(WORK, exist_ok=True)

DTYPES = {'i8': np.int8, 'i16': np.int16, 'i32': np.int32, 'i64': np.int64,
          'ui8': np.uint8, 'ui16': np.uint16, 'ui32': np.uint32, 'ui64': np.uint64}
N = 24


def bits(t):
    return np.dtype(DTYPES[t]).itemsize * 8


def unsigned(t):
    return t.startswith('u')


def rng_of(t):
    w = bits(t)
    return (0, 2 ** w - 1) if unsigned(t) else (-2 ** (w - 1), 2 ** (w - 1) - 1)


def wrap(t, v):
    w = bits(t)
    v %= 2 ** w
    if not unsigned(t) and v >= 2 ** (w - 1):
        v -= 2 ** w
    return v


def edges(t, seed):
    lo, hi = rng_of(t)
    r = np.random.default_rng(seed)
    vals = [0, 1, 2, 3, hi, hi - 1, hi // 2, hi // 2 + 1, lo, lo + 1, 7, 100 % (hi + 1)]
    if not unsigned(t):
        vals += [-1, -2, -7]
    while len(vals) < N:
        vals.append(int(r.integers(lo, hi, endpoint=True, dtype=np.int64 if not unsigned(t) else np.uint64)))
    vals = [min(max(v, lo), hi) for v in vals[:N]]
    r.shuffle(vals)
    return vals


def small(t, seed, n_hi=None):
    """Shift counts / exponents: 0 .. width + 2 (and negatives for signed)."""
    r = np.random.default_rng(seed)
    lo = -3 if not unsigned(t) else 0
    return [int(v) for v in r.integers(lo, (n_hi or bits(t)) + 3, N)]


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def r_div(t, a, b):
    return 0 if b == 0 else wrap(t, trunc_div(a, b))


def r_mod(t, a, b):
    if b == 0 or (b == -1 and not unsigned(t)):
        return 0
    return a % b  # Python's %: the divisor's sign (ONNX fmod = 0)


def r_fmod(t, a, b):
    if b == 0 or b == -1:
        return 0
    return a - trunc_div(a, b) * b  # C's %: the dividend's sign (fmod = 1)


def r_pow(t, a, b):
    if b < 0:
        return 1 if a == 1 else (-1 if b % 2 else 1) if a == -1 else 0
    return wrap(t, pow(a, b, 2 ** bits(t)))


def r_shift(t, a, b, left):
    if b >= bits(t):
        return 0
    return wrap(t, a << b) if left else a >> b


def r_sign(t, a):
    return (a > 0) - (a < 0)


BINARY = [
    ('add', '', lambda t, a, b: wrap(t, a + b), None),
    ('sub', '', lambda t, a, b: wrap(t, a - b), None),
    ('mul', '', lambda t, a, b: wrap(t, a * b), None),
    ('div', '', r_div, None),
    ('mod', '', r_mod, None),
    ('mod', '{fmod = 1 : i64}', r_fmod, None),
    ('max', '', lambda t, a, b: max(a, b), None),
    ('min', '', lambda t, a, b: min(a, b), None),
    ('pow', '', r_pow, 'small'),
    ('bit_shift', '{direction = "LEFT"}', lambda t, a, b: r_shift(t, a, b, True), 'shift'),
    ('bit_shift', '{direction = "RIGHT"}', lambda t, a, b: r_shift(t, a, b, False), 'shift'),
]
COMPARE = [('less', lambda a, b: a < b), ('less_or_equal', lambda a, b: a <= b),
           ('greater', lambda a, b: a > b), ('greater_or_equal', lambda a, b: a >= b),
           ('equal', lambda a, b: a == b)]
UNARY = [('abs', lambda t, a: wrap(t, abs(a))), ('sign', r_sign), ('neg', lambda t, a: wrap(t, -a)),
         ('relu', lambda t, a: max(a, 0))]
SIGNED_ONLY = {'neg', 'relu'}

cases = []  # (name, mlir function, input arrays, expected array)


def tensor(t, n=N):
    return 'tensor<%dx%s>' % (n, t)


def add(name, body, ins, want):
    cases.append((name, body, ins, want))


def arr(t, vals):
    return np.array(vals, dtype=object).astype(DTYPES[t]) if unsigned(t) else np.array(vals, dtype=DTYPES[t])


for ti, t in enumerate(DTYPES):
    a = edges(t, 10 + ti)
    b = edges(t, 20 + ti) + []
    b[0] = 0  # a zero divisor
    if not unsigned(t):
        b[1] = -1
    for k, (op, attrs, ref, second) in enumerate(BINARY):
        if op == 'bit_shift' and not unsigned(t):
            continue
        bb = b if second is None else small(t, 30 + k, 70 if second == 'small' else None)
        name = '%s%d_%s' % (op, k, t)
        ty = tensor(t)
        body = ('func.func @%s(%%a: %s, %%b: %s) -> %s {\n  %%r = "nn.%s"(%%a, %%b) %s : (%s, %s) -> %s\n'
                '  return %%r : %s\n}\n' % (name, ty, ty, ty, op, attrs, ty, ty, ty, ty))
        add(name, body, [arr(t, a), arr(t, bb)], arr(t, [ref(t, x, y) for x, y in zip(a, bb)]))
    for op, ref in COMPARE:
        name = '%s_%s' % (op, t)
        ty, bt = tensor(t), tensor('i1')
        body = ('func.func @%s(%%a: %s, %%b: %s) -> %s {\n  %%r = "nn.%s"(%%a, %%b) : (%s, %s) -> %s\n'
                '  return %%r : %s\n}\n' % (name, ty, ty, bt, op, ty, ty, bt, bt))
        bb = a[::-1]
        add(name, body, [arr(t, a), arr(t, bb)], np.array([ref(x, y) for x, y in zip(a, bb)], dtype=np.bool_))
    for op, ref in UNARY:
        if op in SIGNED_ONLY and unsigned(t):
            continue
        name = '%s_%s' % (op, t)
        ty = tensor(t)
        body = ('func.func @%s(%%a: %s) -> %s {\n  %%r = "nn.%s"(%%a) : (%s) -> %s\n  return %%r : %s\n}\n'
                % (name, ty, ty, op, ty, ty, ty))
        add(name, body, [arr(t, a)], arr(t, [ref(t, x) for x in a]))
    # int -> float: one correctly rounded conversion (numpy's astype).
    for ft, np_ft in (('f32', np.float32), ('f64', np.float64)):
        name = 'cast_%s_to_%s' % (t, ft)
        body = ('func.func @%s(%%a: %s) -> %s {\n  %%r = "nn.cast"(%%a) : (%s) -> %s\n  return %%r : %s\n}\n'
                % (name, tensor(t), tensor(ft), tensor(t), tensor(ft), tensor(ft)))
        add(name, body, [arr(t, a)], arr(t, a).astype(np_ft))
    # float -> int: truncation, saturation to the type's range (the 64-bit
    # bounds: the largest f32/f64-exact values below 2^63 and 2^64), NaN -> 0.
    lo, hi = rng_of(t)
    if bits(t) == 64:
        hi = 18446742974197923840 if unsigned(t) else 9223371487098961920
        lo = 0 if unsigned(t) else -hi
    for ft, np_ft in (('f32', np.float32), ('f64', np.float64)):
        fl = np.array([math.nan, math.inf, -math.inf, -1.5, -0.9, 0.9, 1.5, 127.9, 128.5, 255.5, 256.0, -129.0,
                       32767.5, 32768.0, 65535.5, 65536.0, -32769.0, 2147483647.0, 2147483648.0, 4294967295.0,
                       4294967296.0, 9.3e18, 1.9e19, -9.3e18], dtype=np_ft)

        def f2i(v):
            if math.isnan(v):
                return 0
            if math.isinf(v):
                return hi if v > 0 else lo
            return min(max(math.trunc(v), lo), hi)
        name = 'cast_%s_to_%s' % (ft, t)
        n = len(fl)
        body = ('func.func @%s(%%a: %s) -> %s {\n  %%r = "nn.cast"(%%a) : (%s) -> %s\n  return %%r : %s\n}\n'
                % (name, tensor(ft, n), tensor(t, n), tensor(ft, n), tensor(t, n), tensor(t, n)))
        add(name, body, [fl], arr(t, [f2i(float(v)) for v in fl]))
    # int -> int of every other type: two's complement (extsi/extui/trunci).
    for u in DTYPES:
        if u == t:
            continue
        name = 'cast_%s_to_%s' % (t, u)
        body = ('func.func @%s(%%a: %s) -> %s {\n  %%r = "nn.cast"(%%a) : (%s) -> %s\n  return %%r : %s\n}\n'
                % (name, tensor(t), tensor(u), tensor(t), tensor(u), tensor(u)))
        add(name, body, [arr(t, a)], arr(u, [wrap(u, x) for x in a]))
    # where, and data movement keep every bit.
    name = 'where_%s' % t
    ty = tensor(t)
    cond = np.array([i % 3 == 0 for i in range(N)], dtype=np.bool_)
    body = ('func.func @%s(%%c: %s, %%a: %s, %%b: %s) -> %s {\n  %%r = "nn.where"(%%c, %%a, %%b) : (%s, %s, %s) -> %s\n'
            '  return %%r : %s\n}\n' % (name, tensor('i1'), ty, ty, ty, tensor('i1'), ty, ty, ty, ty))
    add(name, body, [cond, arr(t, a), arr(t, b)], np.where(cond, arr(t, a), arr(t, b)))
    name = 'transpose_%s' % t
    body = ('func.func @%s(%%a: tensor<4x6x%s>) -> tensor<6x4x%s> {\n'
            '  %%r = "nn.transpose"(%%a) : (tensor<4x6x%s>) -> tensor<6x4x%s>\n  return %%r : tensor<6x4x%s>\n}\n'
            % (name, t, t, t, t, t))
    add(name, body, [arr(t, a).reshape(4, 6)], arr(t, a).reshape(4, 6).T.copy())
    name = 'gather_%s' % t
    body = ('func.func @%s(%%a: tensor<4x6x%s>) -> tensor<4x2x%s> {\n'
            '  %%i = "nn.constant"() {value = dense<[5, -6]> : tensor<2xi64>} : () -> tensor<2xi64>\n'
            '  %%r = "nn.gather"(%%a, %%i) {axis = 1 : i64} : (tensor<4x6x%s>, tensor<2xi64>) -> tensor<4x2x%s>\n'
            '  return %%r : tensor<4x2x%s>\n}\n' % (name, t, t, t, t, t))
    add(name, body, [arr(t, a).reshape(4, 6)], arr(t, a).reshape(4, 6)[:, [5, 0]].copy())
    for op, ref in (('reduce_max', max), ('reduce_min', min), ('reduce_sum', None), ('reduce_prod', 'prod')):
        name = '%s_%s' % (op, t)
        body = ('func.func @%s(%%a: tensor<4x6x%s>) -> tensor<4x1x%s> {\n'
                '  %%r = "nn.%s"(%%a) {axes = array<i64: 1>} : (tensor<4x6x%s>) -> tensor<4x1x%s>\n'
                '  return %%r : tensor<4x1x%s>\n}\n' % (name, t, t, op, t, t, t))
        rows = [a[i * 6:(i + 1) * 6] for i in range(4)]
        want = [[wrap(t, sum(r))] if ref is None else [wrap(t, math.prod(r))] if ref == 'prod' else [ref(r)]
                for r in rows]
        add(name, body, [arr(t, a).reshape(4, 6)], arr(t, want))
    for op, pick in (('arg_max', max), ('arg_min', min)):
        name = '%s_%s' % (op, t)
        body = ('func.func @%s(%%a: tensor<4x6x%s>) -> tensor<4x1xi64> {\n'
                '  %%r = "nn.%s"(%%a) {axis = 1 : i64} : (tensor<4x6x%s>) -> tensor<4x1xi64>\n'
                '  return %%r : tensor<4x1xi64>\n}\n' % (name, t, op, t))
        rows = [a[i * 6:(i + 1) * 6] for i in range(4)]
        add(name, body, [arr(t, a).reshape(4, 6)], np.array([[r.index(pick(r))] for r in rows], dtype=np.int64))

failed = 0
for name, body, ins, want in cases:
    path = os.path.join(WORK, name + '.mlir')
    with open(path, 'w') as f:
        f.write(body)
    files = []
    for i, x in enumerate(ins):
        files += ['--input', os.path.join(WORK, '%s.in%d.npy' % (name, i))]
        np.save(files[-1], x)
    verdicts = []
    for mode in ([], ['--interpret']):
        out = os.path.join(WORK, name + '.out.npy')
        p = subprocess.run(['strata-run', path, '--quiet', '--output', out] + files + mode,
                           capture_output=True, text=True)
        if p.returncode != 0:
            verdicts.append('%s: %s' % (mode and 'interpreter' or 'cpu', p.stderr.strip()))
            continue
        got = np.load(out)
        same = got.dtype == want.dtype and got.shape == want.shape and \
            np.array_equal(got, want, equal_nan=want.dtype.kind == 'f')
        if not same:
            verdicts.append('%s: got %s %r, want %s %r' % (mode and 'interpreter' or 'cpu', got.dtype, got.tolist(),
                                                             want.dtype, want.tolist()))
    print('%s: %s' % (name, 'OK' if not verdicts else 'FAIL ' + ' | '.join(verdicts)))
    failed += bool(verdicts)
print('%d cases, %d failed' % (len(cases), failed))
sys.exit(1 if failed else 0)
