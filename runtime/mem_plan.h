#ifndef STRATA_RUNTIME_MEM_PLAN_H
#define STRATA_RUNTIME_MEM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libstrata_rt memory planning (SOD² B6), internal: the declarations of
 * strata/rdp.h's memory planners (public there, defined in mem_plan.c) for
 * the runtime, which cannot include the compiler's headers. Compiled code
 * plans with them once per shape class (shape_plan.c).
 *
 * Tensors with sizes (>= 0) and inclusive lifetimes [start, end] in steps
 * (0 <= start <= end); each planner writes one offset per tensor so that
 * tensors live at the same step do not overlap, and returns the arena size
 * (-1 for an invalid tensor, on overflow or when memory runs out). */
#ifndef STRATA_MEM_TENSOR_DEFINED /* also declared by strata/rdp.h */
#define STRATA_MEM_TENSOR_DEFINED
typedef struct {
  int64_t size;
  int64_t start, end;
} StrataMemTensor;
#endif

/* SOD²'s plan: the tensors live at the peak step are stacked first; then
 * walking forward and backward from the peak, each tensor met goes into
 * the lowest free gap among the placed tensors it overlaps in time. */
int64_t strataMemPlanPeakWalk(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* The greedy baseline (MNN's): tensors in order of their first step, each
 * into the smallest free gap that fits (best fit) among those it overlaps. */
int64_t strataMemPlanBestFit(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* The optimum by exhaustive search over placement orders (each tensor at
 * its lowest feasible offset; some order reaches every optimum); n <= 9,
 * else -1. For tests. */
int64_t strataMemPlanExhaustive(const StrataMemTensor *t, size_t n, int64_t *offsets);
/* True if no two tensors live at a common step overlap in [offset, offset+size). */
bool strataMemPlanValid(const StrataMemTensor *t, size_t n, const int64_t *offsets);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_RUNTIME_MEM_PLAN_H */
