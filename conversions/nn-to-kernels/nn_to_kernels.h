/* What --nn-to-kernels sends to the libstrata_rt kernels, for the CPU
 * target's definition (targets/llvm/cpu_target.c), which fusion planning
 * asks through strata/target.h. */
#ifndef STRATA_NN_TO_KERNELS_H
#define STRATA_NN_TO_KERNELS_H

#include <stdbool.h>
#include "mlir-c/IR.h"
#include "strata/pattern.h"

/* True for the ops nn-to-kernels sends to a runtime kernel (f32 conv,
 * matmul, gemm, softmax, log_softmax, pools, layer norm, resize of the
 * last two dims with static shapes;
 * a few shapes it then declines still go to linalg). A kernel reads its
 * inputs from memory and absorbs only epilogues, which fusion planning for
 * the CPU target uses. */
bool strataNnToKernelsCandidate(MlirOperation op);
/* True if nn-to-kernels folds `producer` into the kernel call of
 * `kernelOp`: an f32 nn.transpose (static or dynamic dims) read only by it,
 * as operand 0 or 1 of a matmul/gemm (the kernel reads the transpose's
 * input through a permuted strided view). Fusion planning lets such a
 * prologue join the kernel's block. */
bool strataNnToKernelsAbsorbsPrologue(MlirOperation producer, MlirOperation kernelOp);

/* The quantized half of the pass (nn_to_kernels_q.c): adds the rewrites of
 * nn.matmul_integer, nn.conv_integer, nn.qlinear_matmul and
 * nn.qlinear_conv to `set`; `run` (the module, the pass's `epilogues`
 * option) must outlive the set's application. */
typedef struct {
  MlirOperation module;
  bool epilogues;
} StrataNnToKernelsQRun;
struct StrataPatternSet;
/* True if v (seen through instrumentation probes) is an nn.constant or
 * arith.constant: the kernels may cache its packed form. */
bool strataNnToKernelsIsConstant(MlirValue v);
void strataNnToKernelsAddQuantized(struct StrataPatternSet *set, StrataNnToKernelsQRun *run);
/* The nn.max(y, y_zero_point) after nn.qlinear_matmul/_conv `op` (the Relu
 * nn-qdq-to-qlinear writes), when it is y's only user; a null op otherwise.
 * nn-to-dsp fuses it too. */
MlirOperation strataNnQLinearReluAfter(MlirOperation op);

/* ---- Dynamic dims of a fused call (kernel_dims.c) ---- */
/* True if the f32 addend broadcasts into r's type by numpy's rule as
 * compile-time types decide it: no higher rank, and each dim a static 1,
 * r's static extent, or dynamic on either side (then checked at run time:
 * kernelsCheckAddend). */
bool kernelsAddendFits(MlirValue addend, MlirValue r);
/* Before a call whose result has type rt and extents dims[rank(rt)]: the
 * run-time checks that each dim of `addend` that is not a static 1 has the
 * result's extent, where a type leaves it open, reported as shape error 0
 * at op `at`: of its operand `operand` (the addend), or where the addend's
 * extent is static, of operand `resultOperand` (the value of the result's
 * type: the other operand of an absorbed add; -1 for gemm's C, whose
 * dynamic dims lowerResultDims checks already: dynamicChecked). False
 * after a located error. */
bool kernelsCheckAddend(StrataBuilder *b, MlirOperation at, int operand, int resultOperand, MlirValue addend,
                        MlirType rt, const MlirValue *dims, bool dynamicChecked);
/* After a kernel call read transpose t's input through a permuted view:
 * the tensor.dims of t's result (the call's extents and checks) read t's
 * input (dim perm[d]), and t, then unused, is erased. */
void kernelsDimsThroughTranspose(StrataRewrite *rw, MlirOperation t, const int64_t *perm);

#endif /* STRATA_NN_TO_KERNELS_H */
