# Elementwise ops whose ONNX definition matches a torch function.
import torch.nn.functional as F

f32 = np.float32
S = [3, 7]
TS = 'tensor<3x7xf32>'


def unary(op, fn, attrs='', lo=-3.0, hi=3.0):
    a = (' {%s}' % attrs) if attrs else ''
    return Case(op + ('_' + attrs.split(' ')[0] if attrs else ''), [(S, f32, (lo, hi))],
                ['%%r = "nn.%s"(%%arg0)%s : (%s) -> %s' % (op, a, TS, TS)], TS, fn)


def binary(op, fn, attrs='', b_shape=(7,), lo=-3.0, hi=3.0):
    a = (' {%s}' % attrs) if attrs else ''
    tb = 'tensor<%sxf32>' % 'x'.join(map(str, b_shape))
    return Case(op + '_' + 'x'.join(map(str, b_shape)), [(S, f32, (lo, hi)), (list(b_shape), f32, (lo, hi))],
                ['%%r = "nn.%s"(%%arg0, %%arg1)%s : (%s, %s) -> %s' % (op, a, TS, tb, TS)], TS, fn)


CASES = [
    unary('gelu', F.gelu),
    unary('gelu', lambda x: F.gelu(x, approximate='tanh'), 'approximate = "tanh"'),
    unary('softplus', F.softplus, lo=-30, hi=30),
    unary('hard_swish', F.hardswish, lo=-5, hi=5),
    unary('hard_sigmoid', lambda x: F.hardsigmoid(x), 'alpha = 0.16666667 : f32, beta = 0.5 : f32', lo=-5, hi=5),
    unary('selu', F.selu),
    unary('elu', lambda x: F.elu(x, 0.7), 'alpha = 0.7 : f32'),
    unary('leaky_relu', lambda x: F.leaky_relu(x, 0.2), 'alpha = 0.2 : f32'),
    unary('sigmoid', torch.sigmoid, lo=-20, hi=20),
    unary('erf', torch.erf),
    unary('round', torch.round, lo=-4, hi=4),
    unary('tan', torch.tan, lo=-1.4, hi=1.4),
    unary('asin', torch.asin, lo=-1, hi=1),
    unary('acos', torch.acos, lo=-1, hi=1),
    unary('atan', torch.atan, lo=-10, hi=10),
    unary('sinh', torch.sinh),
    unary('cosh', torch.cosh),
    unary('asinh', torch.asinh, lo=-10, hi=10),
    unary('acosh', torch.acosh, lo=1, hi=10),
    unary('atanh', torch.atanh, lo=-0.99, hi=0.99),
    unary('thresholded_relu', lambda x: F.threshold(x, 0.5, 0.0), 'alpha = 0.5 : f32'),
    unary('shrink', lambda x: F.softshrink(x, 0.5), 'lambd = 0.5 : f32, bias = 0.5 : f32'),
    unary('shrink', lambda x: F.hardshrink(x, 0.7), 'bias = 0.0 : f32, lambd = 0.7 : f32'),
    unary('celu', lambda x: F.celu(x, 0.8), 'alpha = 0.8 : f32'),
    unary('sign', torch.sign),
    unary('clip', lambda x: torch.clamp(x, -1.0, 0.5), 'min = -1.0 : f32, max = 0.5 : f32'),
    binary('prelu', lambda x, s: torch.where(x < 0, s * x, x)),
    binary('mod', torch.fmod, 'fmod = 1 : i64', lo=0.5, hi=4),
    binary('pow', torch.pow, lo=0.1, hi=3),
    binary('div', torch.div, b_shape=(3, 1), lo=0.5, hi=3),
    Case('mod_int_python', [([9], np.int64, (-20, 20)), ([9], np.int64, (1, 6))],
         ['%r = "nn.mod"(%arg0, %arg1) : (tensor<9xi64>, tensor<9xi64>) -> tensor<9xi64>'], 'tensor<9xi64>', torch.remainder),
    Case('div_int_trunc', [([9], np.int64, (-20, 20)), ([9], np.int64, (1, 6))],
         ['%r = "nn.div"(%arg0, %arg1) : (tensor<9xi64>, tensor<9xi64>) -> tensor<9xi64>'], 'tensor<9xi64>',
         lambda a, b: torch.div(a, b, rounding_mode='trunc')),
]
