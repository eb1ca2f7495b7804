"""Collects seed corpora for the libFuzzer targets from the test suite, so that
no large binary is committed. Usage: collect_seeds.py ROOT OUTDIR

Writes OUTDIR/corpus/<target>/<sha1> (one file per distinct seed; rerunning
is cheap and idempotent) and OUTDIR/dict/<target>.dict. Sources:
  mlir_pipeline   test/**/*.mlir split at '// -----' lines, full-line comments
                  dropped (RUN/CHECK lines are dead weight for mutation);
                  test/fuzz/seeds/mlir_pipeline
  onnx_import     the models test/frontends/onnx/gen_models.py generates (run
                  with Debian's /usr/bin/python3, which has onnx), including
                  its malformed bad_*.onnx; any *.onnx under test/
  npy_read        the .npy files gen_models.py writes, any *.npy under test/,
                  and a few written here for the dtypes and header versions
                  the tests do not cover
  pipeline_parse  every --pass-pipeline='...' in the tests, every pass and
                  alias name with its options; test/fuzz/seeds/pipeline_parse
Needs only the standard library; prints one line per target.
"""
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys

ROOT, OUT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TEST = os.path.join(ROOT, 'test')
# Seeds above the harnesses' own input bounds would be ignored anyway.
MAX_SEED = {'mlir_pipeline': 64 * 1024, 'pipeline_parse': 4096}


def files_under(top, suffix):
    for d, subdirs, names in os.walk(top):
        subdirs[:] = sorted(s for s in subdirs if s != 'Output')
        for n in sorted(names):
            if n.endswith(suffix):
                yield os.path.join(d, n)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


