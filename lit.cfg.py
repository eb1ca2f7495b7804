# lit configuration for Strata's test suite (run with scripts/test, or
# `lit test/` with STRATA_BUILD_DIR pointing at a build tree).
import os
import subprocess
import lit.formats

config.name = 'Strata'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.mlir', '.c', '.test']
config.excludes = ['CMakeLists.txt', 'embed.c', 'torch_oracle.py', 'compare_all.py', 'gen_models.py', 'run_cases.py', 'real_models.py', 'fuzz_import.py', 'gen_opsets.py', 'onnx_cases.py', 'opset_exports.py', 'node_tests.py', 'Inputs', 'lit.cfg.py', 'lit.local.cfg', 'check_passes_documented.py', 'npy_close.py']

root = os.path.dirname(os.path.abspath(__file__))
build = os.path.abspath(os.environ.get('STRATA_BUILD_DIR', os.path.join(root, 'build')))
llvm_bin = os.environ.get('STRATA_LLVM_BIN', '/usr/lib/llvm-22/bin')
config.test_source_root = os.path.join(root, 'test')
config.test_exec_root = os.path.join(build, 'test-output')

for tool in ['strata-opt', 'strata-run']:
    path = os.path.join(build, 'tools', tool)
    if not os.path.exists(path):
        lit_config.fatal('%s not found: build first (scripts/build) or set STRATA_BUILD_DIR' % path)

# Tools first on PATH: Strata's, then LLVM 22's FileCheck, not, mlir-opt.
config.environment['PATH'] = os.pathsep.join(
    [os.path.join(build, 'tools'), llvm_bin, config.environment.get('PATH', os.environ['PATH'])])
for var in ['ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'HOME', 'TMPDIR']:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Sanitized builds: tests that link uninstrumented programs against the
# library are marked `UNSUPPORTED: asan`.
cache = os.path.join(build, 'CMakeCache.txt')
sanitized = os.path.exists(cache) and 'STRATA_SANITIZE:BOOL=ON' in open(cache).read()
if sanitized:
    config.available_features.add('asan')
# Third-party leaks LeakSanitizer should not report (test/lsan.supp: PoCL's
# kernel compiler). %lsan_no_tls is the LSAN_OPTIONS=... for runs that also
# take no thread-local storage as roots (the opencl tests explain why).
lsan_supp = 'suppressions=' + os.path.join(root, 'test', 'lsan.supp')
config.environment['LSAN_OPTIONS'] = ':'.join(
    o for o in [os.environ.get('LSAN_OPTIONS', ''), lsan_supp] if o)
config.substitutions.append(('%lsan_no_tls', 'LSAN_OPTIONS=use_tls=0:' + lsan_supp))
# C programs linked against the build's libstrata_rt use its sanitizer flags.
config.substitutions.append(('%rtcflags', '-fsanitize=address,undefined' if sanitized else ''))

config.substitutions.append(('%capi', os.path.join(build, 'test', 'capi')))
config.substitutions.append(('%root', root))
config.substitutions.append(('%build', build))
# Scripts that need Debian's numpy/onnx/torch run with Debian's interpreter.
config.substitutions.append(('%python', '/usr/bin/python3'))
# Python that loads this build's libstrata.so through python/strata
# (ctypes): in sanitized builds the sanitizer runtimes are preloaded (the
# interpreter is not instrumented) and leak checking is off (the
# interpreter's own allocations are not freed at exit).
config.environment['PYTHONPATH'] = os.path.join(root, 'python')
config.environment['STRATA_BUILD_DIR'] = build
# No compile cache unless a test names one: tests write nothing outside
# their own directories (not ~/.cache), and each compiles what it tests.
config.environment['STRATA_CACHE_DIR'] = ''
# The drivers' own caches (PoCL's kernels, Mesa's shaders, the Vulkan
# validation layer's) go under the build's test output too, not ~/.cache.
config.environment['XDG_CACHE_HOME'] = os.path.join(config.test_exec_root, '.cache')
os.makedirs(config.environment['XDG_CACHE_HOME'], exist_ok=True)
pystrata = '/usr/bin/python3'
if sanitized:
    import subprocess
    preload = ' '.join(subprocess.run(['cc', '-print-file-name=' + lib], capture_output=True, text=True).stdout.strip()
                       for lib in ('libasan.so', 'libubsan.so'))
    asan = ':'.join(o for o in os.environ.get('ASAN_OPTIONS', '').split(':') if o and not o.startswith('detect_leaks'))
    pystrata = 'env LD_PRELOAD="%s" ASAN_OPTIONS=detect_leaks=0%s /usr/bin/python3' % (preload, ':' + asan if asan else '')
config.substitutions.append(('%pystrata', pystrata))

# libFuzzer runs (test/fuzz, `REQUIRES: fuzz`): need clang-22 and its fuzzer
# runtime (libclang-rt-22-dev); scripts/fuzz builds build-fuzz/ on first use.
# STRATA_FUZZ=0 skips them; STRATA_FUZZ_SECONDS sets each run's length.
import glob
import shutil
if (os.environ.get('STRATA_FUZZ', '1') != '0' and shutil.which('clang-22')
        and glob.glob('/usr/lib/llvm-22/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a')):
    config.available_features.add('fuzz')
config.substitutions.append(('%fuzz_seconds', os.environ.get('STRATA_FUZZ_SECONDS', '20')))
if 'STRATA_FUZZ_BUILD_DIR' in os.environ:
    config.environment['STRATA_FUZZ_BUILD_DIR'] = os.environ['STRATA_FUZZ_BUILD_DIR']

# The hexagon target runs its executables under qemu-hexagon (package
# qemu-user): tests that run them say `REQUIRES: qemu-hexagon`.
if shutil.which('qemu-hexagon'):
    config.available_features.add('qemu-hexagon')

# The vulkan target needs a Vulkan device (lavapipe, package
# mesa-vulkan-drivers, is one on the CPU): tests that run its code say
# `REQUIRES: vulkan`. They run with the Khronos validation layer, whose
# every message fails the run (STRATA_VK_VALIDATION, docs/targets.md).
if subprocess.run([os.path.join(build, 'tools', 'strata-run'), '--target', 'vulkan', '--list-devices'],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add('vulkan')
    config.environment['STRATA_VK_VALIDATION'] = '1'
