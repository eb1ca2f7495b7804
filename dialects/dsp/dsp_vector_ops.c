/* The dsp instruction ops: one HVX instruction each, on 128-byte vectors
 * (vector<128xi8> read as unsigned bytes, vector<64xi16>, vector<32xi32>)
 * and a 32-bit scalar Rt. Their interpreter kernels are the emulator
 * (dsp_emu.c), so the interpreter runs dsp IR bit-exactly. */
#include <string.h>
#include "dsp_internal.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/support.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static uint32_t rtOf(const StrataTensor *t) { return (uint32_t)((const int32_t *)t->data)[0]; }
static const uint8_t *bytesOf(const StrataTensor *t) { return (const uint8_t *)t->data; }

/* The outputs the interpreter allocated from the result types, which the
 * verifier has fixed; a kernel only checks they are there. */
static bool allocated(StrataTensor **y, int n) {
  for (int i = 0; i < n; i++)
    if (!y[i]) return false;
  return true;
}

static void copyInto(StrataTensor *dst, const StrataTensor *src) {
  memcpy(dst->data, src->data, strataTensorNumBytes(src));
}

static MlirLogicalResult interpVrmpy(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  if (!allocated(y, 1)) return fail();
  bool acc = strataOpIsNamed(op, "dsp.vrmpy_acc");
  if (acc) copyInto(y[0], x[0]);
  bool rtSigned = mlirAttributeIsNull(strataOpAttr(op, "unsigned_rt"));
  strataDspVrmpy(y[0]->data, bytesOf(x[acc]), rtOf(x[acc + 1]), rtSigned, acc);
  return ok();
}

static MlirLogicalResult interpVmpy(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  if (!allocated(y, 2)) return fail();
  bool acc = strataOpIsNamed(op, "dsp.vmpy_acc");
  int k = acc ? 2 : 0;
  if (acc) {
    copyInto(y[0], x[0]);
    copyInto(y[1], x[1]);
  }
  strataDspVmpy(y[0]->data, y[1]->data, bytesOf(x[k]), rtOf(x[k + 1]), acc);
  return ok();
}

static MlirLogicalResult interpVmpa(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  if (!allocated(y, 2)) return fail();
  bool acc = strataOpIsNamed(op, "dsp.vmpa_acc");
  int k = acc ? 2 : 0;
  if (acc) {
    copyInto(y[0], x[0]);
    copyInto(y[1], x[1]);
  }
  strataDspVmpa(y[0]->data, y[1]->data, bytesOf(x[k]), bytesOf(x[k + 1]), rtOf(x[k + 2]), acc);
  return ok();
}

static MlirLogicalResult interpVdmpy(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  if (!allocated(y, 1)) return fail();
  bool acc = strataOpIsNamed(op, "dsp.vdmpy_acc");
  if (acc) copyInto(y[0], x[0]);
  strataDspVdmpy(y[0]->data, bytesOf(x[acc]), rtOf(x[acc + 1]), acc);
  return ok();
}

static MlirLogicalResult interpVsat(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  (void)op;
  if (!allocated(y, 1)) return fail();
  if (x[0]->dtype == STRATA_DTYPE_I16)
    strataDspVsatHalfToByte(y[0]->data, x[0]->data, x[1]->data);
  else
    strataDspVsatWordToHalf(y[0]->data, x[0]->data, x[1]->data);
  return ok();
}

static MlirLogicalResult interpShuffle(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  if (!allocated(y, 2)) return fail();
  int e = (int)strataDTypeSize(x[0]->dtype);
  if (strataOpIsNamed(op, "dsp.vshuff"))
    strataDspVshuff(y[0]->data, y[1]->data, x[0]->data, x[1]->data, e);
  else
    strataDspVdeal(y[0]->data, y[1]->data, x[0]->data, x[1]->data, e);
  return ok();
}

/* vsat narrows: (vector<64xi16>, vector<64xi16>) -> vector<128xi8> or
 * (vector<32xi32>, vector<32xi32>) -> vector<64xi16>. */
