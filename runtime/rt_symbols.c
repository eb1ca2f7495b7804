/* The runtime's symbol table (rt_symbols.h). */
#include "rt_symbols.h"
#include <string.h>
#include "instr.h"
#include "kernels.h"

/* The compiler runtime's conversions to f16 that LLVM calls where the CPU
 * has no instruction (f64 -> f16 always: converting through f32 would
 * round twice); bound here for the same reason (libgcc_s is not global
 * under ctypes either). */
_Float16 __truncdfhf2(double);
_Float16 __truncsfhf2(float);

static const StrataRtSymbol kSymbols[] = {
#define STRATA_RT_ARG(kind, name)
#define STRATA_RT_ABI(fn, args) {"_mlir_ciface_" #fn, (void *)_mlir_ciface_##fn},
#include "kernel_abi.def"
#undef STRATA_RT_ABI
#undef STRATA_RT_ARG
    {"memrefCopy", (void *)memrefCopy},
    {"_mlir_memref_to_llvm_alloc", (void *)_mlir_memref_to_llvm_alloc},
    {"_mlir_memref_to_llvm_free", (void *)_mlir_memref_to_llvm_free},
    {"__truncdfhf2", (void *)__truncdfhf2},
    {"__truncsfhf2", (void *)__truncsfhf2},
};

const StrataRtSymbol *strataRtSymbols(size_t *n) {
  *n = sizeof kSymbols / sizeof kSymbols[0];
  return kSymbols;
}

void *strataRtSymbolLookup(const char *name) {
  for (size_t i = 0; i < sizeof kSymbols / sizeof kSymbols[0]; i++)
    if (!strcmp(kSymbols[i].name, name)) return kSymbols[i].addr;
  return NULL;
}
