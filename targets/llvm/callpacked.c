/* Calling compiled code's packed entry points (callpacked.h). */
#include "callpacked.h"
#include <stdlib.h>
#include <string.h>
#include "memref.h"
#include "results.h"

typedef struct {
  void (*fn)(void **);
  void **args;
  StrataRtResult *slots; /* the outputs delivered through the runtime */
  int numSlots;
} PackedCall;

/* The runtime's result slots are per thread: set them on the thread that
 * runs the code. */
static void runPacked(void *p) {
  PackedCall *c = p;
  strataRtResultsBegin(c->slots, c->numSlots);
  c->fn(c->args);
  strataRtResultsEnd();
}

/* Output t takes the runtime's buffer of a result of dynamic shape (false,
 * the buffer freed, if its rank or element size is not t's). */
static bool adoptResult(StrataTensor *t, StrataRtResult *r) {
  if (!r->set || r->rank != t->rank || r->elemBytes != strataDTypeSize(t->dtype)) {
    free(r->data);
    return false;
  }
  free(t->data);
  t->data = r->data;
  for (int i = 0; i < r->rank; i++) t->dims[i] = r->dims[i];
  return true;
}

int strataCpuCallPacked(StrataRtEnv *env, void (*fn)(void **), StrataTensor *const *inputs, size_t numInputs,
                        StrataTensor *const *outputs, size_t numOutputs, const bool *isRuntime, char *err,
                        size_t errSize) {
  size_t n = numInputs + numOutputs;
  StrataMemRefDesc *descs = calloc(n ? n : 1, sizeof *descs);
  StrataMemRefDesc **ptrs = calloc(n ? n : 1, sizeof *ptrs);
  void **args = calloc(n ? n : 1, sizeof *args);
  StrataRtResult *slots = calloc(numOutputs ? numOutputs : 1, sizeof *slots);
  int rc = STRATA_CALL_NO_MEMORY;
  if (!descs || !ptrs || !args || !slots) goto done;
  size_t numArgs = 0;
  for (size_t i = 0; i < n; i++) {
    if (i >= numInputs && isRuntime[i - numInputs]) continue; /* delivered through the runtime */
    StrataTensor *t = i < numInputs ? inputs[i] : outputs[i - numInputs];
    if (strataRtMemRefInit(&descs[numArgs], t->data, t->rank, t->dims) != 0) goto done;
    ptrs[numArgs] = &descs[numArgs];
    args[numArgs] = &ptrs[numArgs];
    numArgs++;
  }
  PackedCall call = {fn, args, slots, (int)numOutputs};
  rc = strataRtCallIn(env, runPacked, &call, err, errSize) == 0 ? STRATA_CALL_OK : STRATA_CALL_FAILED;
  strataRtResultsEnd(); /* also when an error left runPacked early: the slots die here */
  for (size_t i = 0; i < numOutputs; i++) {
    if (!isRuntime[i]) continue;
    if (rc == STRATA_CALL_OK && !adoptResult(outputs[i], &slots[i])) rc = 1 + (int)i;
    else if (rc != STRATA_CALL_OK && slots[i].set) free(slots[i].data);
  }
done:
  free(descs);
  free(ptrs);
  free(args);
  free(slots);
  return rc;
}
