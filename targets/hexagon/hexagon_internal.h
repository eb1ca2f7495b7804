/* The hexagon target's halves: code generation (hexagon_target.c) and the
 * freestanding runner that runs it under qemu-hexagon (hexagon_run.c). */
#ifndef STRATA_TARGETS_HEXAGON_INTERNAL_H
#define STRATA_TARGETS_HEXAGON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/tensor.h"
#include "strata/target_llvm.h"

/* The machine: QEMU 7.2's qemu-hexagon runs v67 with 128-byte HVX (v68
 * objects are refused there). */
#define HEXAGON_TRIPLE "hexagon-unknown-linux-musl"
#define HEXAGON_CPU "hexagonv67"
#define HEXAGON_FEATURES "+hvxv67,+hvx-length128b"

/* `lowered` (an LLVM-dialect module, borrowed) as a Hexagon object,
 * assembly or LLVM IR (malloc'ed, length in *size); NULL after a located
 * error. */
char *hexagonEmit(MlirModule lowered, StrataAotKind kind, int optLevel, size_t *size);

/* Full path of program `name` on $PATH into `buf`; false if there is none. */
bool hexagonFindProgram(const char *name, char *buf, size_t size);

/* Runs `_mlir_ciface_<name>` of the Hexagon object `object` under
 * qemu-hexagon: writes a runner (a `_start` that calls it on `inputs`,
 * embedded, writes the outputs' bytes to stdout and exits through trap0),
 * links both with ld.lld into a static executable in a temporary directory
 * (removed afterwards), runs it and reads `outputs` back. The runner is
 * parsed in `ctx`. False with the reason in `err`. */
bool hexagonRun(MlirContext ctx, const char *object, size_t objectSize, const char *name,
                StrataTensor *const *inputs, size_t numInputs, StrataTensor *const *outputs, size_t numOutputs,
                int optLevel, char *err, size_t errSize);

#endif
