/* DNNFusion's fusion planning (Niu, ch. 3): the mapping-type fusion table,
 * the latency database that settles its "profile" cells, and the planner
 * behind --nn-fuse.
 *
 *   StrataMappingType fused;
 *   StrataFuseDecision d = strataFusionTable(STRATA_MAP_MANY_TO_MANY,
 *                                            STRATA_MAP_ONE_TO_ONE, &fused);
 *   // d == STRATA_FUSE_ALWAYS, fused == STRATA_MAP_MANY_TO_MANY
 */
#ifndef STRATA_FUSION_H
#define STRATA_FUSION_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A cell of Table 3.3: green, yellow, red. */
typedef enum {
  STRATA_FUSE_NEVER = 0, /* red: fusing is unprofitable or impossible */
  STRATA_FUSE_PROFILE,   /* yellow: fuse iff the latency database says it pays */
  STRATA_FUSE_ALWAYS,    /* green: fuse */
} StrataFuseDecision;

/* The cell for `first` followed by `second` (first's result feeds second).
 * `*fused` (may be NULL) receives the fused block's mapping type; it is
 * meaningless for a red cell. */
StrataFuseDecision strataFusionTable(StrataMappingType first, StrataMappingType second,
                                     StrataMappingType *fused);
const char *strataFuseDecisionName(StrataFuseDecision d); /* "fuse", "profile", "never" */

/* ---- Latency database ----
 * Keys are canonical texts of candidate kernels (op names, types,
 * attributes, internal edges); values are measured latencies in
 * nanoseconds. The file is plain text, one "<latency-ns>\t<key>" per line,
 * '#' comments; it is created on first save and reused later. */
typedef struct StrataFuseDb StrataFuseDb;

/* Loads `path` if it exists (an absent file is an empty database). A
 * malformed file is an error (located diagnostic, NULL). A NULL path gives
 * a database in memory only (saving it does nothing). Ownership transfers
 * to the caller: destroy it with strataFuseDbDestroy. */
StrataFuseDb *strataFuseDbCreate(StrataContext *ctx, const char *path);
void strataFuseDbDestroy(StrataFuseDb *db);
/* Fails (located diagnostic) if the database's file could not be written:
 * a run that will measure checks this first, so a bad path is an error
 * before the work, not a lost result after it (or never noticed). */
MlirLogicalResult strataFuseDbCheckWritable(StrataFuseDb *db);
/* Writes the database back if it changed; failure leaves the old file. */
MlirLogicalResult strataFuseDbSave(StrataFuseDb *db);
/* A lookup that finds `key` counts as a hit; an insert as a measurement. */
bool strataFuseDbLookup(StrataFuseDb *db, const char *key, double *ns);
void strataFuseDbInsert(StrataFuseDb *db, const char *key, double ns);
size_t strataFuseDbSize(const StrataFuseDb *db);
size_t strataFuseDbHits(const StrataFuseDb *db);
size_t strataFuseDbMeasured(const StrataFuseDb *db);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_FUSION_H */
