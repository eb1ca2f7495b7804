"""Mutation fuzzing of the ONNX importer: byte flips, truncations, insertions
and splices of valid models must give exit 0 or 1 -- never a crash or hang.
Usage: fuzz_import.py MODEL_DIR ITERATIONS (deterministic seed)."""
import glob
import random
import subprocess
import sys

d, n = sys.argv[1], int(sys.argv[2])
random.seed(12345)
seeds = [open(p, 'rb').read() for p in sorted(glob.glob(d + '/*.onnx')) if '/bad_' not in p]
crashes = 0
for i in range(n):
    data = bytearray(random.choice(seeds))
    for _ in range(random.randint(1, 5)):
        op, pos = random.random(), random.randrange(len(data))
        if op < 0.4:
            data[pos] = random.randrange(256)
        elif op < 0.6:
            del data[pos:pos + random.randint(1, 16)]
        elif op < 0.8:
            data[pos:pos] = bytes(random.randrange(256) for _ in range(random.randint(1, 8)))
        else:
            other = random.choice(seeds)
            a = random.randrange(len(other))
            data[pos:pos] = other[a:a + random.randint(1, 64)]
    path = '%s/fuzz.onnx' % d
    open(path, 'wb').write(data)
    try:
        p = subprocess.run(['strata-import', path, '-o', d + '/fuzz.mlir'], capture_output=True, timeout=60)
        bad = p.returncode not in (0, 1)
    except subprocess.TimeoutExpired:
        bad = True
    if bad:
        crashes += 1
        open('%s/crash_%d.onnx' % (d, i), 'wb').write(data)
print('%d mutations, %d crashes' % (n, crashes))
sys.exit(1 if crashes else 0)
