/* --dsp-pack: SDA VLIW packing (A5) of a function's largest basic block
 * (the kernel's inner loop body, as GCD² packs it) on the HVX machine
 * model. Each op becomes an instruction of a class (table below: latency,
 * resources); SSA uses and same-memref memory order give the dependency
 * graph, whose soft edges come from the microarchitecture table (load ->
 * arithmetic, vector arithmetic -> store, scalar arithmetic -> anything,
 * each a 1-cycle stall when packed together). Writes `dsp.packet` on each
 * packed op and, with report=true, a remark with packets and modeled
 * cycles beside the soft-to-hard and soft-to-none baselines. Constants are
 * not instructions (they live in registers before the block), the
 * terminator stays last; an op the table does not know is ordered by its
 * uses (vector, math, index ops) or, with regions or unknown effects, is
 * a barrier nothing moves across. */
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/dsp.h"
#include "strata/pass.h"
#include "strata/support.h"

/* CLS_OTHER: an op outside the table with no regions (vector.*, math.*,
 * ...): one cycle, no unit, ordered by its uses. CLS_BARRIER: anything with
 * regions or effects the table does not know (calls, memref copies, loops):
 * ordered after everything before it and before everything after it. */
typedef enum { CLS_NONE, CLS_LOAD, CLS_STORE, CLS_VALU, CLS_MPY, CLS_MPY_DV, CLS_SHIFT, CLS_PERMUTE, CLS_SCALAR,
               CLS_OTHER, CLS_BARRIER } Class;

static const struct {
  const char *prefix; /* an op name, or a dialect prefix ending in '.' */
  Class cls;
} kClasses[] = {
    {"vector.load", CLS_LOAD},      {"memref.load", CLS_LOAD},     {"vector.store", CLS_STORE},
    {"memref.store", CLS_STORE},    {"dsp.vrmpy", CLS_MPY},        {"dsp.vrmpy_acc", CLS_MPY},
    {"dsp.vmpy", CLS_MPY_DV},       {"dsp.vmpy_acc", CLS_MPY_DV},  {"dsp.vmpa", CLS_MPY_DV},
    {"dsp.vmpa_acc", CLS_MPY_DV},   {"dsp.vdmpy", CLS_MPY_DV},     {"dsp.vdmpy_acc", CLS_MPY_DV},
    {"dsp.vsat", CLS_SHIFT},        {"dsp.vshuff", CLS_PERMUTE},   {"dsp.vdeal", CLS_PERMUTE},
    {"arith.constant", CLS_NONE},   {"arith.", CLS_VALU},          {"vector.", CLS_OTHER},
    {"math.", CLS_OTHER},           {"index.", CLS_OTHER},
};

static Class classOf(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) > 0) return CLS_BARRIER;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof kClasses / sizeof kClasses[0]; i++) {
    size_t len = strlen(kClasses[i].prefix);
    bool prefix = kClasses[i].prefix[len - 1] == '.';
    if ((prefix ? name.length > len : name.length == len) && !strncmp(name.data, kClasses[i].prefix, len)) {
      Class c = kClasses[i].cls;
      /* Arithmetic on scalars runs in the scalar slots: 1 cycle. */
      if (c == CLS_VALU && mlirOperationGetNumResults(op) > 0 &&
          !mlirTypeIsAVector(mlirValueGetType(mlirOperationGetResult(op, 0))))
        c = CLS_SCALAR;
      return c;
    }
  }
  return CLS_BARRIER;
}

