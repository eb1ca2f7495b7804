/* The nn dialect's op table: IRDL gives structure, this table gives each op
 * its C verifier, reference kernel and facts. */
#include "nn_internal.h"

extern const char strata_nn_irdl[];

static const StrataOpDef kNnOps[] = {
    {"nn.constant", "A compile-time tensor (weights): `value` is a dense elements attribute",
     STRATA_OP_PURE, nnVerifyConstant, nnInterpConstant},
    {"nn.relu", "Rectified linear unit, max(x, 0) elementwise", STRATA_OP_PURE,
     nnVerifyElementwiseUnary, nnInterpRelu},
    {"nn.add", "Elementwise addition with multidirectional (numpy) broadcasting", STRATA_OP_PURE,
     nnVerifyBroadcastBinary, nnInterpAdd},
    {"nn.matmul", "Matrix product with numpy.matmul semantics (batched, broadcast, 1-D promotion)",
     STRATA_OP_PURE, nnVerifyMatmul, nnInterpMatmul},
    {"nn.conv2d", "2-D convolution, NCHW input, FCHW filter, optional bias; strides, pads, "
     "dilations, groups", STRATA_OP_PURE, nnVerifyConv2d, nnInterpConv2d},
};

const StrataDialectDef strataNnDialect = {
    "nn", strata_nn_irdl, "nn.irdl.mlir", kNnOps, sizeof kNnOps / sizeof kNnOps[0],
};