static MlirLogicalResult verifyVsat(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  MlirType u = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType v = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType d = mlirValueGetType(mlirOperationGetResult(op, 0));
  char us[64], vs[64], ds[64];
  strataTypeToString(u, us, sizeof us);
  strataTypeToString(v, vs, sizeof vs);
  strataTypeToString(d, ds, sizeof ds);
  bool half = !strcmp(us, "vector<64xi16>");
  const char *want = half ? "vector<128xi8>" : "vector<64xi16>";
  if (strcmp(us, vs) || strcmp(ds, want)) {
    strataEmitOpError(op, "narrows two operands of one type to the type half as wide: got (%s, %s) "
                      "-> %s, expected (%s, %s) -> %s", us, vs, ds, us, us, want);
    return fail();
  }
  return ok();
}

/* vshuff and vdeal keep the element type: all four values have one type. */
static MlirLogicalResult verifyShuffle(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirValue vals[] = {mlirOperationGetOperand(op, 1), mlirOperationGetResult(op, 0),
                      mlirOperationGetResult(op, 1)};
  for (int i = 0; i < 3; i++) {
    MlirType o = mlirValueGetType(vals[i]);
    if (mlirTypeEqual(o, t)) continue;
    char ts[64], os[64];
    strataTypeToString(t, ts, sizeof ts);
    strataTypeToString(o, os, sizeof os);
    strataEmitOpError(op, "takes and yields vectors of one type: %s %s is %s, not %s",
                      i == 0 ? "operand" : "result", i == 0 ? "#1" : i == 1 ? "#0" : "#1", os, ts);
    return fail();
  }
  return ok();
}

#define VB "vector<128xi8>"
#define VH "vector<64xi16>"
#define VW "vector<32xi32>"
#define ANYV VB "|" VH "|" VW

static const StrataAttrDef kRtAttrs[] = {
    {"unsigned_rt", STRATA_ATTR_UNIT, STRATA_ATTR_OPTIONAL, NULL,
     "Rt's bytes are unsigned (Vd.uw = vrmpy(Vu.ub, Rt.ub)); absent: signed (Vd.w, Rt.b)"},
};

