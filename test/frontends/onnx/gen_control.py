"""Builds ONNX If and Loop models with numpy reference outputs (Debian's
onnx 1.12 has no reference evaluator: the loops are simulated here in
numpy). Usage: gen_control.py OUTDIR. Writes the cases run_cases.py reads
and, as bad_*.onnx, the models the importer must refuse (errors-control.test)."""
import sys

import numpy as np
from onnx import TensorProto, helper

from onnx_cases import Cases, vi

OUT = sys.argv[1]
rng = np.random.default_rng(11)
C = Cases(OUT)
case = C.case
B, I64, I32 = TensorProto.BOOL, TensorProto.INT64, TensorProto.INT32


def r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def const(name, value):
    return helper.make_node('Constant', [], [name], value=helper.make_tensor(
        name + '_v', {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): I64,
                      np.dtype(np.int32): I32, np.dtype(bool): B}[value.dtype], value.shape, value.flatten().tolist()))


def graph(name, nodes, inputs, outputs, inits=()):
    from onnx import numpy_helper
    return helper.make_graph(nodes, name, inputs, outputs, [numpy_helper.from_array(v, n) for n, v in inits])


# ---- If: outer-scope values, an initializer inside a branch, and a name
# ('t') the then branch defines again: it shadows the outer 't' inside the
# branch only; the Add after the If reads the outer one.
x, bias, w = r(2, 3), r(3), r(3)
then_g = graph('then', [helper.make_node('Sub', ['x', 'one'], ['t']), helper.make_node('Mul', ['t', 'w_then'], ['yt'])],
               [], [vi('yt', (2, 3))], inits=[('one', np.ones(1, np.float32)), ('w_then', w)])
else_g = graph('else', [helper.make_node('Add', ['x', 'bias'], ['ye'])], [], [vi('ye', (2, 3))])
if_nodes = [helper.make_node('Mul', ['x', 'two'], ['t']),
            helper.make_node('If', ['c'], ['z'], then_branch=then_g, else_branch=else_g),
            helper.make_node('Add', ['z', 't'], ['y'])]
for flag in (True, False):
    c = np.array(flag)
    want = ((x - 1) * w if flag else x + bias) + 2 * x
    case('if_outer_%s' % ('then' if flag else 'else'), if_nodes, [('x', x), ('c', c)], [want.astype(np.float32)],
         inits=[('two', np.full(1, 2, np.float32)), ('bias', bias)])

# The condition computed in the graph, a one-element [1] tensor.
x = r(4)
cmp_then = graph('then', [helper.make_node('Relu', ['x'], ['a'])], [], [vi('a', (4,))])
cmp_else = graph('else', [helper.make_node('Neg', ['x'], ['b'])], [], [vi('b', (4,))])
case('if_computed_cond', [helper.make_node('ReduceSum', ['x'], ['s'], keepdims=1),
                          helper.make_node('Greater', ['s', 'zero'], ['c']),
                          helper.make_node('If', ['c'], ['y'], then_branch=cmp_then, else_branch=cmp_else)],
     [('x', x)], [np.maximum(x, 0) if x.sum() > 0 else -x], inits=[('zero', np.zeros(1, np.float32))])


# ---- Loop with a constant trip count and no cond (a for loop): a float
# accumulator, an int32 counter, and a scan output. The body's cond output
# is ignored (ONNX's for-loop form), so it is computed as False here.
def for_body():
    return graph('body', [helper.make_node('Cast', ['i'], ['fi'], to=TensorProto.FLOAT),
                          helper.make_node('Mul', ['x', 'fi'], ['xi']),
                          helper.make_node('Add', ['acc', 'xi'], ['acc2']),
                          helper.make_node('Add', ['k', 'three'], ['k2']),
                          helper.make_node('Not', ['cin'], ['cout0']),
                          helper.make_node('And', ['cout0', 'cin'], ['cout']),
                          helper.make_node('Identity', ['acc2'], ['scan'])],
                 [vi('i', (), I64), vi('cin', (), B), vi('acc', (3,)), vi('k', (1,), I32)],
                 [vi('cout', (), B), vi('acc2', (3,)), vi('k2', (1,), I32), vi('scan', (3,))])


