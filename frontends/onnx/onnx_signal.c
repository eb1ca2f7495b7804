/* The signal operators' ONNX forms: the windows' output_datatype (a float
 * window, cast when an integer type is asked for, as ONNX's reference
 * computes in double and converts), DFT's axis input (opset 20; an
 * attribute in 17). STFT and the rest import one to one. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"

/* The windows and MelWeightMatrix: output_datatype. */
static bool importWithDatatype(Node *x) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "output_datatype");
  int32_t code = a ? (int32_t)a->i : 1; /* ONNX's default: FLOAT */
  StrataDType dt = onnxDType(code);
  if (dt == STRATA_DTYPE_INVALID || dt == STRATA_DTYPE_I1) {
    NODE_ERROR(x->im, x->loc, x->n, "output_datatype %s is not supported", onnxDTypeName(code));
    return false;
  }
  onnxDropAttr(x, "output_datatype");
  MlirType out = strataDTypeToMlir(x->im->mc, dt), f64 = mlirF64TypeGet(x->im->mc);
  MlirOperation op =
      onnxBuild(x->im, x->loc, x->nn, x->in, x->nIn, 1, x->attrs, x->nAttrs, mlirTypeIsAFloat(out) ? out : f64);
  return !mlirOperationIsNull(op) && onnxBindValueAt(x, 0, onnxCast(x, strataResult(op, 0), out));
}

/* DFT-20 takes the axis as input #2 (default -2); it must be a constant. */
static bool importDft(Node *x) {
  if (x->im->opset >= 20) {
    int64_t axis = -2;
    if (x->nIn > 2 && !mlirValueIsNull(x->in[2])) {
      int k = onnxInputInts(x, 2, "axis", &axis, 1);
      if (k == 0) NODE_ERROR(x->im, x->loc, x->n, "input #2 ('axis') must hold one value");
      if (k != 1) return false;
    }
    onnxSetAttr(x, "axis", strataI64Attr(x->im->mc, axis));
    if (x->nIn > 2) x->nIn = 2;
  } else if (x->nIn > 2) {
    NODE_ERROR(x->im, x->loc, x->n, "takes the axis as an attribute before opset 20, not as input #2");
    return false;
  }
  return onnxDirect(x, 1);
}

bool onnxImportSignal(Node *x, bool *handled) {
  const char *t = onnxOpType(x->n);
  *handled = true;
  if (!strcmp(t, "HannWindow") || !strcmp(t, "HammingWindow") || !strcmp(t, "BlackmanWindow") ||
      !strcmp(t, "MelWeightMatrix"))
    return importWithDatatype(x);
  if (!strcmp(t, "DFT")) return importDft(x);
  *handled = false;
  return true;
}
