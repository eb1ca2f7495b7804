"""Strata as an ONNX backend (onnx.backend.base.Backend), the interface
ONNX's backend test suite and other harnesses drive:

    import strata.backend as backend
    rep = backend.prepare(model_proto, device='CPU')
    outputs = rep.run([x])            (inputs in the graph's input order)

prepare() takes Session's keyword arguments (target, threads, fusion, ...)."""
import onnx.backend.base as base

from . import Session


class StrataRep(base.BackendRep):
    def __init__(self, session):
        self.session = session

    def run(self, inputs, **kwargs):
        if isinstance(inputs, dict):
            return tuple(self.session.run(None, inputs))
        if not isinstance(inputs, (list, tuple)):
            inputs = [inputs]
        return tuple(self.session.run(None, list(inputs)))


class StrataBackend(base.Backend):
    @classmethod
    def is_compatible(cls, model, device='CPU', **kwargs):
        return cls.supports_device(device)

    @classmethod
    def prepare(cls, model, device='CPU', **kwargs):
        super().prepare(model, device, **kwargs)  # onnx.checker
        if not cls.supports_device(device):
            raise ValueError('Strata runs on the CPU only, not %r' % device)
        return StrataRep(Session(model, **kwargs))

    @classmethod
    def run_model(cls, model, inputs, device='CPU', **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def supports_device(cls, device):
        return str(device).upper().startswith('CPU')


prepare = StrataBackend.prepare
run_model = StrataBackend.run_model
supports_device = StrataBackend.supports_device
is_compatible = StrataBackend.is_compatible