x, acc0, k0 = r(3), r(3), np.array([5], np.int32)
accs, acc = [], acc0.copy()
for i in range(4):
    acc = acc + x * np.float32(i)
    accs.append(acc.copy())
wants = [acc, k0 + 12, np.stack(accs)]
for which, want in enumerate(wants):
    outs = ['acc_f', 'k_f', 'scan_f']
    case('loop_for_out%d' % which, [helper.make_node('Loop', ['M', '', 'acc0', 'k0'], outs, body=for_body()),
                                    helper.make_node('Identity', [outs[which]], ['y'])],
         [('x', x), ('acc0', acc0), ('k0', k0)], [want.astype(want.dtype)],
         inits=[('M', np.array(4, np.int64)), ('three', np.array([3], np.int32))])


# ---- Loop with only a cond (a while loop): an int64 counter and a float
# value carried; the loop stops when the counter reaches an outer limit.
def while_body():
    return graph('body', [helper.make_node('Add', ['k', 'one'], ['k2']),
                          helper.make_node('Mul', ['v', 'half'], ['vh']),
                          helper.make_node('Add', ['vh', 'x'], ['v2']),
                          helper.make_node('Less', ['k2', 'limit'], ['cout'])],
                 [vi('i', (1,), I64), vi('cin', (1,), B), vi('k', (1,), I64), vi('v', (2, 2))],
                 [vi('cout', (1,), B), vi('k2', (1,), I64), vi('v2', (2, 2))],
                 inits=[('one', np.array([1], np.int64)), ('half', np.array(0.5, np.float32))])


x, v0 = r(2, 2), r(2, 2)
k, v = np.array([0], np.int64), v0.copy()
while True:  # ONNX: cond (True) is checked before each iteration
    k = k + 1
    v = v * np.float32(0.5) + x
    if not k[0] < 5:
        break
for which, want in enumerate([k, v]):
    outs = ['k_f', 'v_f']
    case('loop_while_out%d' % which, [helper.make_node('Loop', ['', 'c0', 'k0', 'v0'], outs, body=while_body()),
                                      helper.make_node('Identity', [outs[which]], ['y'])],
         [('x', x), ('v0', v0)], [want], inits=[('c0', np.array([True])), ('k0', np.array([0], np.int64)),
                                               ('limit', np.array([5], np.int64))])


# ---- Loop with a trip count and a cond: stops early once the sum passes a
# bound, or after M iterations; M and cond are model inputs (not constants).
def both_body():
    return graph('body', [helper.make_node('Mul', ['v', 'x'], ['vx']),
                          helper.make_node('Add', ['vx', 'x'], ['v2']),
                          helper.make_node('ReduceSum', ['v2'], ['s'], keepdims=0),
                          helper.make_node('Less', ['s', 'bound'], ['cout'])],
                 [vi('i', (), I64), vi('cin', (), B), vi('v', (3,))], [vi('cout', (), B), vi('v2', (3,))],
                 inits=[('bound', np.array(6.0, np.float32))])


x = np.abs(r(3)) + np.float32(0.5)
for m, c in ((10, True), (2, True), (10, False)):
    v = np.zeros(3, np.float32)
    cond, i = c, 0
    while i < m and cond:
        v = v * x + x
        cond = v.sum() < 6
        i += 1
    case('loop_both_m%d_%s' % (m, 'go' if c else 'stop'),
         [helper.make_node('Loop', ['M', 'c', 'v0'], ['y'], body=both_body())],
         [('x', x), ('M', np.array(m, np.int64)), ('c', np.array(c))], [v],
         inits=[('v0', np.zeros(3, np.float32))])


