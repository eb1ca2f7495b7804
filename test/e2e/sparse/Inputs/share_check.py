"""Checks when sparse-to-vector computes filters together (unroll = [U],
docs/passes.md, item 4): exactly when U consecutive stored filters of one
FKR group and one convolution group use the same (pattern, channel) at
every kernel position. The expectation is computed here from each
sparse.fkw_conv's arrays; what the lowering did is read from its code:
filters computed together emit U times the FMAs of one (a register tile per
filter, the shared loads feeding all of them) in loops of their own, so the
generated function of an op with shared blocks has more FMAs than the same
op at unroll 1 -- as many more as the blocks predict -- and one without has
exactly as many.

Usage: share_check.py SPARSE.mlir [LOWERED.mlir] [--min-shared N]
SPARSE.mlir: gen_sparse.py cases --merge --funcs sparse --ops fkw --tunings
'...' where an op of unroll U > 1 follows an unroll-1 op of its case with
the same tile and permute (its baseline); LOWERED.mlir: strata-opt
--sparse-to-vector of it. Prints a line per op and a total; exits 1 when
the code disagrees with the expectation, or fewer than N ops share.
Without LOWERED.mlir, prints the expectation alone (no baseline needed)."""
import re
import sys


def i64s(attrs, name):
    m = re.search(r'\b%s = array<i64(?:: ([-0-9, ]*))?>' % name, attrs)
    if not m:
        return None
    return [int(v) for v in m.group(1).split(',')] if m.group(1) else []


def fkw_ops(text):
    """(result name, attributes dict) of every fkw_conv, in program order."""
    ops = []
    for m in re.finditer(r'^\s*(%\S+) = "sparse\.fkw_conv"\(.*?\) \{(.*)\} : \(.*\) -> tensor<(\d+)x(\d+)x', text, re.M):
        attrs = m.group(2)
        a = {k: i64s(attrs, k) for k in ('patterns', 'offset', 'reorder', 'index', 'stride', 'groups', 'unroll',
                                          'tile')}
        a['group'] = int(re.search(r'\bgroup = (\d+) : i64', attrs).group(1))
        a['permute'] = (re.search(r'permute = "(\w+)"', attrs) or [None, None])[1]
        a['M'] = int(m.group(4))
        ops.append((m.group(1), a))
    return ops


def popcount(m):
    return bin(m).count('1')


def plan(a):
    """The blocks of U filters computed together, by the rule of the docs,
    and the taps the generated code has per output vector: per FKR group,
    one loop per pattern present in its blocks (U tiles: U times the taps)
    and one per pattern present in its other filters; a set that continues
    the one before it (same unroll, same patterns) shares its loops.
    Returns (blocks
    holding kernels, taps at unroll U, taps at unroll 1)."""
    U = (a['unroll'] or [1])[0]
    P, Mg = len(a['patterns']), a['M'] // a['group']
    st = lambda s: a['stride'][s * (P + 1):(s + 1) * (P + 1)]
    idx = lambda s: a['index'][a['offset'][s]:a['offset'][s + 1]]
    same = lambda s, v: a['reorder'][s] // Mg == a['reorder'][v] // Mg and st(s) == st(v) and idx(s) == idx(v)
    used = lambda filters: frozenset(p for p in range(P) if any(st(s)[p + 1] > st(s)[p] for s in filters))
    taps = lambda pats: sum(popcount(a['patterns'][p]) for p in pats)
    blocks, tapsU, taps1 = 0, 0, 0
    g = a['groups']
    # a loop set continuing the one before it (the same unroll, adjacent,
    # the same patterns) extends it: its code is there once
    last1, lastU = None, None
    for g0, g1 in zip(g, g[1:]):
        if g1 > g0 and used(range(g0, g1)) != last1:
            taps1 += taps(used(range(g0, g1)))
        last1 = used(range(g0, g1)) if g1 > g0 else last1
        shared, single, s = [], [], g0
        while s < g1:
            if U > 1 and s + U <= g1 and all(same(s, v) for v in range(s + 1, s + U)):
                blocks += a['offset'][s + 1] > a['offset'][s]  # empty filters share too, with no FMA
                shared += range(s, s + U)
                s += U
            else:
                single.append(s)
                s += 1
        if shared:
            key = (U, used(shared))
            if key != lastU:
                tapsU += U * taps(used(shared))
            lastU = key
        if single:
            key = (1, used(single))
            if key != lastU:
                tapsU += taps(used(single))
            lastU = key
    return blocks, tapsU, taps1


