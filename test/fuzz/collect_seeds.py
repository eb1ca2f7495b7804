"""Collects seed corpora for the libFuzzer targets from the test suite, so that
no large binary is committed. Usage: collect_seeds.py ROOT OUTDIR

Writes OUTDIR/corpus/<target>/<sha1> (one file per distinct seed; rerunning
is cheap and idempotent) and OUTDIR/dict/<target>.dict. Sources:
  mlir_pipeline   test/**/*.mlir split at '// -----' lines, full-line comments
                  dropped (RUN/CHECK lines are dead weight for mutation);
                  test/fuzz/seeds/mlir_pipeline; the sparse seeds (below)
  sparse_ops      the chunks of the above that hold a sparse op, the functions
                  test/transforms/sparse/Inputs/gen_models.py writes for
                  numerics.test (run with Debian's /usr/bin/python3, which has
                  numpy; nn.conv that sparse-detect converts), and sparse
                  seeds generated here: valid sparse.fkw_conv, csr_conv and
                  pattern_conv functions (and nn.conv ones whose weights follow
                  a pattern set) of varied shapes, groups, windows, pattern
                  sets and tunings, built the way the passes build them (the
                  test files hold few valid ones, and mutating a valid op is
                  what reaches the checks of each array against the others);
                  and random byte strings starting with 0xFF, which sparse_ops
                  reads as the choices of a generated op
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
import random
import re
import shutil
import struct
import subprocess
import sys

ROOT, OUT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TEST = os.path.join(ROOT, 'test')
# Seeds above the harnesses' own input bounds would be ignored anyway.
MAX_SEED = {'mlir_pipeline': 64 * 1024, 'sparse_ops': 64 * 1024, 'pipeline_parse': 4096}


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


# ---- Structure-aware seeds for the sparse dialect ----
# The digest's 4-entry masks plus a full and a centre-only one.
SPARSE_MASKS = [0x03A, 0x0B2, 0x0B8, 0x09A, 0x01B, 0x036, 0x0D8, 0x1B0, 0x1FF, 0x010, 0x0BA]


def f32(v):
    return repr(float(v))


def tensor_type(dims):
    return 'tensor<%sxf32>' % 'x'.join(str(d) for d in dims)


def i64s(v):
    return 'array<i64%s>' % (': ' + ', '.join(str(x) for x in v) if v else '')


def dense(v, dims=None):
    dims = dims if dims is not None else [len(v)]
    return 'dense<[%s]> : %s' % (', '.join(f32(x) for x in v), tensor_type(dims))


def nested(w, dims):
    """dense<[[...]]> text of a flat list in row-major `dims`."""
    def rec(off, d):
        if d == len(dims):
            return f32(w[off])
        step = 1
        for e in dims[d + 1:]:
            step *= e
        return '[' + ', '.join(rec(off + i * step, d + 1) for i in range(dims[d])) + ']'
    if 0 in dims:
        return 'dense<0.0> : ' + tensor_type(dims)
    return 'dense<%s> : %s' % (rec(0, 0), tensor_type(dims))


def gen_sparse_models():
    """The functions test/transforms/sparse/Inputs/gen_models.py writes for
    numerics.test (nn.conv whose weights follow pattern sets, the input
    sparse-detect converts), one seed each; run once per change of it."""
    script = os.path.join(TEST, 'transforms', 'sparse', 'Inputs', 'gen_models.py')
    out = os.path.join(OUT, 'gen', 'sparse', 'orig.mlir')
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(script):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        python = '/usr/bin/python3' if os.path.exists('/usr/bin/python3') else sys.executable
        r = subprocess.run([python, script, out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            sys.stderr.write('collect_seeds: %s failed (no seeds from it):\n%s'
                             % (script, r.stderr.decode(errors='replace')[-2000:]))
            return []
    text = read(out).decode(errors='replace')
    return [m.encode() for m in re.findall(r'^func\.func .*?^}\n', text, re.M | re.S)]


def fkw_choices(name):
    """The values of sparse.fkw_conv's enum attribute `name` (permute,
    layout), as its op table lists them: the lowering's to define."""
    table = read(os.path.join(ROOT, 'dialects', 'sparse', 'sparse_ops.c')).decode()
    m = re.search(r'"%s",\s*STRATA_ATTR_ENUM,\s*\w+,\s*"([^"]*)"' % name, table)
    return m.group(1).split('|') if m else []


