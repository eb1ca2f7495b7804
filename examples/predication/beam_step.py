"""A beam-search-like decoder step as an ONNX model with Loop and If, for
Strata's predication (issue 20; Grape's beam search, shared/specs/grape.md).

Given the top 2*B candidates of a step (scores sorted best first, token ids),
the step keeps the first B candidates that are not EOS as the new beams and
the best EOS score seen before the beams fill up. The Loop has a fixed bound
(2*B iterations) and a data-dependent exit (the beams are full); the If
chooses between finishing a hypothesis and extending a beam -- the control
flow Grape predicates by hand and Strata predicates with rewrite patterns.

Usage: beam_step.py OUTDIR [--beams B] [--eos-rate P] [--seed S]
Writes OUTDIR/beam_step.onnx, OUTDIR/scores.npy, OUTDIR/tokens.npy and the
expected outputs OUTDIR/expect_{beam_scores,beam_tokens,best_finished}.npy,
computed here in numpy from the same inputs."""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

EOS = 0


def build(beams):
    k = 2 * beams
    i64, f32, b = TensorProto.INT64, TensorProto.FLOAT, TensorProto.BOOL

    def const(name, value):
        return helper.make_node('Constant', [], [name], value=numpy_helper.from_array(np.asarray(value), name))

    # If branches: finish a hypothesis (EOS) or extend the next beam.
    then_g = helper.make_graph(
        [helper.make_node('Max', ['best_in', 'score'], ['best_t']),
         helper.make_node('Identity', ['count_in'], ['count_t']),
         helper.make_node('Identity', ['bs_in'], ['bs_t']),
         helper.make_node('Identity', ['bt_in'], ['bt_t'])],
        'finish', [],
        [helper.make_tensor_value_info('count_t', i64, []),
         helper.make_tensor_value_info('bs_t', f32, [beams]),
         helper.make_tensor_value_info('bt_t', i64, [beams]),
         helper.make_tensor_value_info('best_t', f32, [])])
    else_g = helper.make_graph(
        [const('one', np.int64(1)),
         const('ax0', np.array([0], np.int64)),
         helper.make_node('Unsqueeze', ['count_in', 'ax0'], ['pos']),
         helper.make_node('Unsqueeze', ['score', 'ax0'], ['score1']),
         helper.make_node('Unsqueeze', ['tok', 'ax0'], ['tok1']),
         helper.make_node('ScatterElements', ['bs_in', 'pos', 'score1'], ['bs_e'], axis=0),
         helper.make_node('ScatterElements', ['bt_in', 'pos', 'tok1'], ['bt_e'], axis=0),
         helper.make_node('Add', ['count_in', 'one'], ['count_e']),
         helper.make_node('Identity', ['best_in'], ['best_e'])],
        'extend', [],
        [helper.make_tensor_value_info('count_e', i64, []),
         helper.make_tensor_value_info('bs_e', f32, [beams]),
         helper.make_tensor_value_info('bt_e', i64, [beams]),
         helper.make_tensor_value_info('best_e', f32, [])])
    body = helper.make_graph(
        [helper.make_node('Gather', ['scores', 'iter'], ['score'], axis=0),
         helper.make_node('Gather', ['tokens', 'iter'], ['tok'], axis=0),
         const('eos', np.int64(EOS)),
         const('nbeams', np.int64(beams)),
         helper.make_node('Equal', ['tok', 'eos'], ['is_eos']),
         helper.make_node('If', ['is_eos'], ['count_o', 'bs_o', 'bt_o', 'best_o'],
                          then_branch=then_g, else_branch=else_g),
         helper.make_node('Less', ['count_o', 'nbeams'], ['cond_o'])],
        'step', [helper.make_tensor_value_info('iter', i64, []),
                 helper.make_tensor_value_info('cond_in', b, []),
                 helper.make_tensor_value_info('count_in', i64, []),
                 helper.make_tensor_value_info('bs_in', f32, [beams]),
                 helper.make_tensor_value_info('bt_in', i64, [beams]),
                 helper.make_tensor_value_info('best_in', f32, [])],
        [helper.make_tensor_value_info('cond_o', b, []),
         helper.make_tensor_value_info('count_o', i64, []),
         helper.make_tensor_value_info('bs_o', f32, [beams]),
         helper.make_tensor_value_info('bt_o', i64, [beams]),
         helper.make_tensor_value_info('best_o', f32, [])])
    nodes = [
        const('trip', np.int64(k)),
        const('go', np.bool_(True)),
        const('count0', np.int64(0)),
        const('bs0', np.zeros(beams, np.float32)),
        const('bt0', np.full(beams, -1, np.int64)),
        const('best0', np.float32(-np.inf)),
        helper.make_node('Loop', ['trip', 'go', 'count0', 'bs0', 'bt0', 'best0'],
                         ['count', 'beam_scores', 'beam_tokens', 'best_finished'], body=body),
    ]
    graph = helper.make_graph(
        nodes, 'beam_step',
        [helper.make_tensor_value_info('scores', f32, [k]), helper.make_tensor_value_info('tokens', i64, [k])],
        [helper.make_tensor_value_info('beam_scores', f32, [beams]),
         helper.make_tensor_value_info('beam_tokens', i64, [beams]),
         helper.make_tensor_value_info('best_finished', f32, [])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 16)])
    onnx.checker.check_model(model)
    return model


def reference(scores, tokens, beams):
    bs, bt, best, count = np.zeros(beams, np.float32), np.full(beams, -1, np.int64), np.float32(-np.inf), 0
    for s, t in zip(scores, tokens):
        if count >= beams:
            break
        if t == EOS:
            best = max(best, s)
        else:
            bs[count], bt[count] = s, t
            count += 1
    return bs, bt, np.float32(best)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('--beams', type=int, default=5)
    ap.add_argument('--eos-rate', type=float, default=0.5)
    ap.add_argument('--seed', type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    k = 2 * a.beams
    scores = np.sort(rng.standard_normal(k).astype(np.float32))[::-1].copy()
    tokens = rng.integers(1, 50000, k).astype(np.int64)
    tokens[rng.random(k) < a.eos_rate] = EOS
    onnx.save(build(a.beams), os.path.join(a.outdir, 'beam_step.onnx'))
    np.save(os.path.join(a.outdir, 'scores.npy'), scores)
    np.save(os.path.join(a.outdir, 'tokens.npy'), tokens)
    for name, v in zip(('beam_scores', 'beam_tokens', 'best_finished'), reference(scores, tokens, a.beams)):
        np.save(os.path.join(a.outdir, 'expect_%s.npy' % name), v)


if __name__ == '__main__':
    main()