static const StrataOpDef kOps[] = {
    {.name = "dsp.vrmpy",
     .summary = "Vd.w = vrmpy(Vu.ub, Rt.b): vd[i] = sum_{j<4} vu[4i+j] * rt.b[j] (4-column)",
     .operands = "vu: " VB ", rt: i32", .results = "vd: " VW, .flags = STRATA_OP_PURE,
     .interpret = interpVrmpy, .types = "ui8 x i8 -> i32", .attrs = kRtAttrs, .numAttrs = 1},
    {.name = "dsp.vrmpy_acc",
     .summary = "Vx.w += vrmpy(Vu.ub, Rt.b): `acc` plus vrmpy, wrapping at 32 bits",
     .operands = "acc: " VW ", vu: " VB ", rt: i32", .results = "vd: " VW, .flags = STRATA_OP_PURE,
     .interpret = interpVrmpy, .types = "ui8 x i8 -> i32", .attrs = kRtAttrs, .numAttrs = 1},
    {.name = "dsp.vmpy",
     .summary = "Vdd.h = vmpy(Vu.ub, Rt.b): lo[i] = vu[2i]*rt.b[(2i)%4], hi[i] = "
                "vu[2i+1]*rt.b[(2i+1)%4] (1-column)",
     .operands = "vu: " VB ", rt: i32", .results = "lo: " VH ", hi: " VH, .flags = STRATA_OP_PURE,
     .interpret = interpVmpy, .types = "ui8 x i8 -> i16"},
    {.name = "dsp.vmpy_acc",
     .summary = "Vxx.h += vmpy(Vu.ub, Rt.b): (`acc_lo`, `acc_hi`) plus vmpy, wrapping at 16 bits",
     .operands = "acc_lo: " VH ", acc_hi: " VH ", vu: " VB ", rt: i32",
     .results = "lo: " VH ", hi: " VH, .flags = STRATA_OP_PURE, .interpret = interpVmpy,
     .types = "ui8 x i8 -> i16"},
    {.name = "dsp.vmpa",
     .summary = "Vdd.h = vmpa(Vuu.ub, Rt.b): lo[i] = v0[2i]*rt.b[0] + v1[2i]*rt.b[1], hi[i] = "
                "v0[2i+1]*rt.b[2] + v1[2i+1]*rt.b[3] (2-column)",
     .operands = "v0: " VB ", v1: " VB ", rt: i32", .results = "lo: " VH ", hi: " VH,
     .flags = STRATA_OP_PURE, .interpret = interpVmpa, .types = "ui8 x i8 -> i16"},
    {.name = "dsp.vmpa_acc",
     .summary = "Vxx.h += vmpa(Vuu.ub, Rt.b): (`acc_lo`, `acc_hi`) plus vmpa, wrapping at 16 bits",
     .operands = "acc_lo: " VH ", acc_hi: " VH ", v0: " VB ", v1: " VB ", rt: i32",
     .results = "lo: " VH ", hi: " VH, .flags = STRATA_OP_PURE, .interpret = interpVmpa,
     .types = "ui8 x i8 -> i16"},
    {.name = "dsp.vdmpy",
     .summary = "Vd.h = vdmpy(Vu.ub, Rt.b): vd[i] = vu[2i]*rt.b[(2i)%4] + vu[2i+1]*rt.b[(2i+1)%4] "
                "(wraps at 16 bits, no saturation)",
     .operands = "vu: " VB ", rt: i32", .results = "vd: " VH, .flags = STRATA_OP_PURE,
     .interpret = interpVdmpy, .types = "ui8 x i8 -> i16"},
    {.name = "dsp.vdmpy_acc",
     .summary = "Vx.h += vdmpy(Vu.ub, Rt.b): `acc` plus vdmpy, wrapping at 16 bits",
     .operands = "acc: " VH ", vu: " VB ", rt: i32", .results = "vd: " VH, .flags = STRATA_OP_PURE,
     .interpret = interpVdmpy, .types = "ui8 x i8 -> i16"},
    {.name = "dsp.vsat",
     .summary = "saturating narrowing: Vd.ub = vsat(Vu.h, Vv.h) (vd[2i] = usat8(vv[i]), vd[2i+1] = "
                "usat8(vu[i])) or Vd.h = vsat(Vu.w, Vv.w) (sat16, same interleave)",
     .operands = "vu: " VH "|" VW ", vv: " VH "|" VW, .results = "vd: " VB "|" VH,
     .flags = STRATA_OP_PURE, .interpret = interpVsat, .types = "i16 -> ui8, i32 -> i16",
     .verify = verifyVsat},
    {.name = "dsp.vshuff",
     .summary = "interleave: lo[0], hi[0], lo[1], hi[1], ... fills d0 then d1 (Vdd = vshuff(Vu=hi, "
                "Vv=lo, Rt=-element bytes)); puts vmpy's even/odd halves back in row order",
     .operands = "lo: " ANYV ", hi: " ANYV, .results = "d0: " ANYV ", d1: " ANYV,
     .flags = STRATA_OP_PURE, .interpret = interpShuffle, .types = "i8 i16 i32",
     .verify = verifyShuffle},
    {.name = "dsp.vdeal",
     .summary = "deal (vshuff's inverse): the even elements of in0 followed by in1 go to `even`, "
                "the odd ones to `odd`",
     .operands = "in0: " ANYV ", in1: " ANYV, .results = "even: " ANYV ", odd: " ANYV,
     .flags = STRATA_OP_PURE, .interpret = interpShuffle, .types = "i8 i16 i32",
     .verify = verifyShuffle},
};

const StrataOpTable strataDspVectorOps = {kOps, sizeof kOps / sizeof kOps[0]};
