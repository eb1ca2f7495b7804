/* Everything Strata builds in: its dialects, its passes and its targets.
 * Each pass is defined where its name says (conversions/, transforms/,
 * targets/), each target in targets/<t>/, and listed here once. */
#include "internal.h"
#include "strata/dsp.h"
#include "strata/instrument.h"
#include "strata/nn.h"
#include "strata/pred.h"
#include "strata/sparse.h"

extern const StrataPassDef strataNnToLinalgPass;
extern const StrataPassDef strataNnToKernelsPass;
extern const StrataPassDef strataMathApproxPass;
extern const StrataPassDef strataBufferArenaPass;
extern const StrataPassDef strataPredPlaceholderAliasPass;
extern const StrataPassDef strataSliceAliasPass;
extern const StrataPassDef strataPredCompressPlansPass;
extern const StrataPassDef strataCpuPipelinePass;
extern const StrataPassDef strataCpuPipelineUpstreamPass;
extern const StrataPassDef strataCpuPipelineUnfusedPass;
extern const StrataPassDef strataCpuPipelineFusedPass;
extern const StrataPassDef strataCpuPipelineFusedCodegenPass;
extern const StrataPassDef strataCpuPipelinePredicatedPass;
extern const StrataPassDef strataNnFusePass;
extern const StrataPassDef strataNnFuseReportPass;
extern const StrataPassDef strataFusedBlocksInlinePass;
extern const StrataPassDef strataFusedBlocksTilePass;
extern const StrataPassDef strataFusedBlocksRemapPass;
extern const StrataPassDef strataEmitCInterfacePass;
extern const StrataPassDef strataDistinctResultsPass;
extern const StrataPassDef strataDynamicResultsPass;
extern const StrataPassDef strataNnFoldPass;
extern const StrataPassDef strataNnRaisePass;
extern const StrataPassDef strataNnQdqToQLinearPass;
extern const StrataPassDef strataNnAnnotatePass;
extern const StrataPassDef strataNnFlopsPass;
extern const StrataPassDef strataNnRdpPass;
extern const StrataPassDef strataRdpFoldChecksPass;
extern const StrataPassDef strataNnMultiversionPass;
extern const StrataPassDef strataNnRdpPlanPass;
extern const StrataPassDef strataNnAlgebraicRewritePass;
extern const StrataPassDef strataInstrAssignIdsPass;
extern const StrataPassDef strataInstrumentPass;
extern const StrataPassDef strataInstrToRuntimePass;
extern const StrataPassDef strataSparseTunePass;
extern const StrataTargetDef strataCpuTarget;
extern const StrataTargetDef strataOpenclTarget;
extern const StrataTargetDef strataVulkanTarget;
extern const StrataTargetDef strataHexagonTarget;
extern const StrataPassDef strataGpuKernelsPass;
extern const StrataPassDef strataGpuProfileProbesPass;
extern const StrataPassDef strataGpuKernelsUnfusedPass;
extern const StrataPassDef strataGpuKernelsFusedPass;
extern const StrataPassDef strataGpuFlattenParallelPass;
extern const StrataPassDef strataGpuFuseBlocksPass;
extern const StrataPassDef strataGpuTileWorkgroupPass;
extern const StrataPassDef strataGpuRoundF16Pass;
extern const StrataPassDef strataGpuPrivateTemporariesPass;
extern const StrataPassDef strataGpuLaunchOperandsPass;
extern const StrataPassDef strataShapePlanPass;
extern const StrataPassDef strataHoistBranchAllocsPass;
/* NULL-terminated lists kept beside their passes. */
extern const StrataPassDef *const strataSparseTransformPasses[];
extern const StrataPassDef *const strataSparseLowerPasses[];
extern const StrataPassDef *const strataPredTransformPasses[];
extern const StrataPassDef *const strataPredLowerPasses[];
extern const StrataPassDef *const strataDspPasses[];
extern const StrataPassDef *const strataDspLowerPasses[];
static const StrataPassDef *const *const kPassLists[] = {strataSparseTransformPasses,
                                                          strataSparseLowerPasses,
                                                          strataPredTransformPasses,
                                                          strataPredLowerPasses,
                                                          strataDspPasses,
                                                          strataDspLowerPasses};

