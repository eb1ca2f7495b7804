/* The kernel ABI table's vocabulary (see kernel_abi.def): for each argument
 * kind, its C type in the `_mlir_ciface_` prototype and its MLIR type in
 * the func.func declaration compiled code calls. Plain preprocessor; read
 * by kernels.h (the C prototypes) and by the passes that emit the calls
 * (conversions/nn-to-kernels, conversions/instr-to-runtime). */
#ifndef STRATA_RUNTIME_KERNEL_ABI_H
#define STRATA_RUNTIME_KERNEL_ABI_H

/* C parameter types. */
#define STRATA_RT_C_MEMREF_F32 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_F32_ANY StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_F32_ROWS StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_F32_PLANES StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_I8 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_F64 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_F16 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_I64 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_I32 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_I16 StrataUnrankedMemRef *
#define STRATA_RT_C_MEMREF_I1 StrataUnrankedMemRef *
#define STRATA_RT_C_I64 int64_t
#define STRATA_RT_C_F32 float
#define STRATA_RT_C_VOID void
#define STRATA_RT_C_MEMREF_I8_1D StrataMemRefDesc *
#define STRATA_RT_C_RESULT_MEMREF_I8_1D StrataMemRefDesc *
#define STRATA_RT_C_CHUNK_FN StrataRtChunkFn

/* MLIR argument types, each with its leading separator ("" for VOID and
 * for a result), and MLIR result types (a RESULT_ kind is the function's
 * result in MLIR and its first, out, parameter in C). */
#define STRATA_RT_MLIR_MEMREF_F32 ", memref<*xf32>"
#define STRATA_RT_MLIR_MEMREF_F32_ANY ", memref<*xf32>"
#define STRATA_RT_MLIR_MEMREF_F32_ROWS ", memref<*xf32>"
#define STRATA_RT_MLIR_MEMREF_F32_PLANES ", memref<*xf32>"
#define STRATA_RT_MLIR_MEMREF_I8 ", memref<*xi8>"
#define STRATA_RT_MLIR_MEMREF_F64 ", memref<*xf64>"
#define STRATA_RT_MLIR_MEMREF_F16 ", memref<*xf16>"
#define STRATA_RT_MLIR_MEMREF_I64 ", memref<*xi64>"
#define STRATA_RT_MLIR_MEMREF_I32 ", memref<*xi32>"
#define STRATA_RT_MLIR_MEMREF_I16 ", memref<*xi16>"
#define STRATA_RT_MLIR_MEMREF_I1 ", memref<*xi1>"
#define STRATA_RT_MLIR_I64 ", i64"
#define STRATA_RT_MLIR_F32 ", f32"
#define STRATA_RT_MLIR_VOID ""
#define STRATA_RT_MLIR_MEMREF_I8_1D ", memref<?xi8>"
#define STRATA_RT_MLIR_RESULT_MEMREF_I8_1D ""
#define STRATA_RT_MLIR_CHUNK_FN \
  ", (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index) -> ()"
#define STRATA_RT_MLIR_RES_MEMREF_F32 ""
#define STRATA_RT_MLIR_RES_MEMREF_F32_ANY ""
#define STRATA_RT_MLIR_RES_MEMREF_F32_ROWS ""
#define STRATA_RT_MLIR_RES_MEMREF_F32_PLANES ""
#define STRATA_RT_MLIR_RES_MEMREF_I8 ""
#define STRATA_RT_MLIR_RES_MEMREF_F64 ""
#define STRATA_RT_MLIR_RES_MEMREF_F16 ""
#define STRATA_RT_MLIR_RES_MEMREF_I64 ""
#define STRATA_RT_MLIR_RES_MEMREF_I32 ""
#define STRATA_RT_MLIR_RES_MEMREF_I16 ""
#define STRATA_RT_MLIR_RES_MEMREF_I1 ""
#define STRATA_RT_MLIR_RES_I64 ""
#define STRATA_RT_MLIR_RES_F32 ""
#define STRATA_RT_MLIR_RES_VOID ""
#define STRATA_RT_MLIR_RES_MEMREF_I8_1D ""
#define STRATA_RT_MLIR_RES_RESULT_MEMREF_I8_1D ", memref<?xi8>"
#define STRATA_RT_MLIR_RES_CHUNK_FN ""

/* The layout each memref argument accepts, one letter per MLIR operand
 * ("" for VOID and RESULT_ kinds, '-' for scalars and functions):
 * 'd' dense (any MEMREF_<type> kind: the elements contiguous in row-major
 * order, at the descriptor's offset; strides of size-1 dims are never
 * read), 'a' any strides (MEMREF_F32_ANY), 'r' rows: the last dim dense,
 * the others any (MEMREF_F32_ROWS), 'p' planes: every dim after the first
 * two dense, those two any (MEMREF_F32_PLANES: NCHW images and channels).
 * strataRtAbiArgLayout reads them; strata-slice-alias aliases a buffer
 * with a slice of another only where every kernel taking it accepts the
 * slice's layout. */
