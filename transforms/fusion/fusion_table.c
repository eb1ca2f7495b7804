/* Table 3.3 of the DNNFusion thesis: for a pair of ops by mapping type
 * (first feeds second), the fused block's type and whether to fuse. The
 * colours were lost in the text extraction; this grid is the digest's
 * reconstruction (23 green or yellow cells, as the thesis counts). */
#include "strata/fusion.h"

#define G STRATA_FUSE_ALWAYS
#define Y STRATA_FUSE_PROFILE
#define R STRATA_FUSE_NEVER
#define O2O STRATA_MAP_ONE_TO_ONE
#define REORG STRATA_MAP_REORGANIZE
#define SHUF STRATA_MAP_SHUFFLE
#define O2M STRATA_MAP_ONE_TO_MANY
#define M2M STRATA_MAP_MANY_TO_MANY

typedef struct {
  StrataFuseDecision decision;
  StrataMappingType fused;
} Cell;

/* Indexed by mapping type - 1 (the enum's order: O2O, Reorganize, Shuffle,
 * O2M, M2M); rows are the first op. */
static const Cell kTable[5][5] = {
    /*            O2O          Reorg          Shuffle        O2M          M2M */
    /* O2O   */ {{G, O2O},    {G, REORG},    {G, SHUF},     {G, O2M},    {G, M2M}},
    /* Reorg */ {{G, REORG},  {G, REORG},    {G, REORG},    {Y, O2M},    {Y, M2M}},
    /* Shuf  */ {{G, SHUF},   {G, REORG},    {G, SHUF},     {Y, O2M},    {Y, M2M}},
    /* O2M   */ {{G, O2M},    {Y, O2M},      {Y, O2M},      {Y, O2M},    {R, M2M}},
    /* M2M   */ {{G, M2M},    {Y, M2M},      {Y, M2M},      {Y, M2M},    {R, M2M}},
};

StrataFuseDecision strataFusionTable(StrataMappingType first, StrataMappingType second,
                                     StrataMappingType *fused) {
  if (first < O2O || first > M2M || second < O2O || second > M2M) return STRATA_FUSE_NEVER;
  const Cell *c = &kTable[first - 1][second - 1];
  if (fused) *fused = c->fused;
  return c->decision;
}

const char *strataFuseDecisionName(StrataFuseDecision d) {
  switch (d) {
  case STRATA_FUSE_ALWAYS: return "fuse";
  case STRATA_FUSE_PROFILE: return "profile";
  case STRATA_FUSE_NEVER: break;
  }
  return "never";
}
