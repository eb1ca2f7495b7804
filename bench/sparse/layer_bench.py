"""The layer table of the sparse bench (issue 17): each layer of layers.py
timed as Strata dense (default pipeline: Winograd where the runtime picks
it; and with STRATA_RT_WINOGRAD=0, the im2col GEMM), the sparse variants
built by strata-opt from the same ONNX (CSR, FKW without optimizations,
+FKR, +LRE, +tuning), ONNX Runtime and PyTorch, all at one thread in this
run. Every Strata variant's output is checked against the dense run on the
same input."""
import os
import sys
import time

import numpy as np
import torch

import strata_tools as st

# (column, strata-opt arguments, environment of strata-run): strata-opt
# builds each sparse variant's IR from the imported layer, down to the
# generated code (sparse-to-vector), which strata-run then compiles.
DETECT = '--sparse-detect'
VARIANTS = [
    ('dense', None, {}),
    ('dense GEMM', None, {'STRATA_RT_WINOGRAD': '0'}),
    ('CSR', [DETECT, '--sparse-to-csr'], {}),
    ('FKW no-opt', [DETECT, '--sparse-fkw', '--sparse-to-vector=segments=false lre=false'], {}),
    ('+FKR', [DETECT, '--sparse-fkr', '--sparse-fkw', '--sparse-to-vector=segments=true lre=false'], {}),
    ('+LRE', [DETECT, '--sparse-fkr', '--sparse-fkw', '--sparse-to-vector=segments=true lre=true'], {}),
    ('+tuning', [DETECT, '--sparse-fkr', '--sparse-fkw', '--sparse-tune=db={db}',
                 '--sparse-to-vector=segments=true lre=true'], {}),
]
PATTERN_STEPS = ['FKW no-opt', '+FKR', '+LRE', '+tuning']
# Relative to the largest |y|: f32 sums over up to 4608 terms in another order.
TOLERANCE = 1e-4


def _variant_model(layer, variant, work):
    """(the model strata-run times for this variant, strata-opt's ms). The
    tuner's latency database lives in `work`: a second bench run reuses its
    measurements (the structure of the seeded layers does not change)."""
    name, args, _ = variant
    if args is None:
        return layer.onnx, 0.0
    out = os.path.join(work, 'sparse_layer_%s.%s.mlir' % (layer.key(), name.replace('+', 'p').replace(' ', '_')))
    t0 = time.time()
    st.opt(st.import_onnx(layer.onnx), out, [a.format(db=os.path.join(work, 'sparse-tune.db')) for a in args])
    return out, (time.time() - t0) * 1e3


def measure(layer, variants, work, repeats, rounds, peers):
    """({column: ms}, {column: (max abs, rel) error}, {column: compile ms},
    {column: failure}) for one layer. Each column is the best of `rounds`
    medians, the rounds interleaving all columns; `peers` = (ort_ms,
    torch_ms) from bench/run.py. A variant that fails to build, compile or
    run is reported as failed (its message), not timed."""
    x = np.random.default_rng(0).uniform(-1, 1, layer.dims).astype(np.float32)
    xin = os.path.join(work, 'sparse_layer_%s.x.npy' % layer.key())
    np.save(xin, x)
    outs = {v[0]: os.path.join(work, 'sparse_layer_%s.%d.y.npy' % (layer.key(), i)) for i, v in enumerate(variants)}
    ms, errors, compile_ms, failed, models = {}, {}, {}, {}, {}
    for v in variants:
        try:
            models[v[0]], compile_ms['strata-opt ' + v[0]] = _variant_model(layer, v, work)
        except st.ToolError as e:
            failed[v[0]] = str(e)
    ort_ms, torch_ms = peers
    xt = torch.from_numpy(x)
    for _ in range(rounds):
        for name, _, env in variants:
            if name in failed:
                continue
            try:
                t, c = st.run(models[name], repeats, env=env, extra=['--input', xin], output=outs[name])
            except st.ToolError as e:
                failed[name] = str(e)
                continue
            ms[name] = min(ms.get(name, t), t)
            compile_ms[name] = c
        ms['ONNX Runtime'] = min(ms.get('ONNX Runtime', 1e30), ort_ms(layer.onnx, layer.dims, 1, repeats))
        ms['PyTorch'] = min(ms.get('PyTorch', 1e30), torch_ms(lambda: layer.conv(xt), 1, repeats))
    for name in failed:
        ms.pop(name, None)
        print('%s: %s failed: %s' % (layer.name, name, failed[name]), file=sys.stderr)
    with torch.no_grad():
        ref = layer.conv(xt).numpy()
    errors['PyTorch'] = st.diff(outs['dense'], ref)
    for name in ms:
        if name in outs and name != 'dense':
            errors[name] = st.diff(outs[name], outs['dense'])
    bad = [n for n, (_, rel) in errors.items() if rel > TOLERANCE]
    if bad:
        print('%s: outputs differ from the dense run: %s' % (
            layer.name, ', '.join('%s %.2g' % (n, errors[n][1]) for n in bad)), file=sys.stderr)
    return ms, errors, compile_ms, failed