# ---- Scan outputs whose length is known only at run time: a trip count
# that is a model input, a cond that stops the loop early (or before the
# first iteration: zero rows), a while loop (cond only). The accumulators
# grow while the loop runs and are cut to the iterations run.
def scan_body():
    return graph('body', [helper.make_node('Mul', ['v', 'x'], ['vx']),
                          helper.make_node('Add', ['vx', 'x'], ['v2']),
                          helper.make_node('ReduceSum', ['v2'], ['s'], keepdims=0),
                          helper.make_node('Less', ['s', 'bound'], ['cout']),
                          helper.make_node('Identity', ['v2'], ['row']),
                          helper.make_node('Mul', ['i', 'i'], ['isq'])],
                 [vi('i', (), I64), vi('cin', (), B), vi('v', (3,))],
                 [vi('cout', (), B), vi('v2', (3,)), vi('row', (3,)), vi('isq', (), I64)],
                 inits=[('bound', np.array(30.0, np.float32))])


def scan_reference(m, c):
    v, rows, isq, cond, i = np.zeros(3, np.float32), [], [], c, 0
    while (m is None or i < m) and cond:
        v = v * x + x
        rows.append(v.copy())
        isq.append(i * i)
        cond = v.sum() < 30
        i += 1
    return np.array(rows, np.float32).reshape(-1, 3), np.array(isq, np.int64)


x = np.abs(r(3)) + np.float32(0.5)
for m, c, label in ((12, True, 'm12'), (2, True, 'm2'), (7, False, 'none'), (None, True, 'while')):
    rows, isq = scan_reference(m, c)
    for which, want in enumerate([rows, isq]):
        outs = ['v_f', 'rows', 'isq']
        case('loop_scan_%s_out%d' % (label, which),
             [helper.make_node('Loop', ['M' if m is not None else '', 'c', 'v0'], outs, body=scan_body()),
              helper.make_node('Identity', [outs[1 + which]], ['y'])],
             [('x', x), ('c', np.array(c))] + ([('M', np.array(m, np.int64))] if m is not None else []), [want],
             inits=[('v0', np.zeros(3, np.float32))])
# A run-time trip count and no cond: the rows of a for loop.
rows, _ = scan_reference(3, True)
case('loop_scan_runtime_m', [helper.make_node('Loop', ['M', '', 'v0'], ['v_f', 'rows', 'isq'], body=scan_body()),
                             helper.make_node('Identity', ['rows'], ['y'])],
     [('x', x), ('M', np.array(3, np.int64))], [rows], inits=[('v0', np.zeros(3, np.float32))])


# ---- A body value whose inferred type leaves one dim '?' (a Slice with the
# iteration number as its bounds) that the body declares static: narrowed
# to the declared type (checked at run time), so it can be carried and
# scanned (ONNX's test_loop11).
def narrowed_body():
    return graph('body', [helper.make_node('Add', ['i', 'one'], ['end']),
                          helper.make_node('Unsqueeze', ['i', 'zero'], ['start1']),
                          helper.make_node('Unsqueeze', ['end', 'zero'], ['end1']),
                          helper.make_node('Slice', ['table', 'start1', 'end1'], ['t']),
                          helper.make_node('Add', ['y', 't'], ['y2']),
                          helper.make_node('Identity', ['y2'], ['scan']),
                          helper.make_node('Identity', ['cin'], ['cout'])],
                 [vi('i', (), I64), vi('cin', (), B), vi('y', (1,))],
                 [vi('cout', (), B), vi('y2', (1,)), vi('scan', (1,))],
                 inits=[('one', np.array(1, np.int64)), ('zero', np.array([0], np.int64))])


table, y0 = r(6), r(1)
ys, y = [], y0.copy()
for i in range(4):
    y = y + table[i:i + 1]
    ys.append(y.copy())
case('loop_narrowed_scan', [helper.make_node('Loop', ['M', 'c', 'y0'], ['y_f', 'scan'], body=narrowed_body()),
                            helper.make_node('Identity', ['scan'], ['y'])],
     [('y0', y0), ('M', np.array(4, np.int64)), ('c', np.array(True))], [np.stack(ys)], inits=[('table', table)],
     opset=13)