static const StrataDialectDef *const kDialects[] = {&strataNnDialect, &strataInstrDialect,
                                                      &strataSparseDialect, &strataPredDialect,
                                                      &strataDspDialect};

static const StrataPassDef *const kPasses[] = {
    &strataNnFoldPass,
    &strataNnRaisePass,
    &strataNnQdqToQLinearPass,
    &strataNnAnnotatePass,
    &strataNnFlopsPass,
    &strataNnRdpPass,
    &strataNnRdpPlanPass,
    &strataNnAlgebraicRewritePass,
    &strataNnFusePass,
    &strataNnFuseReportPass,
    &strataFusedBlocksRemapPass,
    &strataFusedBlocksTilePass,
    &strataFusedBlocksInlinePass,
    &strataInstrAssignIdsPass,
    &strataInstrumentPass,
    &strataInstrToRuntimePass,
    &strataSparseTunePass,
    &strataNnToKernelsPass,
    &strataNnToLinalgPass,
    &strataMathApproxPass,
    &strataEmitCInterfacePass,
    &strataDistinctResultsPass,
    &strataDynamicResultsPass,
    &strataBufferArenaPass,
    &strataPredPlaceholderAliasPass,
    &strataPredCompressPlansPass,
    &strataCpuPipelinePass,
    &strataCpuPipelineUpstreamPass,
    &strataCpuPipelineUnfusedPass,
    &strataCpuPipelineFusedPass,
    &strataCpuPipelineFusedCodegenPass,
    &strataCpuPipelinePredicatedPass,
    &strataGpuKernelsPass,
    &strataGpuKernelsUnfusedPass,
    &strataGpuKernelsFusedPass,
    &strataGpuFlattenParallelPass,
    &strataGpuProfileProbesPass,
    &strataGpuFuseBlocksPass,
    &strataGpuTileWorkgroupPass,
    &strataGpuRoundF16Pass,
    &strataGpuPrivateTemporariesPass,
    &strataGpuLaunchOperandsPass,
    &strataShapePlanPass,
    &strataSliceAliasPass,
    &strataRdpFoldChecksPass,
    &strataNnMultiversionPass,
    &strataHoistBranchAllocsPass,
};

static const StrataTargetDef *const kTargets[] = {&strataCpuTarget, &strataOpenclTarget, &strataVulkanTarget,
                                                  &strataHexagonTarget};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The registry is the top layer: the context core/ builds knows nothing of
 * what is built in; this adds it through the same calls an embedder uses. */
StrataContext *strataContextCreate(void) {
  StrataContext *ctx = strataContextCreateBare();
  if (!ctx) return NULL;
  bool ok = true;
  for (size_t i = 0; ok && i < COUNT(kDialects); i++)
    ok = mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, kDialects[i]));
  for (size_t i = 0; ok && i < COUNT(kPasses); i++)
    ok = mlirLogicalResultIsSuccess(strataContextRegisterPass(ctx, kPasses[i]));
  for (size_t l = 0; ok && l < COUNT(kPassLists); l++)
    for (const StrataPassDef *const *p = kPassLists[l]; ok && *p; p++)
      ok = mlirLogicalResultIsSuccess(strataContextRegisterPass(ctx, *p));
  for (size_t i = 0; ok && i < COUNT(kTargets); i++)
    ok = mlirLogicalResultIsSuccess(strataContextRegisterTarget(ctx, kTargets[i]));
  if (!ok) {
    strataContextDestroy(ctx);
    return NULL;
  }
  return ctx;
}
