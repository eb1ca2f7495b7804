/* Everything Strata builds in: its dialects and its passes. Each pass is
 * defined where its name says (conversions/, transforms/, targets/) and
 * listed here once. */
#include "internal.h"
#include "strata/instrument.h"
#include "strata/nn.h"

extern const StrataPassDef strataNnToLinalgPass;
extern const StrataPassDef strataNnToKernelsPass;
extern const StrataPassDef strataMathApproxPass;
extern const StrataPassDef strataBufferArenaPass;
extern const StrataPassDef strataCpuPipelinePass;
extern const StrataPassDef strataCpuPipelineUpstreamPass;
extern const StrataPassDef strataCpuPipelineUnfusedPass;
extern const StrataPassDef strataCpuPipelineFusedPass;
extern const StrataPassDef strataCpuPipelineFusedCodegenPass;
extern const StrataPassDef strataNnFusePass;
extern const StrataPassDef strataNnFuseReportPass;
extern const StrataPassDef strataFusedBlocksInlinePass;
extern const StrataPassDef strataFusedBlocksTilePass;
extern const StrataPassDef strataFusedBlocksRemapPass;
extern const StrataPassDef strataEmitCInterfacePass;
extern const StrataPassDef strataDistinctResultsPass;
extern const StrataPassDef strataNnFoldPass;
extern const StrataPassDef strataNnRaisePass;
extern const StrataPassDef strataNnAnnotatePass;
extern const StrataPassDef strataNnFlopsPass;
extern const StrataPassDef strataNnAlgebraicRewritePass;
extern const StrataPassDef strataInstrAssignIdsPass;
extern const StrataPassDef strataInstrumentPass;
extern const StrataPassDef strataInstrToRuntimePass;

static const StrataDialectDef *const kDialects[] = {&strataNnDialect, &strataInstrDialect};

static const StrataPassDef *const kPasses[] = {
    &strataNnFoldPass,
    &strataNnRaisePass,
    &strataNnAnnotatePass,
    &strataNnFlopsPass,
    &strataNnAlgebraicRewritePass,
    &strataNnFusePass,
    &strataNnFuseReportPass,
    &strataFusedBlocksRemapPass,
    &strataFusedBlocksTilePass,
    &strataFusedBlocksInlinePass,
    &strataInstrAssignIdsPass,
    &strataInstrumentPass,
    &strataInstrToRuntimePass,
    &strataNnToKernelsPass,
    &strataNnToLinalgPass,
    &strataMathApproxPass,
    &strataEmitCInterfacePass,
    &strataDistinctResultsPass,
    &strataBufferArenaPass,
    &strataCpuPipelinePass,
    &strataCpuPipelineUpstreamPass,
    &strataCpuPipelineUnfusedPass,
    &strataCpuPipelineFusedPass,
    &strataCpuPipelineFusedCodegenPass,
};

size_t strataBuiltinDialects(const StrataDialectDef *const **out) {
  *out = kDialects;
  return sizeof kDialects / sizeof kDialects[0];
}

size_t strataBuiltinPasses(const StrataPassDef *const **out) {
  *out = kPasses;
  return sizeof kPasses / sizeof kPasses[0];
}
