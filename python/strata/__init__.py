"""Strata from Python: an ONNX-Runtime-like session over libstrata.so
(ctypes, no build step of its own).

    import numpy as np, strata
    sess = strata.Session("model.onnx", target="cpu", threads=2)
    (y,) = sess.run(None, {"input": np.zeros((1, 3, 224, 224), np.float32)})

`strata.compile_mlir(text)` does the same for MLIR text (nn dialect or
below); `passes=` runs a pipeline on the module first (e.g.
"instrument{tool=profile}"), `fusion=` and `opt_level=` choose the lowering,
`target="interpreter"` runs the reference interpreter; `pipeline=` replaces
the target's lowering pipeline (StrataCompileOptions.pipeline). Errors (import,
verification, compilation, a bad input) raise StrataError with Strata's
located messages. `strata.backend` is an onnx.backend.base.Backend.

libstrata.so is found through $STRATA_LIBRARY, then the build tree this
package sits in (build/core/), then the system's library path."""
import ctypes
import ctypes.util
import os

import numpy as np

__all__ = ['Session', 'compile_mlir', 'StrataError', 'NodeArg', 'library_path']

_DTYPES = {1: np.float32, 2: np.float64, 3: np.float16, 4: np.bool_, 5: np.int8, 6: np.uint8, 7: np.int32,
           8: np.int64, 9: np.int16, 10: np.uint16, 11: np.uint32, 12: np.uint64,
           13: np.uint16}  # bfloat16: its bits in uint16 arrays, as onnx.numpy_helper holds them
_ONNX_TYPE_NAMES = {np.float32: 'float', np.float64: 'double', np.float16: 'float16', np.bool_: 'bool',
                    np.int8: 'int8', np.uint8: 'uint8', np.int32: 'int32', np.int64: 'int64', np.int16: 'int16',
                    np.uint16: 'uint16', np.uint32: 'uint32', np.uint64: 'uint64'}
_BF16 = 13
_FUSION = {'fixed': 0, 'none': 1, 'dnnfusion': 2, 'planned': 3, 'baseline': 4}
_MAX_RANK = 8


class StrataError(RuntimeError):
    """A Strata failure; the message holds its located diagnostics."""


class _Module(ctypes.Structure):
    _fields_ = [('ptr', ctypes.c_void_p)]


class _StringRef(ctypes.Structure):
    _fields_ = [('data', ctypes.c_char_p), ('length', ctypes.c_size_t)]


class _Tensor(ctypes.Structure):
    _fields_ = [('dtype', ctypes.c_int), ('rank', ctypes.c_int), ('dims', ctypes.c_int64 * _MAX_RANK),
                ('data', ctypes.c_void_p)]


class _Diagnostic(ctypes.Structure):
    _fields_ = [('severity', ctypes.c_int), ('file', ctypes.c_char_p), ('line', ctypes.c_uint),
                ('col', ctypes.c_uint), ('location', ctypes.c_char_p), ('message', ctypes.c_char_p)]


class _RuntimeOptions(ctypes.Structure):
    _fields_ = [('alloc', ctypes.c_void_p), ('user', ctypes.c_void_p), ('limit', ctypes.c_size_t),
                ('numThreads', ctypes.c_int)]


class _CompileOptions(ctypes.Structure):
    _fields_ = [('fusion', ctypes.c_int), ('optLevel', ctypes.c_int), ('pipeline', ctypes.c_char_p),
                ('fuseProfile', ctypes.c_char_p), ('fuseProfileDb', ctypes.c_char_p), ('cacheDir', ctypes.c_char_p),
                ('device', ctypes.c_char_p)]


class _SessionOptions(ctypes.Structure):
    _fields_ = [('entry', ctypes.c_char_p), ('target', ctypes.c_char_p), ('passes', ctypes.c_char_p),
                ('compile', _CompileOptions)]


_DiagCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Diagnostic), ctypes.c_void_p)
_SEVERITY = {0: 'error', 1: 'warning', 2: 'note', 3: 'remark'}


