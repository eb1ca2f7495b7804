/* The runtime's symbols that compiled code calls, by name: what the JIT
 * (targets/llvm/jit.c) and the object loader's users (elfload.h) bind an
 * object's undefined symbols to, explicitly (the library may be loaded
 * where its symbols are not global, as under Python's ctypes). */
#ifndef STRATA_RT_SYMBOLS_H
#define STRATA_RT_SYMBOLS_H

#include <stddef.h>

typedef struct {
  const char *name;
  void *addr;
} StrataRtSymbol;

/* The table: every entry of the kernel ABI (kernel_abi.def), memrefCopy,
 * the allocation entry points and the compiler runtime's f16 conversions.
 * *n gets its length. */
const StrataRtSymbol *strataRtSymbols(size_t *n);

/* The address of `name` in that table, or NULL. */
void *strataRtSymbolLookup(const char *name);

#endif /* STRATA_RT_SYMBOLS_H */
