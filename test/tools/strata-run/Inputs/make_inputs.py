"""Writes a.npy (3x4) and b.npy (4x5) float32 inputs, plus bad files."""
import os
import sys
import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(0)
np.save(os.path.join(out, 'a.npy'), rng.standard_normal((3, 4), dtype=np.float32))
np.save(os.path.join(out, 'b.npy'), rng.standard_normal((4, 5), dtype=np.float32))
np.save(os.path.join(out, 'wrong_shape.npy'), np.zeros((4, 3), dtype=np.float32))
np.save(os.path.join(out, 'wrong_dtype.npy'), np.zeros((3, 4), dtype=np.float64))
np.save(os.path.join(out, 'fortran.npy'), np.asfortranarray(np.zeros((3, 4), dtype=np.float32)))
with open(os.path.join(out, 'a.npy'), 'rb') as f:
    data = f.read()
with open(os.path.join(out, 'truncated.npy'), 'wb') as f:
    f.write(data[:-7])
with open(os.path.join(out, 'garbage.npy'), 'wb') as f:
    f.write(b'not numpy at all')
# Found by fuzzing (npy_read): a header ending right after 'descr': (the
# reader compared the value past the header's end).
with open(os.path.join(out, 'descr_at_end.npy'), 'wb') as f:
    f.write(b"\x93NUMPY\x01\x00\x09\x00{'descr':")
# A header claiming 1757883501x4 floats (28 GB) over no data (found by
# fuzzing: the reader allocated before reading): truncated, nothing allocated.
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1757883501, 4), }"
header += b' ' * (64 - (10 + len(header) + 1) % 64) + b'\n'
with open(os.path.join(out, 'huge_shape.npy'), 'wb') as f:
    f.write(b'\x93NUMPY\x01\x00' + len(header).to_bytes(2, 'little') + header + b'\0' * 16)