def library_path():
    """The libstrata.so this package loads."""
    env = os.environ.get('STRATA_LIBRARY')
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for build in (os.environ.get('STRATA_BUILD_DIR'), os.path.join(here, '..', '..', 'build')):
        if build and os.path.exists(os.path.join(build, 'core', 'libstrata.so')):
            return os.path.realpath(os.path.join(build, 'core', 'libstrata.so'))
    found = ctypes.util.find_library('strata')
    if not found:
        raise StrataError('libstrata.so not found: build Strata (scripts/build) or set STRATA_LIBRARY')
    return found


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(library_path())
    P, T = ctypes.c_void_p, ctypes.POINTER(_Tensor)
    sigs = {
        'strataContextCreate': (P, []),
        'strataContextDestroy': (None, [P]),
        'strataContextSetRuntime': (ctypes.c_int8, [P, ctypes.POINTER(_RuntimeOptions)]),
        'strataContextSetDiagnosticCallback': (None, [P, _DiagCallback, P]),
        'strataImportOnnx': (_Module, [P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, P]),
        'strataParseModule': (_Module, [P, _StringRef, ctypes.c_char_p]),
        'strataSessionCreate': (P, [P, _Module, ctypes.POINTER(_SessionOptions)]),
        'strataSessionCreateFromFile': (P, [P, ctypes.c_char_p, ctypes.POINTER(_SessionOptions)]),
        'strataSessionFromCache': (ctypes.c_bool, [P]),
        'strataSessionNumInputs': (ctypes.c_size_t, [P]),
        'strataSessionNumOutputs': (ctypes.c_size_t, [P]),
        'strataSessionGetName': (ctypes.c_size_t, [P, ctypes.c_bool, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]),
        'strataSessionGetType': (ctypes.c_bool, [P, ctypes.c_bool, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int),
                                                 ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int64)]),
        'strataSessionRun': (ctypes.c_int8, [P, ctypes.POINTER(T), ctypes.c_size_t, ctypes.POINTER(T), ctypes.c_size_t]),
        'strataSessionDestroy': (None, [P]),
        'strataTensorCreate': (T, [ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)]),
        'strataTensorDestroy': (None, [T]),
        'strataDefaultCacheDir': (ctypes.c_char_p, [ctypes.c_char_p, ctypes.c_size_t]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    _lib = lib
    return lib


class NodeArg:
    """An input or output: name, shape (None for a dynamic dim) and ONNX-style
    type ('tensor(float)'), as onnxruntime's NodeArg."""

    def __init__(self, name, shape, dtype, code=None):
        self.name, self.shape, self.dtype = name, shape, dtype
        self.code = _key(dtype) if code is None else code  # Strata's StrataDType
        self.type = 'tensor(%s)' % ('bfloat16' if self.code == _BF16 else _ONNX_TYPE_NAMES.get(dtype, '?'))

    def __repr__(self):
        return 'NodeArg(name=%r, type=%r, shape=%r)' % (self.name, self.type, self.shape)


class Session:
    """A compiled model. `model`: a path to an .onnx or .mlir file, ONNX
    bytes, or an onnx.ModelProto; `mlir=True` reads a str/bytes `model` as
    MLIR text instead. `cache_dir`: where compiled code is kept and reused
    (True: the user's cache, as strata-run's; None or False: no cache)."""

    def __init__(self, model, target='cpu', threads=1, fusion='fixed', opt_level=2, passes=None, entry=None,
                 mlir=False, cache_dir=True, pipeline=None):
        lib = _load()
        self._messages = []
        self._cb = _DiagCallback(self._on_diagnostic)
        self._ctx = lib.strataContextCreate()
        self._sess = None
        if not self._ctx:
            raise StrataError('could not create a Strata context')
        lib.strataContextSetDiagnosticCallback(self._ctx, self._cb, None)
        if fusion not in _FUSION:
            raise StrataError('fusion must be one of %s' % ', '.join(_FUSION))
        if not lib.strataContextSetRuntime(self._ctx, ctypes.byref(_RuntimeOptions(None, None, 0, int(threads)))):
            self._raise('cannot use %r threads' % threads)
        if cache_dir is True:
            buf = ctypes.create_string_buffer(4096)
            cache_dir = lib.strataDefaultCacheDir(buf, len(buf))
        elif cache_dir:
            cache_dir = os.fsencode(cache_dir)
        opts = _SessionOptions(entry.encode() if entry else None, target.encode() if target else None,
                               passes.encode() if passes else None,
                               _CompileOptions(_FUSION[fusion], int(opt_level), pipeline.encode() if pipeline else None,
                                               None, None, cache_dir or None))
        if isinstance(model, (str, os.PathLike)) and not mlir:
            # a file: strataSessionCreateFromFile, which the model cache serves
            path = os.fspath(model)
            self._sess = lib.strataSessionCreateFromFile(self._ctx, os.fsencode(path), ctypes.byref(opts))
        else:
            self._sess = lib.strataSessionCreate(self._ctx, self._read(model, mlir), ctypes.byref(opts))
        if not self._sess:
            self._raise('could not compile the model')
        self._inputs = [self._arg(False, i) for i in range(lib.strataSessionNumInputs(self._sess))]
        self._outputs = [self._arg(True, i) for i in range(lib.strataSessionNumOutputs(self._sess))]

    def _on_diagnostic(self, diag, _user):
        d = diag.contents
        self._messages.append('%s: %s: %s' % ((d.location or b'').decode(errors='replace'),
                                              _SEVERITY.get(d.severity, 'error'),
                                              (d.message or b'').decode(errors='replace')))

    def _raise(self, fallback):
        msg = '\n'.join(self._messages) or fallback
        self._messages = []
        raise StrataError(msg)

    def _read(self, model, mlir):
        lib = _load()
        if hasattr(model, 'SerializeToString'):
            model = model.SerializeToString()
        name, base = '<memory>', '.'  # (a file path goes to strataSessionCreateFromFile)
        data = model.encode() if isinstance(model, str) else bytes(model)
        if mlir:
            buf = ctypes.create_string_buffer(data, len(data))
            module = lib.strataParseModule(self._ctx, _StringRef(ctypes.cast(buf, ctypes.c_char_p), len(data)),
                                           name.encode())
        else:
            module = lib.strataImportOnnx(self._ctx, data, len(data), name.encode(), base.encode(), None)
        if not module.ptr:
            self._raise('could not read the model')
        return module

    def _arg(self, output, i):
        lib = _load()
        dt, rank, dims = ctypes.c_int(), ctypes.c_int(), (ctypes.c_int64 * _MAX_RANK)()
        if not lib.strataSessionGetType(self._sess, output, i, ctypes.byref(dt), ctypes.byref(rank), dims):
            raise StrataError('%s #%d has a type Python cannot exchange' % ('output' if output else 'input', i))
        buf = ctypes.create_string_buffer(256)
        n = lib.strataSessionGetName(self._sess, output, i, buf, len(buf))
        if n >= len(buf):
            buf = ctypes.create_string_buffer(n + 1)
            lib.strataSessionGetName(self._sess, output, i, buf, len(buf))
        # the ONNX graph's name; MLIR functions have none: arg0.../result0...
        name = buf.value.decode(errors='replace') if n else ('%s%d' % ('result' if output else 'arg', i))
        return NodeArg(name, [None if d < 0 else int(d) for d in dims[:rank.value]], _DTYPES[dt.value], dt.value)

    @property
    def from_cache(self):
        """True if the model cache gave this session's code (a file opened
        before with the same options: no import, no compile)."""
        return bool(_load().strataSessionFromCache(self._sess))

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def run(self, output_names, input_feed):
        """Runs the model: input_feed maps input names to arrays (or is a
        list in input order); returns the outputs named in output_names
        (None: all), as numpy arrays."""
        lib = _load()
        feeds = list(input_feed) if isinstance(input_feed, (list, tuple)) else None
        if feeds is None:
            unknown = set(input_feed) - {a.name for a in self._inputs}
            if unknown:
                raise StrataError('unknown input(s) %s; the model takes %s' % (
                    ', '.join(sorted(unknown)), ', '.join(a.name for a in self._inputs)))
            missing = [a.name for a in self._inputs if a.name not in input_feed]
            if missing:
                raise StrataError('missing input(s) %s' % ', '.join(missing))
            feeds = [input_feed[a.name] for a in self._inputs]
        if len(feeds) != len(self._inputs):
            raise StrataError('the model takes %d inputs, %d given' % (len(self._inputs), len(feeds)))
        n_in, n_out = len(self._inputs), len(self._outputs)
        ins, outs = (ctypes.POINTER(_Tensor) * max(n_in, 1))(), (ctypes.POINTER(_Tensor) * max(n_out, 1))()
        try:
            for i, (arg, value) in enumerate(zip(self._inputs, feeds)):
                a = np.asarray(value)
                if a.dtype != arg.dtype:
                    raise StrataError('input %r is %s, but the model takes %s' % (arg.name, a.dtype, arg.type))
                a = np.require(a, requirements='C')  # (ascontiguousarray makes 0-d arrays 1-d)
                if a.ndim > _MAX_RANK:
                    raise StrataError('input %r has rank %d (at most %d)' % (arg.name, a.ndim, _MAX_RANK))
                t = lib.strataTensorCreate(arg.code, a.ndim, (ctypes.c_int64 * max(a.ndim, 1))(*a.shape))
                if not t:
                    raise StrataError('out of memory for input %r' % arg.name)
                ins[i] = t
                if a.nbytes:
                    ctypes.memmove(t.contents.data, a.ctypes.data, a.nbytes)
            if not lib.strataSessionRun(self._sess, ins, n_in, outs, n_out):  # MlirLogicalResult: 1 is success
                self._raise('the run failed')
            results = []
            for i, arg in enumerate(self._outputs):
                t = outs[i].contents
                r = np.empty([t.dims[d] for d in range(t.rank)], arg.dtype)
                if r.nbytes:
                    ctypes.memmove(r.ctypes.data, t.data, r.nbytes)
                results.append(r)
        finally:
            for i in range(n_in):
                if ins[i]:
                    lib.strataTensorDestroy(ins[i])
            for i in range(n_out):
                if outs[i]:
                    lib.strataTensorDestroy(outs[i])
        if output_names is None:
            return results
        by_name = {a.name: r for a, r in zip(self._outputs, results)}
        unknown = [n for n in output_names if n not in by_name]
        if unknown:
            raise StrataError('unknown output(s) %s' % ', '.join(unknown))
        return [by_name[n] for n in output_names]

    def close(self):
        lib = _load()
        if self._sess:
            lib.strataSessionDestroy(self._sess)
            self._sess = None
        if self._ctx:
            lib.strataContextDestroy(self._ctx)
            self._ctx = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _key(dtype):
    for k, v in _DTYPES.items():
        if v == dtype:
            return k
    raise StrataError('element type %s is not supported' % np.dtype(dtype))


def compile_mlir(text, **kwargs):
    """A Session from MLIR text (nn dialect or below)."""
    return Session(text, mlir=True, **kwargs)