def _row(cells):
    return '| ' + ' | '.join(cells) + ' |'


def _ratio(a, b):
    """a / b as a speedup cell ('–' when either is missing)."""
    return '%.2fx' % (a / b) if a is not None and b is not None else '–'


def tables(results, columns):
    """Markdown: times, GFLOP/s, then the ratios the issue asks for.
    results: [(layer, ms, errors, compile_ms, failed)]; columns: the Strata
    variants (a failed variant's cells are '–')."""
    peers = ['ONNX Runtime', 'PyTorch']
    sparse = [c for c in columns if c in PATTERN_STEPS or c == 'CSR']
    head = ['layer', 'dense GFLOP', 'FLOP cut'] + ['Strata ' + c if c.startswith('dense') else c for c in columns] + peers
    t = [_row(head), '|---' * len(head) + '|']
    g = [_row(['layer'] + ['%s (dense / actual)' % c if c in sparse else 'Strata ' + c for c in columns] + peers),
         '|---' * (len(columns) + 3) + '|']
    for layer, ms, _, _, _ in results:
        t.append(_row([layer.name, '%.2f' % (layer.dense_flops / 1e9), '%.2fx' % (layer.dense_flops / layer.sparse_flops)]
                      + ['%.3f' % ms[c] if c in ms else '–' for c in columns + peers]))
        cells = []
        for c in columns + peers:
            if c not in ms:
                cells.append('–')
                continue
            eff = layer.dense_flops / ms[c] / 1e6
            cells.append('%.1f / %.1f' % (eff, layer.sparse_flops / ms[c] / 1e6) if c in sparse else '%.1f' % eff)
        g.append(_row([layer.name] + cells))
    return '\n'.join(t), '\n'.join(g), ratio_table(results, columns)


def ratio_table(results, columns):
    """Speedups (the baseline's time over the variant's): the last pattern
    step over Strata's best dense and over CSR, CSR over best dense, each
    step over the one before; the index bytes; the largest output error."""
    steps = [c for c in PATTERN_STEPS if c in columns]
    last = steps[-1] if steps else None
    head = ['layer', 'Strata best dense (ms)', 'it vs ONNX Runtime / PyTorch']
    if last:
        head.append('%s over best dense (target >= 3x on VGG)' % last)
    if 'CSR' in columns:
        head.append('CSR over best dense')
    head += ['%s over %s' % (b, a if a != 'FKW no-opt' else 'no-opt') for a, b in zip(steps, steps[1:])]
    if last and 'CSR' in columns:
        head.append('%s over CSR' % last)
    head += ['FKW vs CSR index bytes (saving)', 'max rel err']
    out = [_row(head), '|---' * len(head) + '|']
    for layer, ms, errors, _, _ in results:
        best = min((c for c in columns if c.startswith('dense') and c in ms), key=lambda c: ms[c])
        row = [layer.name, '%.3f (%s)' % (ms[best], best),
               '%s / %s' % (_ratio(ms['ONNX Runtime'], ms[best]), _ratio(ms['PyTorch'], ms[best]))]
        if last:
            row.append(_ratio(ms[best], ms.get(last)))
        if 'CSR' in columns:
            row.append(_ratio(ms[best], ms.get('CSR')))
        row += [_ratio(ms.get(a), ms.get(b)) for a, b in zip(steps, steps[1:])]
        if last and 'CSR' in columns:
            row.append(_ratio(ms.get('CSR'), ms.get(last)))
        row.append('%d vs %d B (%.0f%%)' % (layer.fkw_index, layer.csr_index, 100 * (1 - layer.fkw_index / layer.csr_index)))
        row.append('%.1e' % max(rel for _, rel in errors.values()))
        out.append(_row(row))
    return '\n'.join(out)


def compile_table(results, columns):
    """Seconds to build each variant: strata-run's compile ("compiled in")
    plus, for the sparse ones, the strata-opt run that made their IR (the
    tuner's measurements for +tuning)."""
    head = ['layer'] + columns
    out = [_row(head), '|---' * len(head) + '|']
    for layer, _, _, compile_ms, _ in results:
        cells = [layer.name]
        for c in columns:
            if c not in compile_ms:
                cells.append('–')
                continue
            opt = compile_ms.get('strata-opt ' + c, 0.0)
            cells.append('%.1f' % (compile_ms[c] / 1e3) + (' + %.1f' % (opt / 1e3) if opt else ''))
        out.append(_row(cells))
    return '\n'.join(out)
