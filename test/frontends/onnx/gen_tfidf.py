"""TfIdfVectorizer models with random integer inputs and a numpy reference
that walks the n-grams as ONNX Runtime does (per skip distance, per start,
growing the n-gram while it is in the pool; unigrams at skip distance 1
only), plus malformed ones (bad_*.onnx) for the import errors. Usage:
gen_tfidf.py OUTDIR; the cases run through run_cases.py."""
import sys

import numpy as np
from onnx import TensorProto, helper

from onnx_cases import Cases, vi

OUT = sys.argv[1]
rng = np.random.default_rng(9)
C = Cases(OUT)


def grams_of(counts, pool):
    out = []
    for i, start in enumerate(counts):
        end = counts[i + 1] if i + 1 < len(counts) else len(pool)
        out += [tuple(pool[s:s + i + 1]) for s in range(start, end, i + 1)]
    return out


def tfidf(x, mode, lo, hi, skip, counts, indexes, pool, weights=None):
    ids = {g: i for i, g in enumerate(grams_of(counts, pool))}
    cols = max(indexes) + 1
    rows = x.reshape(-1, x.shape[-1])
    freq = np.zeros((rows.shape[0], cols), np.int64)
    for r, row in enumerate(rows):
        first = lo
        for d in range(1, skip + 2):
            for p in range(len(row)):
                for n in range(1, hi + 1):
                    if p + (n - 1) * d >= len(row):
                        break
                    g = tuple(int(row[p + j * d]) for j in range(n))
                    if n < first:
                        continue
                    if g in ids:
                        freq[r, indexes[ids[g]]] += 1
            if first == 1:
                first = 2
            if first > hi:
                break
    w = np.ones(cols) if weights is None else np.asarray(weights, np.float64)
    y = {'TF': freq, 'IDF': (freq > 0) * w, 'TFIDF': freq * w}[mode]
    return y.astype(np.float32).reshape(x.shape[:-1] + (cols,))


def pool_of(sizes, vocab):
    """Distinct random n-grams: sizes[i] of length i + 1."""
    counts, pool = [], []
    for i, k in enumerate(sizes):
        counts.append(len(pool))
        seen = set()
        while len(seen) < k:
            seen.add(tuple(int(v) for v in rng.integers(0, vocab, i + 1)))
        for g in sorted(seen):
            pool += g
    return counts, pool


def node(name, **at):
    return helper.make_node('TfIdfVectorizer', ['x'], ['y'], name=name, **at)


CASES = [  # name, shape, dtype, mode, min, max, skip, n-grams per length, weights
    ('tfidf_tf_uni_bi_skip2_2d_i64', (3, 9), np.int64, 'TF', 1, 2, 2, (3, 5), False),
    ('tfidf_idf_bi_tri_skip1_1d_i32', (12,), np.int32, 'IDF', 2, 3, 1, (2, 6, 4), False),
    ('tfidf_idf_weights_2d_i32', (2, 10), np.int32, 'IDF', 1, 3, 3, (3, 4, 3), True),
    ('tfidf_tfidf_weights_1d_i64', (15,), np.int64, 'TFIDF', 1, 2, 0, (4, 6), True),
    ('tfidf_tfidf_no_weights_2d_i64', (4, 7), np.int64, 'TFIDF', 3, 3, 2, (2, 3, 5), False),
]
for name, shape, dt, mode, lo, hi, skip, sizes, weighted in CASES:
    x = rng.integers(0, 4, shape).astype(dt)
    counts, pool = pool_of(sizes, 4)
    n = len(grams_of(counts, pool))
    indexes = [int(i) for i in rng.permutation(n)]  # a shuffled column per n-gram
    at = dict(mode=mode, min_gram_length=lo, max_gram_length=hi, max_skip_count=skip, ngram_counts=counts,
              ngram_indexes=indexes, pool_int64s=pool)
    w = None
    if weighted:
        w = [float(v) for v in rng.uniform(0.5, 2.0, n).astype(np.float32)]
        at['weights'] = w
    C.case(name, [node('tv', **at)], [('x', x)], [tfidf(x, mode, lo, hi, skip, counts, indexes, pool, w)], opset=9)
C.finish()

base = dict(mode='TF', min_gram_length=1, max_gram_length=2, max_skip_count=0, ngram_counts=[0, 2],
            ngram_indexes=[0, 1, 2], pool_int64s=[1, 2, 1, 2])
x = vi('x', (5,), TensorProto.INT64)
y = vi('y', (3,))
C.save('bad_tfidf_strings', [node('tv', **{**base, 'pool_int64s': [], 'pool_strings': ['a', 'b', 'a', 'b']})], [x], [y],
       opset=9)
C.save('bad_tfidf_counts', [node('tv', **{**base, 'ngram_counts': [0, 3]})], [x], [y], opset=9)
C.save('bad_tfidf_indexes', [node('tv', **{**base, 'ngram_indexes': [0, 1]})], [x], [y], opset=9)
C.save('bad_tfidf_duplicate', [node('tv', **{**base, 'pool_int64s': [1, 1, 1, 2]})], [x], [y], opset=9)
C.save('bad_tfidf_weights', [node('tv', **{**base, 'mode': 'TFIDF', 'weights': [1.0]})], [x], [y], opset=9)
C.save('bad_tfidf_float', [node('tv', **base)], [vi('x', (5,))], [y], opset=9)
C.save('bad_tfidf_mode', [node('tv', **{**base, 'mode': 'BM25'})], [x], [y], opset=9)
