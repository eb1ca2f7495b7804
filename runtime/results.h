/* Results of dynamic shape (issue 19): compiled code cannot take an
 * out-param for a result whose extents it computes, so it hands the result
 * to the runtime (strata_rt_result_<type>, kernel_abi.def) before it
 * returns, and the runtime copies it into a dense buffer of its own for the
 * caller:
 *
 *   StrataRtResult slots[2] = {0};
 *   strataRtResultsBegin(slots, 2);   // on the thread that makes the call
 *   ... call the compiled function (its static results stay out-params) ...
 *   strataRtResultsEnd();
 *   // slots[i].set: slots[i].data (malloc'ed; the caller frees it),
 *   // slots[i].rank and slots[i].dims
 *
 * A delivery outside Begin/End, to an index beyond the slots, twice to one
 * slot, or that cannot be allocated is a run-time error (status.h). */
#ifndef STRATA_RUNTIME_RESULTS_H
#define STRATA_RUNTIME_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "memref.h"

typedef struct {
  bool set;
  int rank;
  int64_t dims[STRATA_RT_MAX_RANK];
  size_t elemBytes;
  void *data; /* dense, row-major; owned by the caller once set */
} StrataRtResult;

void strataRtResultsBegin(StrataRtResult *slots, int count);
void strataRtResultsEnd(void);

#endif /* STRATA_RUNTIME_RESULTS_H */