# ---- An If nested in a Loop's body, reading the iteration number and an
# outer value: even iterations add x, odd ones halve.
def nested_body():
    then_g = graph('then', [helper.make_node('Add', ['v', 'x'], ['a'])], [], [vi('a', (2,))])
    else_g = graph('else', [helper.make_node('Mul', ['v', 'half'], ['b'])], [], [vi('b', (2,))])
    return graph('body', [helper.make_node('Mod', ['i', 'two'], ['odd']),
                          helper.make_node('Equal', ['odd', 'zero'], ['even']),
                          helper.make_node('If', ['even'], ['v2'], then_branch=then_g, else_branch=else_g),
                          helper.make_node('Identity', ['cin'], ['cout'])],
                 [vi('i', (), I64), vi('cin', (), B), vi('v', (2,))], [vi('cout', (), B), vi('v2', (2,))],
                 inits=[('two', np.array(2, np.int64)), ('zero', np.array(0, np.int64)),
                        ('half', np.array(0.5, np.float32))])


x, v = r(2), np.zeros(2, np.float32)
for i in range(5):
    v = v + x if i % 2 == 0 else v * np.float32(0.5)
case('loop_nested_if', [helper.make_node('Loop', ['M', '', 'v0'], ['y'], body=nested_body())], [('x', x)], [v],
     inits=[('M', np.array(5, np.int64)), ('v0', np.zeros(2, np.float32))])


# ---- A Loop in a Loop: the inner body reads the outer body's carried value
# and iteration number; the outer scans the inner result and its own
# iteration numbers (a scan of a rank-0 int64).
def inner_body():
    return graph('inner', [helper.make_node('Cast', ['oi'], ['foi'], to=TensorProto.FLOAT),
                           helper.make_node('Add', ['w', 'foi'], ['w1']),
                           helper.make_node('Mul', ['w1', 'ov'], ['w2']),
                           helper.make_node('Identity', ['cin2'], ['cout2'])],
                 [vi('j', (), I64), vi('cin2', (), B), vi('w', (2,))], [vi('cout2', (), B), vi('w2', (2,))])


def outer_body():
    return graph('outer', [helper.make_node('Loop', ['two', '', 'ov'], ['inner_out'], body=inner_body()),
                           helper.make_node('Mul', ['inner_out', 'tenth'], ['ov2']),
                           helper.make_node('Identity', ['cin'], ['cout']),
                           helper.make_node('Identity', ['oi'], ['iter_scan'])],
                 [vi('oi', (), I64), vi('cin', (), B), vi('ov', (2,))],
                 [vi('cout', (), B), vi('ov2', (2,)), vi('iter_scan', (), I64)],
                 inits=[('two', np.array(2, np.int64)), ('tenth', np.array([0.1], np.float32))])


v0 = r(2)
ov, iters = v0.copy(), []
for oi in range(3):
    w = ov.copy()
    for j in range(2):
        w = (w + np.float32(oi)) * ov
    ov = (w * np.float32(0.1)).astype(np.float32)
    iters.append(oi)
for which, want in enumerate([ov, np.array(iters, np.int64)]):
    outs = ['v_f', 'iters']
    case('loop_nested_loop_out%d' % which, [helper.make_node('Loop', ['M', '', 'v0'], outs, body=outer_body()),
                                            helper.make_node('Identity', [outs[which]], ['y'])],
         [('v0', v0)], [want], inits=[('M', np.array(3, np.int64))])
C.finish()


# ---- Refused.
def save_bad(name, nodes, inputs, outputs, inits=()):
    C.save(name, nodes, inputs, outputs, list(inits))


short = graph('then', [helper.make_node('Identity', ['x'], ['a'])], [], [vi('a', (3,))])
longer = graph('else', [helper.make_node('Concat', ['x', 'x'], ['b'], axis=0)], [], [vi('b', (6,))])
save_bad('bad_if_shapes', [helper.make_node('If', ['c'], ['y'], then_branch=short, else_branch=longer, name='branchy')],
         [vi('c', (), B), vi('x', (3,))], [vi('y', (3,))])
# A body output declared [1] that is [2] at run time (Slice(i, i + 2)): the
# narrowing's check fails at run time, with the node's location.
wide = graph('body', [helper.make_node('Add', ['i', 'two'], ['end']),
                      helper.make_node('Unsqueeze', ['i', 'zero'], ['start1']),
                      helper.make_node('Unsqueeze', ['end', 'zero'], ['end1']),
                      helper.make_node('Slice', ['table', 'start1', 'end1'], ['t']),
                      helper.make_node('Identity', ['cin'], ['cout'])],
             [vi('i', (), I64), vi('cin', (), B), vi('y', (1,))], [vi('cout', (), B), vi('t', (1,))],
             [('two', np.array(2, np.int64)), ('zero', np.array([0], np.int64)), ('table', np.ones(6, np.float32))])