static StrataDspInstrInfo infoOf(Class c) {
  StrataDspInstrInfo x = {3, {0}}; /* vector ops: 3 cycles (Fig. 4.4) */
  switch (c) {
  case CLS_LOAD: x.use[STRATA_DSP_RES_LOAD] = 1; break;
  case CLS_STORE: x.latency = 1; x.use[STRATA_DSP_RES_STORE] = 1; break;
  case CLS_MPY: x.use[STRATA_DSP_RES_MPY] = 1; break;
  case CLS_MPY_DV: x.use[STRATA_DSP_RES_MPY] = 2; break;
  case CLS_SHIFT: x.use[STRATA_DSP_RES_SHIFT] = 1; break;
  case CLS_PERMUTE: x.use[STRATA_DSP_RES_PERMUTE] = 1; break;
  case CLS_SCALAR: case CLS_OTHER: case CLS_BARRIER: x.latency = 1; break;
  default: break;
  }
  return x;
}

/* The microarchitecture table of soft dependencies (A5). */
static bool isSoft(Class producer, Class consumer) {
  bool arith = consumer == CLS_VALU || consumer == CLS_MPY || consumer == CLS_MPY_DV ||
               consumer == CLS_SHIFT || consumer == CLS_PERMUTE;
  return (producer == CLS_LOAD && arith) || (producer == CLS_VALU && consumer == CLS_STORE) ||
         producer == CLS_SCALAR;
}

/* What the packer schedules: every op of the block but constants and the
 * terminator (which stays last). */
static bool isInstruction(MlirBlock b, MlirOperation o) {
  return classOf(o) != CLS_NONE && !mlirOperationEqual(o, mlirBlockGetTerminator(b));
}

typedef struct {
  MlirBlock best;
  intptr_t bestOps;
} Largest;

static MlirWalkResult findLargest(MlirOperation op, void *user) {
  Largest *l = user;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b)) {
      intptr_t n = 0;
      for (MlirOperation o = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        n += isInstruction(b, o);
      if (n > l->bestOps) l->best = b, l->bestOps = n;
    }
  return MlirWalkResultAdvance;
}

/* The memref a load or store uses (operand 0 for loads, 1 for stores). */
static MlirValue memrefOf(MlirOperation op, Class c) {
  return mlirOperationGetOperand(op, c == CLS_STORE ? 1 : 0);
}

enum { MAX_INSTRS = 4096 };

