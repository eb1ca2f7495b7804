/* Runtime errors that return instead of taking the process down.
 *
 *   char err[512];
 *   if (strataRtCall(runCompiledCode, &args, err, sizeof err) != 0)
 *     report(err);   // e.g. "out of memory for a buffer arena"
 *
 * Compiled code and the kernels it calls report bad data (an index out of
 * range) and failed allocations through the runtime; inside strataRtCall the
 * call then stops at once and strataRtCall returns -1 with the message. The
 * compiled code is left with a longjmp (it holds no locks and frees nothing:
 * the runtime's buffer arenas are rewound; buffers the code itself had
 * malloc'ed are lost). An error in a chunk of a parallel region of the
 * kernels' thread pool stops that chunk; the region finishes its other
 * chunks and then raises the first message on the calling thread. Where no
 * strataRtCall is active on the calling thread the runtime prints the
 * message and aborts, as it did before: compiled code called directly (the
 * AOT header's functions) has no status to return yet. */
#ifndef STRATA_RUNTIME_STATUS_H
#define STRATA_RUNTIME_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include "kernels.h"

/* Runs fn(arg). Returns 0, or -1 with the runtime's message in `err` if the
 * code it ran reported an error (an error raised at an op's site starts
 * with the op's location as text and a tab). Calls nest. */
int strataRtCall(void (*fn)(void *), void *arg, char *err, size_t errSize);

/* Called by compiled code (nn-to-linalg's gathers and scatters) when an
 * index read from a tensor is outside [-size, size): `site` is the op's
 * location as text, a tab, and the op ("model.onnx: node 'g'\t'nn.gather'
 * op"); the message is the site and "index I is out of range for axis A of
 * size S", the words of the reference interpreter. */
void _mlir_ciface_strata_rt_index_error(int64_t index, int64_t axis, int64_t size,
                                        StrataUnrankedMemRef *site);

#endif /* STRATA_RUNTIME_STATUS_H */
