"""Reads `strata-run --shapes` output for sweep-memory.mlir's @conv_pool
(one 64-channel 3x3 convolution, then a 2x2 max pool) and checks each
shape's peak against a bound from the model's tensors: the most bytes its
planned buffers have live at one step (the arena's live peak, printed), plus
the most one kernel holds as scratch: Winograd's V and M, capped at the
convolution's input and output, and its GEMM's packing panel and transform
rows (under a tenth of that). The pool's scratch is smaller than the
convolution's; it no longer adds to it (kernels share one scratch buffer)."""
import re
import sys

for line in sys.stdin:
    m = re.search(r'0=1x(\d+)x(\d+)x(\d+) .* peak ([0-9.]+) KiB .*live peak ([0-9.]+) KiB', line)
    if not m:
        continue
    c, h, w = (int(g) for g in m.group(1, 2, 3))
    peak, live = float(m.group(4)), float(m.group(5))
    conv_io = 2 * c * h * w * 4 / 1024  # input and output, KiB
    bound = live + 1.1 * conv_io
    print('1x%dx%dx%d: peak %s the bound (%.1f KiB, live %.1f + 1.1 x conv input and output %.1f)' % (
        c, h, w, 'within' if peak <= bound else 'ABOVE', bound, live, conv_io))
