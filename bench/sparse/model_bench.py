"""The whole-model table of the sparse bench: VGG-16 and ResNet-50 pruned
in PyTorch by prune_models.py, run by Strata dense and on the sparse path
(`strata-run --sparse detect`, untuned and with `--sparse-tune-db`), on the
same input; outputs compared with each other and with PyTorch's; times at
each thread count, with ONNX Runtime and PyTorch at one thread."""
import os
import re
import sys
import time

import numpy as np
import torch

import prune_models
import strata_tools as st

LABEL = {'vgg16': 'VGG-16', 'resnet50': 'ResNet-50'}
TOLERANCE = 1e-3  # of max |y|: 16 to 50 layers of f32 sums in other orders


def variants(work):
    """[(column, strata-run arguments)] of the sparse runs."""
    return [('sparse', ['--sparse', 'detect']),
            ('sparse tuned', ['--sparse', 'detect', '--sparse-tune-db', os.path.join(work, 'sparse-tune.db')])]


def report_summary(text):
    """'N convs; <the report's total line>' from sparse-report's output."""
    n = re.search(r'sparse-report: (\d+) sparse convolutions', text)
    total = re.search(r'^total: (.*)$', text, re.M)
    return '%s convs; %s' % (n.group(1) if n else '?', total.group(1) if total else 'no report')


def measure(name, work, threads, repeats, sparse_runs, ort_ms, torch_ms):
    """{column: {threads: ms}}, compile ms, errors, reports for one model."""
    model, _ = prune_models.pruned(name)  # the weights of the exported model (deterministic)
    stem = os.path.join(work, name)
    onnx, xin = stem + '_pattern.onnx', stem + '_x.npy'
    ref = np.load(stem + '_torch.npy')
    runs = [('dense', onnx, [])] + [(column, onnx, args) for column, args in sparse_runs]
    row = {'ms': {}, 'compile': {}, 'errors': {}, 'report': {}}
    outs = {r[0]: '%s_%s.npy' % (stem, r[0].replace(' ', '_')) for r in runs}
    for t in threads:
        for r in runs:
            column, path, args = r[:3]
            first = t == threads[0]
            extra = ['--input', xin] + args + (['--sparse-report'] if first and args else [])
            ms, compiled, text = st.run(path, repeats, threads=t, extra=extra, output=outs[column], full=True)
            row['ms'].setdefault(column, {})[t] = ms
            if first:
                row['compile'][column] = compiled
                if column != 'dense':
                    row['report'][column] = report_summary(text)
    for column in outs:
        row['errors'][column] = st.diff(outs[column], ref)
        if column != 'dense':
            row['errors'][column + ' vs dense'] = st.diff(outs[column], outs['dense'])
            if row['errors'][column + ' vs dense'][1] > TOLERANCE:
                print('%s: %s differs from the dense run by %.2g of max |y|' % (
                    name, column, row['errors'][column + ' vs dense'][1]), file=sys.stderr)
    row['ONNX Runtime'] = ort_ms(onnx, prune_models.DIMS, 1, repeats)
    x = torch.from_numpy(np.load(xin))
    row['PyTorch'] = torch_ms(lambda: model(x), 1, repeats)
    return row


def section(work, names, threads, repeats, peers):
    """The markdown of the section and its rows; `peers` = (ort_ms, torch_ms)."""
    t0 = time.time()
    sparse_runs = variants(work)
    for name in names:
        if not os.path.exists(os.path.join(work, name + '_pattern.onnx')):
            prune_models.build(name, work)
    head = ['## Whole models', '',
            'torchvision VGG-16 and ResNet-50, random weights (seed 0), pruned in PyTorch by '
            '`bench/sparse/prune_models.py` (top-8 natural patterns over the model\'s 3x3 kernels, 3.6x '
            'connectivity pruning of every 3x3 layer but the model\'s first convolution; 1x1, 7x7 and linear layers '
            'dense) and exported to ONNX with the zeros in the weights. Same input for every run; medians of '
            '%d runs after a warm-up. Speedup = dense time / sparse time at the same thread count.' % repeats, '']
    rows, failed = {}, []
    for n in names:
        try:
            rows[n] = measure(n, work, threads, repeats, sparse_runs, *peers)
        except st.ToolError as e:
            failed.append('%s: %s' % (LABEL.get(n, n), str(e).splitlines()[-1][:300]))
            print(e, file=sys.stderr)
    lines = head + ['Sparse runs: %s.' % '; '.join('%s = `strata-run %s`' % (c, ' '.join(a)) for c, a in sparse_runs), '']
    if rows:
        columns = ['dense'] + [c for c, _ in sparse_runs]
        cells = ['model']
        for t in threads:
            cells += ['%s %dT (ms)' % (c, t) for c in columns] + ['speedup %s %dT' % (c, t) for c in columns[1:]]
        cells += ['ONNX Runtime 1T', 'PyTorch 1T', 'max abs / rel diff vs PyTorch (%s)' % ', '.join(columns),
                  'vs Strata dense (%s)' % ', '.join(columns[1:])]
        lines += ['| ' + ' | '.join(cells) + ' |', '|---' * len(cells) + '|']
        for n, r in rows.items():
            c = [LABEL.get(n, n)]
            for t in threads:
                c += ['%.2f' % r['ms'][col][t] for col in columns]
                c += ['%.2fx' % (r['ms']['dense'][t] / r['ms'][col][t]) for col in columns[1:]]
            c += ['%.2f' % r['ONNX Runtime'], '%.2f' % r['PyTorch'],
                  ', '.join('%.1e / %.1e' % r['errors'][col] for col in columns),
                  ', '.join('%.1e / %.1e' % r['errors'][col + ' vs dense'] for col in columns[1:])]
            lines.append('| ' + ' | '.join(c) + ' |')
        lines += ['', 'Compile times (ms, strata-run\'s "compiled in", first thread count; the --sparse passes, '
                  'tuning included, run before it) and sparse-report totals:', '']
        for n, r in rows.items():
            lines.append('- %s: %s; %s' % (LABEL.get(n, n), ', '.join('%s %.0f' % kv for kv in r['compile'].items()),
                                           '; '.join('%s: %s' % kv for kv in r['report'].items())))
    lines += ['', 'Model section: %.0f s.' % (time.time() - t0)]
    if failed:
        lines += ['', 'Failed: ' + '; '.join(failed)]
    return '\n'.join(lines), rows