def fma_counts(lowered):
    """FMAs of each generated fkw function, by the op's number, and its
    reorder array (to tie it to the op)."""
    counts, reorders = {}, {}
    for m in re.finditer(r'func\.func private @__strata_sparse_fkw(\d+)\((.*?)(?=\n  func\.func|\Z)', lowered, re.S):
        counts[int(m.group(1))] = m.group(2).count('vector.fma')
    for m in re.finditer(r'@__strata_sparse_fkw(\d+)_reorder : memref<\d+xi32> = dense<\[?([-0-9, ]*)\]?>', lowered):
        reorders[int(m.group(1))] = [int(v) for v in m.group(2).split(',')]
    return counts, reorders


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    min_shared = int(sys.argv[sys.argv.index('--min-shared') + 1]) if '--min-shared' in sys.argv else 1
    if '--min-shared' in sys.argv:
        args.remove(str(min_shared))
    ops = fkw_ops(open(args[0]).read())
    if len(args) == 1:  # the plan alone
        shared = [(name, plan(a)[0]) for name, a in ops if (a['unroll'] or [1])[0] > 1]
        for name, blocks in shared:
            print('%s: %d shared blocks expected' % (name, blocks))
        print('%d ops with unroll > 1, %d with shared blocks' % (len(shared), sum(b > 0 for _, b in shared)))
        sys.exit(0 if sum(b > 0 for _, b in shared) >= min_shared else 1)
    counts, reorders = fma_counts(open(args[1]).read())
    if len(counts) != len(ops):
        sys.exit('%d fkw_conv ops but %d generated functions' % (len(ops), len(counts)))
    bad, sharing, base = 0, 0, None
    for k, (name, a) in enumerate(ops):
        if len(a['reorder']) > 1 and reorders.get(k) != a['reorder']:
            # a 1-element reorder is a splat, printed as one number
            sys.exit('generated function %d is not %s (reorder %s vs %s)' % (k, name, reorders.get(k), a['reorder']))
        U = (a['unroll'] or [1])[0]
        case = name.split('_')[0]
        if U == 1:
            base = (case, counts[k], a['tile'], a['permute'])
            continue
        if not base or base[0] != case or base[2:] != (a['tile'], a['permute']):
            sys.exit('%s: no unroll-1 baseline with the same tile and permute before it' % name)
        blocks, tapsU, taps1 = plan(a)
        # the baseline's FMAs are taps1 x (its tile's vectors); ours tapsU x the same
        expect = base[1] * tapsU // taps1 if taps1 else 0
        ok = counts[k] == expect and (counts[k] > base[1]) == (blocks > 0)
        sharing += blocks > 0
        bad += not ok
        print('%s unroll %d: %d shared blocks expected, %d FMAs (%d expected) vs %d at unroll 1: %s' %
              (name, U, blocks, counts[k], expect, base[1], 'ok' if ok else 'FAIL'))
    print('%d ops with unroll > 1, %d with shared blocks, %d disagree' %
          (sum(1 for _, a in ops if (a['unroll'] or [1])[0] > 1), sharing, bad))
    if sharing < min_shared:
        print('FAIL: fewer than %d ops share' % min_shared)
    sys.exit(1 if bad or sharing < min_shared else 0)


if __name__ == '__main__':
    main()
