"""Prints one line per kernel loop of the sparse lowerings' chunk functions
(an scf.for carrying accumulators, iter_args), read from printed MLIR:

  loop <n>: bounds=stride|other loads=L shuffles=S fmas=F ifs=I switches=W

bounds=stride when both bounds are loaded from a `..._stride` global (the
FKW segment of one pattern); loads counts the loads of the scratch (the
chunk function's fourth argument) in the body, nested regions included.
Used by the lowering's lit tests for the digest's C.1.6-C.1.8."""
import re
import sys

text = sys.stdin.read().splitlines()


def indent(line):
    return len(line) - len(line.lstrip())


def definition(name, at):
    """The op defining `name` as seen from line `at`: the nearest earlier
    definition no deeper than `at` (printed SSA names are reused in
    sibling regions, so only an enclosing or same-level one dominates)."""
    depth = indent(text[at])
    for j in range(at - 1, -1, -1):
        d = indent(text[j])
        if d < depth:
            depth = d
        m = re.match(r'\s*(%[\w#.]+)(?::\d+)? = (.*)', text[j])
        if m and m.group(1) == name and d <= depth:
            return m.group(2), j
        if re.match(r'\s*func\.func ', text[j]):
            break
    return '', at


def from_stride(value, at):
    """Whether `value` is an index_cast of a load from a *_stride global."""
    d, j = definition(value, at)
    m = re.match(r'arith\.index_cast (%[\w.]+)', d)
    if m:
        d, j = definition(m.group(1), j)
    m = re.match(r'memref\.load (%[\w.]+)\[', d)
    return bool(m) and '_stride' in definition(m.group(1), j)[0]


scratch = None
count = 0
i = 0
while i < len(text):
    line = text[i]
    m = re.match(r'\s*func\.func private @__strata_sparse_\w+\(%\w+: [^,]+, %\w+: [^,]+, %\w+: [^,]+, (%\w+):', line)
    if m:
        scratch = m.group(1)
    m = re.match(r'(\s*)%[\w:#]+ = scf\.for %\w+ = (%[\w.]+) to (%[\w.]+) step .* iter_args', line)
    if not m:
        i += 1
        continue
    start, lo, hi = i, m.group(2), m.group(3)
    body = []
    i += 1
    while i < len(text) and (not text[i].strip() or indent(text[i]) > len(m.group(1))):
        body.append(text[i])
        i += 1
    joined = '\n'.join(body)
    loads = 0
    if scratch:
        loads = len(re.findall(r'(?:vector|memref)\.load %s\[' % re.escape(scratch), joined))
    print('loop %d: bounds=%s loads=%d shuffles=%d fmas=%d ifs=%d switches=%d' % (
        count, 'stride' if from_stride(lo, start) and from_stride(hi, start) else 'other', loads,
        joined.count('vector.shuffle'), len(re.findall(r'(vector|math)\.fma ', joined)),
        joined.count('scf.if'), joined.count('scf.index_switch')))
    count += 1
print('%d kernel loops' % count)