#define STRATA_RT_LAYOUT_MEMREF_F32 "d"
#define STRATA_RT_LAYOUT_MEMREF_F32_ANY "a"
#define STRATA_RT_LAYOUT_MEMREF_F32_ROWS "r"
#define STRATA_RT_LAYOUT_MEMREF_F32_PLANES "p"
#define STRATA_RT_LAYOUT_MEMREF_I8 "d"
#define STRATA_RT_LAYOUT_MEMREF_F64 "d"
#define STRATA_RT_LAYOUT_MEMREF_F16 "d"
#define STRATA_RT_LAYOUT_MEMREF_I64 "d"
#define STRATA_RT_LAYOUT_MEMREF_I32 "d"
#define STRATA_RT_LAYOUT_MEMREF_I16 "d"
#define STRATA_RT_LAYOUT_MEMREF_I1 "d"
#define STRATA_RT_LAYOUT_I64 "-"
#define STRATA_RT_LAYOUT_F32 "-"
#define STRATA_RT_LAYOUT_VOID ""
#define STRATA_RT_LAYOUT_MEMREF_I8_1D "d"
#define STRATA_RT_LAYOUT_RESULT_MEMREF_I8_1D ""
#define STRATA_RT_LAYOUT_CHUNK_FN "-"

/* STRATA_RT_ARG for C prototypes: ", <type> <name>"; STRATA_RT_PARAMS drops
 * the first comma of a sequence of them. */
#define STRATA_RT_C_ARG(kind, name) , STRATA_RT_C_##kind name
#define STRATA_RT_PARAMS_(empty, ...) __VA_ARGS__
#define STRATA_RT_PARAMS(...) STRATA_RT_PARAMS_(__VA_ARGS__)
#define STRATA_RT_C_PROTOTYPE(fn, args) void _mlir_ciface_##fn(STRATA_RT_PARAMS(args));

/* STRATA_RT_ARG for MLIR: the argument's type string; an entry's string is
 * the concatenation (skip its first two characters, ", ", when non-empty).
 * STRATA_RT_MLIR_RES: the same for its results. */
#define STRATA_RT_MLIR_ARG(kind, name) STRATA_RT_MLIR_##kind
#define STRATA_RT_MLIR_RES(kind, name) STRATA_RT_MLIR_RES_##kind

#endif /* STRATA_RUNTIME_KERNEL_ABI_H */

/* With STRATA_RT_ABI_LAYOUTS defined before the first include:
 * strataRtAbiArgLayout(symbol, operand), the layout letter (above) of
 * MLIR operand `operand` of a table entry's call; 0 if `symbol` is not in
 * the table or has no such operand. */
#if defined(STRATA_RT_ABI_LAYOUTS) && !defined(STRATA_RUNTIME_KERNEL_ABI_LAYOUTS)
#define STRATA_RUNTIME_KERNEL_ABI_LAYOUTS
#include <stddef.h>
#include <string.h>
#define STRATA_RT_ARG(kind, name) STRATA_RT_LAYOUT_##kind
#define STRATA_RT_ABI(fn, args) {#fn, "" args},
static const struct {
  const char *name, *layouts;
} strataRtAbiLayouts[] = {
#include "kernel_abi.def"
};
#undef STRATA_RT_ARG
#undef STRATA_RT_ABI

static inline char strataRtAbiArgLayout(const char *symbol, size_t operand) {
  for (size_t i = 0; i < sizeof strataRtAbiLayouts / sizeof strataRtAbiLayouts[0]; i++)
    if (!strcmp(strataRtAbiLayouts[i].name, symbol))
      return operand < strlen(strataRtAbiLayouts[i].layouts) ? strataRtAbiLayouts[i].layouts[operand] : 0;
  return 0;
}
#endif

/* With STRATA_RT_ABI_MLIR_TYPES defined before the first include:
 * strataRtAbiMlirType(symbol, buf, size), the MLIR function
 * type of a table entry as text ("(memref<*xf32>, i64) -> ()") in buf;
 * NULL if `symbol` is not in the table or buf is too small. For the
 * passes that declare the runtime functions they call. */
#if defined(STRATA_RT_ABI_MLIR_TYPES) && !defined(STRATA_RUNTIME_KERNEL_ABI_MLIR_TYPES)
#define STRATA_RUNTIME_KERNEL_ABI_MLIR_TYPES
#include <stddef.h>
#include <string.h>
#define STRATA_RT_ARG STRATA_RT_MLIR_ARG
#define STRATA_RT_ABI(fn, args) {#fn, args},
static const struct {
  const char *name, *types;
} strataRtAbiMlirArgs[] = {
#include "kernel_abi.def"
};
#undef STRATA_RT_ARG
#define STRATA_RT_ARG STRATA_RT_MLIR_RES
static const char *const strataRtAbiMlirResults[] = {
#undef STRATA_RT_ABI
#define STRATA_RT_ABI(fn, args) args,
#include "kernel_abi.def"
};
#undef STRATA_RT_ARG
#undef STRATA_RT_ABI

static inline const char *strataRtAbiMlirType(const char *symbol, char *buf, size_t size) {
  for (size_t i = 0; i < sizeof strataRtAbiMlirArgs / sizeof strataRtAbiMlirArgs[0]; i++) {
    if (strcmp(strataRtAbiMlirArgs[i].name, symbol)) continue;
    const char *a = strataRtAbiMlirArgs[i].types, *r = strataRtAbiMlirResults[i];
    a += *a ? 2 : 0;
    r += *r ? 2 : 0;
    if (strlen(a) + strlen(r) + sizeof "() -> ()" > size) return NULL;
    strcpy(buf, "(");
    strcat(buf, a);
    strcat(buf, ") -> (");
    strcat(buf, r);
    strcat(buf, ")");
    return buf;
  }
  return NULL;
}
#endif