static void runPack(StrataPassRun *run, MlirOperation func) {
  MlirLocation loc = mlirOperationGetLocation(func);
  const char *modeName = strataPassGetString(run, "mode");
  StrataDspPackMode mode = !strcmp(modeName, "sda") ? STRATA_DSP_PACK_SDA
                           : !strcmp(modeName, "soft-to-hard") ? STRATA_DSP_PACK_SOFT_TO_HARD
                           : !strcmp(modeName, "soft-to-none") ? STRATA_DSP_PACK_SOFT_TO_NONE : 0;
  double w = strataPassGetDouble(run, "w"), p = strataPassGetDouble(run, "p");
  if (!mode || !(w >= 0 && w <= 1) || !(p >= 0)) {
    strataEmitError(loc, "dsp-pack: mode must be sda, soft-to-hard or soft-to-none, w in [0, 1] and "
                    "p >= 0 (got mode=%s w=%g p=%g)", modeName, w, p);
    strataPassSignalFailure(run);
    return;
  }
  Largest l = {{NULL}, 0};
  mlirOperationWalk(func, findLargest, &l, MlirWalkPreOrder);
  if (!l.bestOps) return;
  if (l.bestOps > MAX_INSTRS) {
    strataEmitError(loc, "dsp-pack: the largest block has %lld instructions; at most %d are packed",
                    (long long)l.bestOps, MAX_INSTRS);
    strataPassSignalFailure(run);
    return;
  }
  int n = 0, ne = 0;
  size_t capDeps = 0;
  MlirOperation ops[l.bestOps];
  Class cls[l.bestOps];
  StrataDspInstrInfo info[l.bestOps];
  StrataDspDep *deps = NULL;
  bool ok = true;
  int lastBarrier = -1; /* a barrier orders what lies before it; later ops need only it */
  for (MlirOperation o = mlirBlockGetFirstOperation(l.best); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (!isInstruction(l.best, o)) continue;
    Class c = classOf(o);
    for (int i = 0; ok && i < n; i++) {
      bool uses = false;
      for (intptr_t k = 0; k < mlirOperationGetNumOperands(o) && !uses; k++) {
        MlirValue v = mlirOperationGetOperand(o, k);
        uses = mlirValueIsAOpResult(v) && mlirOperationEqual(mlirOpResultGetOwner(v), ops[i]);
      }
      bool memory = (c == CLS_STORE || cls[i] == CLS_STORE) && (c == CLS_LOAD || c == CLS_STORE) &&
                    (cls[i] == CLS_LOAD || cls[i] == CLS_STORE) &&
                    mlirValueEqual(memrefOf(o, c), memrefOf(ops[i], cls[i]));
      bool barrier = i == lastBarrier || (c == CLS_BARRIER && i > lastBarrier);
      if (!uses && !memory && !barrier) continue;
      StrataDspDep *grown = strataGrow(deps, &capDeps, (size_t)ne + 1, sizeof *deps);
      if (!grown) {
        ok = false;
        break;
      }
      deps = grown;
      bool soft = uses && !memory && !barrier && isSoft(cls[i], c);
      deps[ne++] = (StrataDspDep){i, n, soft, soft ? 1 : 0};
    }
    if (c == CLS_BARRIER) lastBarrier = n;
    ops[n] = o;
    cls[n] = c;
    info[n] = infoOf(c);
    n++;
  }
  StrataDspMachine m = strataDspHvxMachine();
  int packetOf[n], base[n];
  char err[200] = "out of memory";
  int packets = ok ? strataDspVliwPack(&m, info, n, deps, ne, mode, w, p, packetOf, err, sizeof err) : -1;
  if (packets < 0) {
    strataEmitError(loc, "dsp-pack: %s", err);
    strataPassSignalFailure(run);
    free(deps);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(func);
  for (int i = 0; i < n; i++)
    mlirOperationSetAttributeByName(ops[i], mlirStringRefCreateFromCString("dsp.packet"),
                                    strataI64Attr(ctx, packetOf[i]));
  if (strataPassGetBool(run, "report")) {
    int hard = strataDspVliwPack(&m, info, n, deps, ne, STRATA_DSP_PACK_SOFT_TO_HARD, w, p, base, err, sizeof err);
    long long hardCycles = strataDspVliwCycles(info, n, deps, ne, base, hard);
    int none = strataDspVliwPack(&m, info, n, deps, ne, STRATA_DSP_PACK_SOFT_TO_NONE, w, p, base, err, sizeof err);
    long long noneCycles = strataDspVliwCycles(info, n, deps, ne, base, none);
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, loc,
                         "dsp-pack (%s): %d instructions in %d packets, %lld modeled cycles "
                         "(soft-to-hard: %d packets, %lld cycles; soft-to-none: %d packets, %lld cycles)",
                         modeName, n, packets, (long long)strataDspVliwCycles(info, n, deps, ne, packetOf, packets),
                         hard, hardCycles, none, noneCycles);
  }
  free(deps);
}

static const StrataPassOptionDef kOptions[] = {
    {"mode", STRATA_OPTION_STRING, "sda", "sda | soft-to-hard | soft-to-none"},
    {"w", STRATA_OPTION_DOUBLE, "0.5", "weight of (order + pred) against the latency gap in the score"},
    {"p", STRATA_OPTION_DOUBLE, "2", "score penalty for packing a soft-dependent instruction"},
    {"report", STRATA_OPTION_BOOL, "false", "remark: packets and modeled cycles, and the baselines'"},
};

const StrataPassDef strataDspPackPass = {
    .name = "dsp-pack",
    .summary = "Pack the largest block's instructions into VLIW packets (GCD²'s SDA) on the HVX "
               "machine model; writes dsp.packet",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runPack,
};
