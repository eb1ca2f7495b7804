"""The sparse bench (issue 17, PatDNN), called by bench/sparse/run:

  sparse_bench.py WORK [--quick] [--layers TAG,...] [--repeats N] [--rounds N] [--no-layers] [--no-models]
         [--models vgg16,resnet50] [--threads 1,2] [--skip COLUMN,...] [--json FILE]

prints markdown: the page header (machine, threads, repeats, date,
command), the layer tables (layer_bench.py) and the whole-model table
(model_bench.py). Every number comes from this run on this machine."""
import datetime
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import run as bench  # noqa: E402  bench/run.py: cpu_model, ort_ms, torch_ms (its argv[1] is WORK too)

import layer_bench  # noqa: E402
import layers  # noqa: E402
import mirror_check  # noqa: E402
import model_bench  # noqa: E402
import strata_tools as st  # noqa: E402


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def load_average():
    return open('/proc/loadavg').read().split()[0]


def layer_section(work, quick, repeats, rounds):
    skip = set(arg('--skip', '').split(','))  # e.g. --skip +tuning (the tuner's first run takes minutes)
    variants = [v for v in layer_bench.VARIANTS if v[0] not in skip]
    columns = [v[0] for v in variants]
    results = []
    t0 = time.time()
    only = [t for t in arg('--layers', '').split(',') if t]  # e.g. --layers 'VGG L5,VGG L8'
    for layer in layers.layers(quick, only):
        layers.check_layer(layer)
        layer.export(work)
        ms, errors, compile_ms, failed = layer_bench.measure(layer, variants, work, repeats, rounds,
                                                             (bench.ort_ms, bench.torch_ms))
        results.append((layer, ms, errors, compile_ms, failed))
        print('%s: %s' % (layer.name, ', '.join('%s %.3f' % kv for kv in ms.items())), file=sys.stderr)
    times, gflops, ratios = layer_bench.tables(results, columns)
    text = ['## Layers (one thread)', '',
            'Weights: PyTorch default init (seeded), projected onto the layer\'s top-%d natural patterns, then %.1fx '
            'connectivity pruning (not VGG L1, the first layer). Times in ms, the best of %d rounds of '
            '`strata-run --repeat %d` medians (ONNX Runtime and PyTorch: medians of %d runs after a warm-up, best of '
            'the same rounds). FLOP cut = dense FLOPs / FLOPs on kept weights.'
            % (layers.NUM_PATTERNS, layers.RATE, rounds, repeats, repeats), '']
    if skip - {''}:
        text += ['Left out by --skip: %s.' % ', '.join(sorted(skip - {''})), '']
    text += [times, '', 'GFLOP/s: dense FLOPs / time; for the sparse columns also actual FLOPs (kept weights) / time.',
             '', gflops, '', 'Ratios (speedups: the baseline\'s time over the variant\'s; above 1 = the variant is '
             'faster); max rel err = the largest |Strata variant - Strata dense| (and Strata dense vs PyTorch) over '
             'max |y|.', '', ratios, '',
             'Build times in s: strata-run\'s compile + the strata-opt run that produced the variant\'s IR '
             '(sparse-detect ... sparse-to-vector; for +tuning it includes sparse-tune\'s measurements, unless its '
             'database in the work directory already had them).', '', layer_bench.compile_table(results, columns), '',
             'Layer section: %.0f s (%d layers, %d columns).' % (time.time() - t0, len(results), len(columns) + 2)]
    failures = sorted({'%s (%s)' % (name, why.splitlines()[-1][:200]) for r in results for name, why in r[4].items()})
    if failures:
        text += ['', 'Failed variants (left out of their rows): ' + '; '.join(failures)]
    return '\n'.join(text), [(r[0].name,) + r[1:] for r in results]


FLAGS = {'--quick', '--no-layers', '--no-models'}
VALUED = {'--layers', '--repeats', '--rounds', '--models', '--threads', '--skip', '--json'}


def check_args(args):
    """Every argument is a known flag or a known option with its value:
    a typo must not silently run the whole bench."""
    i = 0
    while i < len(args):
        if args[i] in VALUED and i + 1 < len(args):
            i += 2
        elif args[i] in FLAGS:
            i += 1
        else:
            what = 'needs a value' if args[i] in VALUED else 'is not an option'
            sys.exit('bench/sparse/run: %r %s (bench/sparse/run --help lists them)' % (args[i], what))


def main():
    work = sys.argv[1]
    check_args(sys.argv[2:])
    quick = '--quick' in sys.argv
    repeats = int(arg('--repeats', 5 if quick else 10))
    rounds = int(arg('--rounds', 1 if quick else 2))
    bench.ORT_DIR = os.environ.get('STRATA_BENCH_PEERS', bench.ORT_DIR)
    command = 'bench/sparse/run ' + ' '.join(sys.argv[2:])
    header = ['# Sparse (PatDNN) bench', '',
              'machine: %s (`lscpu` model name), 1 thread unless a column says otherwise; %d repeats per median, '
              'best of %d rounds; %s; load average at start %s; command: `%s`.'
              % (bench.cpu_model(), repeats, rounds, datetime.datetime.now().strftime('%Y-%m-%d %H:%M'),
                 load_average(), command.strip()), '']
    header += [mirror_check.check(work), '']
    print('\n'.join(header))
    dump = {}
    if '--no-layers' not in sys.argv:
        text, dump['layers'] = layer_section(work, quick, repeats, rounds)
        print(text + '\n')
    if '--no-models' not in sys.argv:
        names = arg('--models', 'vgg16,resnet50').split(',')
        threads = [int(t) for t in arg('--threads', '1,2').split(',')]
        text, dump["models"] = model_bench.section(work, names, threads, max(repeats // 2, 3),
                                                      (bench.ort_ms, bench.torch_ms))
        print(text + '\n')
    print('load average at the end: %s' % load_average())
    if '--json' in sys.argv:
        with open(arg('--json', ''), 'w') as f:
            json.dump(dump, f, indent=1, default=str)


if __name__ == '__main__':
    main()
