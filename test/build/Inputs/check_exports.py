"""Checks libstrata.so's dynamic symbol table against its export list.

    check_exports.py ROOT BUILD

- every name in the export list (generated from the public headers) is
  defined and exported by libstrata.so, and nothing else is;
- no name declared only in an internal header (core/internal.h, a dialect's
  or a conversion's, transform's, target's, frontend's or the runtime's
  internal headers) is exported, nor any MLIR C API function libstrata.so
  carries a copy of;
- the list is not trivially small and has the runtime entry points JIT code
  calls and the public entry points embedders call.
"""
import glob
import os
import subprocess
import sys

root, build = sys.argv[1], sys.argv[2]
so = os.path.join(build, 'core', 'libstrata.so')
exports = open(os.path.join(build, 'generated', 'libstrata.exports')).read().split()
nm = subprocess.run(['nm', '-D', '--defined-only', so], capture_output=True, text=True, check=True)
# Exported: global bindings (upper case, u, i); a sanitizer build's .dynsym
# can also carry local ('t') entries nothing can bind to.
dynamic = {f[-1] for f in (line.split() for line in nm.stdout.splitlines())
           if len(f) >= 2 and (f[-2].isupper() or f[-2] in 'ui')}
errors = []
for name in sorted(set(exports) - dynamic):
    errors.append('public but not exported: %s' % name)
for name in sorted(dynamic - set(exports)):
    errors.append('exported but not public: %s' % name)

internal_headers = [h for h in sorted(
    glob.glob(os.path.join(root, 'core', '*.h')) +
    glob.glob(os.path.join(root, '*', '*', '*internal*.h')) +
    glob.glob(os.path.join(root, 'conversions', 'common', '*.h')) +
    [os.path.join(root, 'dialects', 'sparse', 'sparse.h')] +
    glob.glob(os.path.join(root, 'runtime', '*internal*.h')))
    if '/include/' not in h and '/test/' not in h]
cmd = [sys.executable, os.path.join(root, 'cmake', 'strata_exports.py'), '--cc', 'cc']
for d in ['include', 'runtime', 'dialects/nn', 'dialects/sparse', 'conversions/common', 'core', 'targets/gpu']:
    cmd += ['-I', os.path.join(root, d)]
cmd += ['-I', os.path.join(build, 'generated'), '-I', os.path.join(build, 'generated', 'onnx'),
        '-I', '/usr/lib/llvm-22/include']
for h in internal_headers:
    cmd += ['--only', h]
internal = set(subprocess.run(cmd + internal_headers, capture_output=True, text=True,
                              check=True).stdout.split())
public_too = internal & set(exports)  # declared internally and publicly: public
for name in sorted((internal - public_too) & dynamic):
    errors.append('internal symbol exported: %s' % name)
for name in sorted(n for n in dynamic if n.startswith('mlir') or n.startswith('_Z')):
    errors.append('MLIR/C++ symbol exported: %s' % name)
for name in ['strataContextCreate', 'strataJitInvoke', 'strataImportOnnx', 'strataRtCall',
             '_mlir_ciface_strata_rt_matmul_f32', 'strataNnDialect', 'strataSparseDialect',
             'strataSparseApply']:
    if name not in dynamic:
        errors.append('expected export missing: %s' % name)
for e in errors:
    print(e)
print('exported: %d, public: %d, internal-only declarations checked: %d, errors: %d'
      % (len(dynamic), len(exports), len(internal - public_too), len(errors)))
sys.exit(1 if errors or len(internal - public_too) < 20 else 0)
