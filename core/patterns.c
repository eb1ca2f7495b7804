/* Pattern sets built from C callbacks and the greedy/walk drivers. */
#include <stdlib.h>
#include "strata/pattern.h"
#include "grow.h"

typedef struct {
  StrataMatchAndRewriteFn fn;
  void *user;
} PatternThunk;

struct StrataPatternSet {
  MlirContext ctx;
  MlirRewritePatternSet set;
  MlirFrozenRewritePatternSet frozen; /* built on first application */
  PatternThunk **thunks;
  size_t numThunks, capThunks;
};

static MlirLogicalResult matchAndRewrite(MlirRewritePattern pattern, MlirOperation op,
                                         MlirPatternRewriter rewriter, void *userData) {
  (void)pattern;
  PatternThunk *t = userData;
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  StrataRewrite rw = {base, strataBuilderBefore(op, base)};
  return t->fn(&rw, op, t->user);
}

StrataPatternSet *strataPatternSetCreate(MlirContext ctx) {
  StrataPatternSet *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->ctx = ctx;
  s->set = mlirRewritePatternSetCreate(ctx);
  return s;
}

void strataPatternSetDestroy(StrataPatternSet *s) {
  if (!s) return;
  if (s->frozen.ptr) mlirFrozenRewritePatternSetDestroy(s->frozen);
  /* mlirFreezeRewritePattern moves the patterns out but does not delete the
   * set object itself (MLIR 22), so the emptied set is always ours to free. */
  mlirRewritePatternSetDestroy(s->set);
  for (size_t i = 0; i < s->numThunks; i++) free(s->thunks[i]);
  free(s->thunks);
  free(s);
}

void strataPatternSetAdd(StrataPatternSet *s, const char *rootName, unsigned benefit,
                         StrataMatchAndRewriteFn fn, void *userData) {
  if (s->frozen.ptr || !rootName) return; /* frozen sets are immutable */
  PatternThunk *t = malloc(sizeof *t);
  PatternThunk **grown = strataGrow(s->thunks, &s->capThunks, s->numThunks + 1, sizeof *grown);
  if (grown) s->thunks = grown;
  if (!t || !grown) {
    free(t);
    return;
  }
  t->fn = fn;
  t->user = userData;
  s->thunks[s->numThunks++] = t;
  MlirRewritePatternCallbacks cbs = {NULL, NULL, matchAndRewrite};
  MlirRewritePattern p = mlirOpRewritePatternCreate(
      mlirStringRefCreateFromCString(rootName), benefit, s->ctx, cbs, t, 0, NULL);
  mlirRewritePatternSetAdd(s->set, p);
}

static MlirFrozenRewritePatternSet frozen(StrataPatternSet *s) {
  if (!s->frozen.ptr) s->frozen = mlirFreezeRewritePattern(s->set);
  return s->frozen;
}

MlirLogicalResult strataApplyPatternsGreedily(StrataPatternSet *s, MlirOperation root,
                                              const StrataGreedyConfig *config) {
  MlirGreedyRewriteDriverConfig c = mlirGreedyRewriteDriverConfigCreate();
  if (config) {
    if (config->maxIterations > 0)
      mlirGreedyRewriteDriverConfigSetMaxIterations(c, config->maxIterations);
    mlirGreedyRewriteDriverConfigSetUseTopDownTraversal(c, config->topDown);
    mlirGreedyRewriteDriverConfigEnableFolding(c, config->fold);
    mlirGreedyRewriteDriverConfigEnableConstantCSE(c, config->fold);
  }
  MlirLogicalResult r = mlirApplyPatternsAndFoldGreedilyWithOp(root, frozen(s), c);
  mlirGreedyRewriteDriverConfigDestroy(c);
  return r;
}

void strataApplyPatternsWalk(StrataPatternSet *s, MlirOperation root) {
  mlirWalkAndApplyPatterns(root, frozen(s));
}

void strataReplaceOp(StrataRewrite *rw, MlirOperation op, StrataValueList values) {
  mlirRewriterBaseReplaceOpWithValues(rw->rewriter, op, values.count, values.data);
}

void strataEraseOp(StrataRewrite *rw, MlirOperation op) { mlirRewriterBaseEraseOp(rw->rewriter, op); }