def sparse_case(rng, kind):
    group = rng.choice([1, 1, 1, 2, 3])
    cg, mg = rng.choice([1, 2, 3]), rng.choice([1, 2])
    C, M = cg * group, mg * group
    if rng.random() < 0.2:  # depthwise
        group, cg, mg = C, 1, 1
        M = C
    kh, kw = (3, 3) if kind != 'csr' else (rng.choice([1, 2, 3, 5]), rng.choice([1, 3, 4]))
    strides = [rng.choice([1, 1, 2]), rng.choice([1, 1, 2, 3])]
    dil = [rng.choice([1, 1, 2]), rng.choice([1, 1, 2])]
    pads = [rng.randint(0, 2) for _ in range(4)]
    N, H, W = rng.choice([1, 1, 2]), rng.randint(1, 7), rng.randint(1, 9)
    out = [N, M]
    for d, (i, k) in enumerate([(H, kh), (W, kw)]):
        span = dil[d] * (k - 1) + 1
        if i + pads[d] + pads[d + 2] < span:
            pads[d + 2] += span - (i + pads[d] + pads[d + 2])
        out.append((i + pads[d] + pads[d + 2] - span) // strides[d] + 1)
    masks = rng.sample(SPARSE_MASKS, rng.randint(1, 4))
    keep = rng.choice([0.0, 0.3, 0.6, 1.0])
    # pat[m][c]: a pattern id, or -1 for a pruned kernel; w: [M][cg][kh][kw]
    pat = [[(rng.randrange(len(masks)) if rng.random() < keep else -1) for _ in range(cg)] for _ in range(M)]
    w = [0.0] * (M * cg * kh * kw)
    for m in range(M):
        for c in range(cg):
            for b in range(kh * kw):
                base = (m * cg + c) * kh * kw
                if kind == 'csr' and (kh, kw) != (3, 3):
                    if rng.random() < keep * 0.5:
                        w[base + b] = rng.choice([-2, -1, -0.5, 0.25, 1, 3])
                elif pat[m][c] >= 0 and masks[pat[m][c]] >> b & 1:
                    w[base + b] = rng.choice([-2, -1, -0.5, 0, 0.25, 1, 3])
    window = 'strides = %s, pads = %s, dilations = %s, group = %d : i64' % (
        i64s(strides), i64s(pads), i64s(dil), group)
    xt, yt, bt = tensor_type([N, C, H, W]), tensor_type(out), tensor_type([M])
    bias = rng.random() < 0.5
    args = '%x: ' + xt + (', %b: ' + bt if bias else '')
    operands = '%x' + (', %b' if bias else '')
    types = xt + (', ' + bt if bias else '')
    body = []
    if kind == 'fkw':
        order = list(range(M))
        if rng.random() < 0.5:
            rng.shuffle(order)
        offset, index, stride, weight = [0], [], [], []
        for m in order:
            st = [0]
            for p in range(len(masks)):
                for c in range(cg):
                    if pat[m][c] == p:
                        index.append(c)
                        base = (m * cg + c) * 9
                        weight += [w[base + b] for b in range(9) if masks[p] >> b & 1]
                st.append(len(index) - offset[-1])
            stride += st
            offset.append(len(index))
        bounds = sorted(set([0, M] + rng.sample(range(1, M), rng.randint(0, M - 1)) if M > 1 else [0, M]))
        attrs = ('patterns = %s, %s, offset = %s, reorder = %s, index = %s, stride = %s, groups = %s, weight = %s'
                 % (i64s(masks), window, i64s(offset), i64s(order), i64s(index), i64s(stride), i64s(bounds),
                    dense(weight)))
        if rng.random() < 0.3:
            attrs += ', tile = %s' % i64s([rng.randint(1, 16), rng.randint(1, 16)])
        if rng.random() < 0.3:
            attrs += ', unroll = %s' % i64s([rng.choice([1, 2, 4, 8])])
        for name in ('permute', 'layout'):
            if rng.random() < 0.3 and fkw_choices(name):
                attrs += ', %s = "%s"' % (name, rng.choice(fkw_choices(name)))
        body.append('  %%y = "sparse.fkw_conv"(%s) {%s} : (%s) -> %s' % (operands, attrs, types, yt))
    elif kind == 'csr':
        row_ptr, col, val = [0], [], []
        for m in range(M):
            for k in range(cg * kh * kw):
                if w[m * cg * kh * kw + k] != 0.0:
                    col.append(k)
                    val.append(w[m * cg * kh * kw + k])
            row_ptr.append(len(col))
        attrs = ('kernel_shape = %s, %s, row_ptr = %s, col_index = %s, values = %s'
                 % (i64s([kh, kw]), window, i64s(row_ptr), i64s(col), dense(val)))
        body.append('  %%y = "sparse.csr_conv"(%s) {%s} : (%s) -> %s' % (operands, attrs, types, yt))
    else:
        wt = tensor_type([M, cg, 3, 3])
        body.append('  %%w = arith.constant %s' % nested(w, [M, cg, 3, 3]))
        ops = '%x, %w' + (', %b' if bias else '')
        tys = xt + ', ' + wt + (', ' + bt if bias else '')
        if kind == 'nn':
            conv = ('  %%y = "nn.conv"(%s) {strides = %s, pads = %s, dilations = %s, group = %d : i64} : (%s) -> %s'
                    % (ops, i64s(strides), i64s(pads), i64s(dil), group, tys, yt))
        else:
            fkr = ''
            if rng.random() < 0.3:
                order = list(range(M))
                rng.shuffle(order)
                fkr = ', filter_order = %s, filter_groups = %s' % (i64s(order), i64s([0, M]))
            conv = ('  %%y = "sparse.pattern_conv"(%s) {patterns = %s, %s%s} : (%s) -> %s'
                    % (ops, i64s(masks), window, fkr, tys, yt))
        body.append(conv)
    result = '%y'
    if rng.random() < 0.3:
        body.append('  %%r = "nn.relu"(%%y) : (%s) -> %s' % (yt, yt))
        result = '%r'
    return 'func.func @%s(%s) -> %s {\n%s\n  return %s : %s\n}\n' % (
        kind, args, yt, '\n'.join(body), result, yt)


def sparse_seeds():
    """Valid sparse op functions, one module each, reproducible."""
    rng = random.Random(17)
    kinds = ['fkw', 'csr', 'pattern', 'nn']
    return [sparse_case(rng, kinds[i % len(kinds)]).encode() for i in range(64)]


def sparse_words():
    irdl = read(os.path.join(ROOT, 'dialects', 'sparse', 'sparse.irdl.mlir')).decode()
    ops = re.findall(r'irdl\.operation @(\w+)', irdl)
    words = ['"sparse.%s"' % o for o in ops]
    for section in re.findall(r'irdl\.attributes \{([^}]*)\}', irdl):
        words += ['%s = ' % a for a in re.findall(r'"(\w+)"\s*=', section)]
    return words + fkw_choices('permute') + fkw_choices('layout') + ['array<i64>', 'array<i64: ', 'dense<[]> : tensor<0xf32>',
                    '511', '58', '178', '186', '-1', ' : i64', ' : i128', '?x']


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

    mlir, sparse = Corpus('mlir_pipeline'), Corpus('sparse_ops')
    for p in files_under(TEST, '.mlir'):
        for chunk in mlir_chunks(read(p).decode(errors='replace')):
            mlir.add(chunk.encode())
            if '"sparse.' in chunk:
                sparse.add(chunk.encode())
    mlir.add_dir(os.path.join(fuzz_seeds, 'mlir_pipeline'))
    for seed in sparse_seeds() + gen_sparse_models():
        mlir.add(seed)
        sparse.add(seed)
    # sparse_ops reads an input starting with 0xFF as the choices of a
    # generated op (test/fuzz/sparse_ops.c): random ones to start from.
    rng = random.Random(18)
    for _ in range(48):
        sparse.add(b'\xff' + bytes(rng.randrange(256) for _ in range(rng.randint(24, 200))))
    sparse.add_dir(os.path.join(fuzz_seeds, 'sparse_ops'))
    ops = ['"nn.%s"' % o for o in nn_op_names()] + ['nn.%s' % o for o in nn_op_names()]
    mlir_words = ops + sparse_words() + [
        'func.func', 'func.return', 'return', 'module', 'builtin.module', 'arith.constant',
        'tensor.empty', 'tensor<', 'tensor<?x', 'memref<', 'x', 'xf32>', 'xf16>', 'xf64>', 'xi1>',
        'xi8>', 'xi32>', 'xi64>', 'xui8>', 'xbf16>', 'f32', 'i64', 'index', 'dense<', 'dense_resource<',
        'array<i64:', 'array<f32:', 'unit', 'true', 'false', ' : ', ' -> ', '(%x', '%0', '%arg0',
        '@f', '{-#', '#-}', 'loc(', 'attributes', '0x7FC00000', '0xFF800000', 'inf', 'nan',
        '9223372036854775807', '-9223372036854775808', '4294967296', '1.0e+300',
    ]
    dictionary('mlir_pipeline', mlir_words)
    dictionary('sparse_ops', mlir_words)

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

    for c in (mlir, sparse, onnx, npys, pipes):
        print('%-15s %5d seeds in %s' % (c.target, len(os.listdir(c.dir)), c.dir))


main()