save_bad('bad_loop_narrow_runtime', [helper.make_node('Loop', ['M', '', 'y0'], ['y'], name='narrow', body=wide)],
         [vi('y0', (1,))], [vi('y', (1,))], inits=[('M', np.array(2, np.int64))])
# A scan output and a carried value whose inferred types leave two dims '?'
# (a 2-D Slice with run-time bounds): an element-count check cannot narrow
# them to the declared 1x1 (it could not tell 2x3 from 3x2).
two_q = graph('body', [helper.make_node('Add', ['i', 'one'], ['end']),
                       helper.make_node('Unsqueeze', ['i', 'zero'], ['s1']),
                       helper.make_node('Unsqueeze', ['end', 'zero'], ['e1']),
                       helper.make_node('Concat', ['s1', 's1'], ['starts'], axis=0),
                       helper.make_node('Concat', ['e1', 'e1'], ['ends'], axis=0),
                       helper.make_node('Slice', ['table', 'starts', 'ends'], ['t']),
                       helper.make_node('Identity', ['cin'], ['cout']),
                       helper.make_node('Identity', ['v'], ['v2']),
                       helper.make_node('Identity', ['t'], ['s'])],
              [vi('i', (), I64), vi('cin', (), B), vi('v', (3,))], [vi('cout', (), B), vi('v2', (3,)), vi('s', (1, 1))],
              [('one', np.array(1, np.int64)), ('zero', np.array([0], np.int64)), ('table', np.ones((4, 4), np.float32))])
save_bad('bad_loop_scan_dynamic', [helper.make_node('Loop', ['M', '', 'v0'], ['v', 'scan'], name='scanner', body=two_q)],
         [vi('v0', (3,))], [vi('scan', (2, 1, 1))], inits=[('M', np.array(2, np.int64))])
save_bad('bad_loop_grow', [helper.make_node('Loop', ['M', '', 'v0'], ['y'], name='grower', body=graph(
    'body', [helper.make_node('Identity', ['cin'], ['cout']), helper.make_node('Concat', ['v', 'v'], ['v2'], axis=0)],
    [vi('i', (), I64), vi('cin', (), B), vi('v', (3,))], [vi('cout', (), B), vi('v2', (6,))]))],
    [vi('v0', (3,))], [vi('y', (None,))], inits=[('M', np.array(2, np.int64))])
seq_in = helper.make_tensor_sequence_value_info('v', TensorProto.FLOAT, [3])
save_bad('bad_loop_seq', [helper.make_node('Loop', ['M', '', 'v0'], ['y'], name='seqloop', body=graph(
    'body', [helper.make_node('Identity', ['cin'], ['cout']), helper.make_node('Identity', ['v'], ['v2'])],
    [vi('i', (), I64), vi('cin', (), B), seq_in], [vi('cout', (), B), vi('v2', (3,))]))],
    [vi('v0', (3,))], [vi('y', (3,))], inits=[('M', np.array(2, np.int64))])
with_input = graph('then', [helper.make_node('Identity', ['p'], ['a'])], [vi('p', (3,))], [vi('a', (3,))])
save_bad('bad_if_inputs', [helper.make_node('If', ['c'], ['y'], then_branch=with_input, else_branch=short, name='taker')],
         [vi('c', (), B), vi('x', (3,))], [vi('y', (3,))])
deep = short
for _ in range(70):  # Ifs nested 70 deep
    deep = graph('then', [helper.make_node('If', ['c'], ['a'], then_branch=deep, else_branch=short)], [], [vi('a', (3,))])
save_bad('bad_if_deep', [helper.make_node('If', ['c'], ['y'], then_branch=deep, else_branch=short, name='deep')],
         [vi('c', (), B), vi('x', (3,))], [vi('y', (3,))])
