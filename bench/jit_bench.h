/* What bench/fusion_time.c and bench/instr_time.c share: a model's first
 * public function with seeded random f32 inputs, variants of it compiled
 * and checked to agree, and single runs of the variants interleaved so that
 * this VM's slow and fast phases hit all of them alike. */
#ifndef STRATA_BENCH_JIT_BENCH_H
#define STRATA_BENCH_JIT_BENCH_H

#include <stdbool.h>
#include "strata/strata.h"

enum { BENCH_MAX_IO = 16, BENCH_MAX_VARIANTS = 8 };

typedef struct {
  const char *prog;       /* for messages */
  StrataContext *ctx;
  char *text;
  MlirModule module;
  MlirType type;          /* the function's type */
  char entry[256];
  size_t ni, no;
  StrataTensor *in[BENCH_MAX_IO];
  int variants;
  const char *names[BENCH_MAX_VARIANTS];
  StrataJit *jit[BENCH_MAX_VARIANTS];
  StrataTensor *out[BENCH_MAX_VARIANTS][BENCH_MAX_IO];
} Bench;

/* Loads `path`, finds its first public function (static f32 inputs and
 * results) and fills the inputs. False with a message on stderr. */
bool benchLoad(Bench *b, const char *prog, const char *path);
/* Compiles `m` (the loaded module or a variant of it, same function) with
 * `pipeline` as variant `name` and runs it once. False with a message. */
bool benchAddVariant(Bench *b, const char *name, MlirModule m, const char *pipeline);
/* True if every variant's outputs match variant 0's (1e-3 of the range). */
bool benchAgree(const Bench *b);
/* medianMs[k]: variant k's median over `runs` rounds of one run of every
 * variant, in an order rotated each round when `rotate`; `afterRound`
 * (may be NULL) runs after each round, untimed. */
void benchTime(Bench *b, int runs, bool rotate, void (*afterRound)(void), double *medianMs);
void benchDestroy(Bench *b);

#endif
