#ifndef STRATA_MEM_PLAN_H
#define STRATA_MEM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Memory planning (SOD² B6), plain C: defined in libstrata_rt
 * (runtime/mem_plan.c), where compiled code plans its buffers of dynamic
 * size with the peak walk once per shape class (runtime/shape_plan.c);
 * --nn-rdp-plan plans with it too (strata/rdp.h includes this).
 *
 * Tensors with sizes (>= 0) and inclusive lifetimes [start, end] in steps
 * (0 <= start <= end); each planner writes one offset per tensor so that
 * tensors live at the same step do not overlap, and returns the arena size
 * (-1 for an invalid tensor, on overflow or when memory runs out). */
typedef struct {
  int64_t size;
  int64_t start, end;
} StrataMemTensor;

/* SOD²'s plan: the tensors live at the peak step are stacked first; then
 * walking forward and backward from the peak, each tensor met goes into
 * the lowest free gap among the placed tensors it overlaps in time. */
int64_t strataMemPlanPeakWalk(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* The greedy baseline (MNN's): tensors in order of their first step, each
 * into the smallest free gap that fits (best fit) among those it overlaps. */
int64_t strataMemPlanBestFit(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* Largest first (the static arena's order, strata-buffer-arena): each
 * tensor at the lowest offset free of those placed before it that it
 * overlaps in time. */
int64_t strataMemPlanLargestFirst(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* The most bytes live at one step: every plan's lower bound (-1 for an
 * invalid tensor or on overflow). */
int64_t strataMemPlanLivePeak(const StrataMemTensor *t, size_t n);
/* The optimum by exhaustive search over placement orders (each tensor at
 * its lowest feasible offset; some order reaches every optimum); n <= 9,
 * else -1. For tests. */
int64_t strataMemPlanExhaustive(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* A plan's structure: its tensors from the bottom of the arena up (an
 * array of n indices, the caller's). */
typedef struct {
  size_t *order;
} StrataMemPlanShape;
/* The plan compiled code uses: the peak walk, and where its arena is above
 * the live peak, largest first and best fit too; the smallest arena kept,
 * then compacted by its own structure (strataMemPlanReuse at the same
 * sizes: no tensor higher, the arena no larger). Its structure goes to
 * *shape unless shape is NULL. */
int64_t strataMemPlanBest(const StrataMemTensor *t, size_t n, int64_t *offsets, StrataMemPlanShape *shape);
/* A structure's offsets for new sizes (the same lifetimes): each tensor, in
 * the structure's order, on top of the tensors before it that it overlaps
 * in time. No search, and valid whatever the sizes (SOD²'s plan kept
 * symbolic: no re-plan per shape, only the arena's size changes); at the
 * sizes it was made for, the plan it came from. Returns the arena size, or
 * -1 when the order is not a permutation of the n tensors or on overflow. */
int64_t strataMemPlanReuse(const StrataMemTensor *t, size_t n, const StrataMemPlanShape *shape, int64_t *offsets);
/* True if no two tensors live at a common step overlap in [offset, offset+size). */
bool strataMemPlanValid(const StrataMemTensor *t, size_t n, const int64_t *offsets);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_MEM_PLAN_H */