class Corpus:
    def __init__(self, target):
        self.target = target
        self.dir = os.path.join(OUT, 'corpus', target)
        os.makedirs(self.dir, exist_ok=True)
        self.count = 0

    def add(self, data):
        if not data.strip() or len(data) > MAX_SEED.get(self.target, 1 << 20):
            return
        path = os.path.join(self.dir, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            with open(path + '.tmp', 'wb') as f:
                f.write(data)
            os.replace(path + '.tmp', path)
        self.count += 1

    def add_dir(self, top, suffix=''):
        if os.path.isdir(top):
            for p in files_under(top, suffix):
                self.add(read(p))


def mlir_chunks(text):
    chunk = []
    for line in text.splitlines(keepends=True):
        if re.match(r'^// -----+\s*$', line):
            yield ''.join(chunk)
            chunk = []
        elif not line.lstrip().startswith('//'):
            chunk.append(line)
    yield ''.join(chunk)


def gen_onnx_models():
    """Runs gen_models.py into OUT/gen (once per change of the script)."""
    script = os.path.join(TEST, 'frontends', 'onnx', 'gen_models.py')
    gen = os.path.join(OUT, 'gen', 'onnx')
    stamp = os.path.join(gen, 'cases.txt')
    if os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(script):
        return gen
    python = '/usr/bin/python3' if os.path.exists('/usr/bin/python3') else sys.executable
    shutil.rmtree(gen, ignore_errors=True)
    r = subprocess.run([python, script, gen], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.stderr.write('collect_seeds: gen_models.py failed (no ONNX/npy seeds from it):\n%s'
                         % r.stderr.decode(errors='replace')[-2000:])
    return gen


def npy(descr, shape, data, version=1):
    """A .npy file, written by hand: the tests only make numpy's defaults."""
    shape_text = '(%s)' % ''.join('%d,' % d for d in shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    pre = 10 if version == 1 else 12
    header += ' ' * ((64 - (pre + len(header) + 1) % 64) % 64) + '\n'
    size = struct.pack('<H', len(header)) if version == 1 else struct.pack('<I', len(header))
    return b'\x93NUMPY' + bytes([version, 0]) + size + header.encode() + data


def dictionary(target, words):
    os.makedirs(os.path.join(OUT, 'dict'), exist_ok=True)
    path = os.path.join(OUT, 'dict', target + '.dict')
    lines = []
    for w in sorted(set(words)):
        lines.append('"%s"' % ''.join(c if 32 <= ord(c) < 127 and c not in '"\\' else '\\x%02x' % ord(c)
                                      for c in w))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def nn_op_names():
    irdl = read(os.path.join(ROOT, 'dialects', 'nn', 'nn.irdl.mlir')).decode()
    return re.findall(r'irdl\.operation @(\w+)', irdl)


def strata_passes():
    """(name, [options]) of every Strata pass and alias, from their tables."""
    passes = []
    for d in ['conversions', 'transforms', 'targets', 'dialects', 'core']:
        for p in files_under(os.path.join(ROOT, d), '.c'):
            text = read(p).decode(errors='replace')
            options = re.findall(r'\{"([a-z0-9-]+)",\s*STRATA_OPTION_', text)
            for name in re.findall(r'\.name\s*=\s*"([a-z0-9-]+)"', text):
                passes.append((name, options))
    return passes


def upstream_passes():
    inc = os.path.join(OUT, 'generated', 'upstream_passes.inc')
    if not os.path.exists(inc):
        return []
    return re.findall(r'^STRATA_UPSTREAM_PASS\("([^"]+)"', read(inc).decode(errors='replace'), re.M)


def main():
    fuzz_seeds = os.path.join(TEST, 'fuzz', 'seeds')

    mlir = Corpus('mlir_pipeline')
    for p in files_under(TEST, '.mlir'):
        for chunk in mlir_chunks(read(p).decode(errors='replace')):
            mlir.add(chunk.encode())
    mlir.add_dir(os.path.join(fuzz_seeds, 'mlir_pipeline'))
    ops = ['"nn.%s"' % o for o in nn_op_names()] + ['nn.%s' % o for o in nn_op_names()]
    dictionary('mlir_pipeline', ops + [
        'func.func', 'func.return', 'return', 'module', 'builtin.module', 'arith.constant',
        'tensor.empty', 'tensor<', 'tensor<?x', 'memref<', 'x', 'xf32>', 'xf16>', 'xf64>', 'xi1>',
        'xi8>', 'xi32>', 'xi64>', 'xui8>', 'xbf16>', 'f32', 'i64', 'index', 'dense<', 'dense_resource<',
        'array<i64:', 'array<f32:', 'unit', 'true', 'false', ' : ', ' -> ', '(%x', '%0', '%arg0',
        '@f', '{-#', '#-}', 'loc(', 'attributes', '0x7FC00000', '0xFF800000', 'inf', 'nan',
        '9223372036854775807', '-9223372036854775808', '4294967296', '1.0e+300',
    ])

    gen = gen_onnx_models()
    onnx = Corpus('onnx_import')
    onnx.add_dir(gen, '.onnx')
    for p in files_under(TEST, '.onnx'):
        onnx.add(read(p))
    onnx.add_dir(os.path.join(fuzz_seeds, 'onnx_import'))

    npys = Corpus('npy_read')
    npys.add_dir(gen, '.npy')
    for p in files_under(TEST, '.npy'):
        npys.add(read(p))
    npys.add(npy('<f4', (2, 3), struct.pack('<6f', 1, -2, 3.5, 0, float('inf'), float('nan'))))
    npys.add(npy('<f8', (), struct.pack('<d', 2.5), version=2))
    npys.add(npy('<f2', (3,), struct.pack('<3e', 1, -0.5, 65504), version=3))
    npys.add(npy('|b1', (2, 2), bytes([1, 0, 0, 1])))
    npys.add(npy('|i1', (0, 4), b''))
    npys.add(npy('|u1', (1, 1, 1, 1, 1, 1, 1, 1), b'\x07'))
    npys.add(npy('<i4', (2,), struct.pack('<2i', -1, 2147483647)))
    npys.add(npy('<i8', (1, 2), struct.pack('<2q', -(1 << 63), 42)))
    npys.add_dir(os.path.join(fuzz_seeds, 'npy_read'))
    dictionary('npy_read', ["\x93NUMPY", "'descr'", "'fortran_order'", "'shape'", 'False', 'True',
                            '<f4', '<f8', '<f2', '|b1', '|i1', '|u1', '<i4', '<i8', '>f4', '(', ',)'])

    pipes = Corpus('pipeline_parse')
    for ext in ('.mlir', '.test'):
        for p in files_under(TEST, ext):
            for m in re.finditer(r"""--pass-pipeline=(?:'([^']*)'|"([^"]*)")""", read(p).decode(errors='replace')):
                pipes.add((m.group(1) or m.group(2) or '').encode())
    passes = strata_passes()
    for name, options in passes:
        pipes.add(name.encode())
        if options:
            pipes.add(('builtin.module(func.func(%s{%s}))'
                       % (name, ' '.join('%s=1' % o for o in options))).encode())
    pipes.add_dir(os.path.join(fuzz_seeds, 'pipeline_parse'))
    upstream = upstream_passes()
    dictionary('pipeline_parse', [n for n, _ in passes] + [o for _, opts in passes for o in opts] + upstream + [
        'builtin.module(', 'func.func(', 'gpu.module(', '{', '}', '(', ')', ',', '=', "'", '"',
        'true', 'false', '-1', '9223372036854775807', '1e309'])

    for c in (mlir, onnx, npys, pipes):
        print('%-15s %5d seeds in %s' % (c.target, len(os.listdir(c.dir)), c.dir))


main()
