/* Op-building helpers: one readable call creates an op with operands,
 * results, attributes and regions, instead of an MlirOperationState dance.
 *
 *   MlirOperation add = strataCreateOp(b, "arith.addf", loc,
 *       .operands = STRATA_VALUES(x, y), .results = STRATA_TYPES(f32));
 *   MlirOperation gen = strataCreateOp(b, "linalg.generic", loc,
 *       .operands = STRATA_VALUES(in, init), .results = STRATA_TYPES(t),
 *       .attrs = STRATA_ATTRS({"indexing_maps", maps}, {"iterator_types", its}),
 *       .numRegions = 1);
 *
 * A builder has an insertion point; when it wraps a pattern rewriter, ops are
 * created through the rewriter so the rewrite driver sees them.
 */
#ifndef STRATA_BUILDER_H
#define STRATA_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { const MlirValue *data; intptr_t count; } StrataValueList;
typedef struct { const MlirType *data; intptr_t count; } StrataTypeList;
typedef struct { const char *name; MlirAttribute attr; } StrataNamedAttr;
typedef struct { const StrataNamedAttr *data; intptr_t count; } StrataAttrList;

#define STRATA_VALUES(...)                                                         \
  ((StrataValueList){(const MlirValue[]){__VA_ARGS__},                             \
                     sizeof((MlirValue[]){__VA_ARGS__}) / sizeof(MlirValue)})
#define STRATA_TYPES(...)                                                          \
  ((StrataTypeList){(const MlirType[]){__VA_ARGS__},                               \
                    sizeof((MlirType[]){__VA_ARGS__}) / sizeof(MlirType)})
#define STRATA_ATTRS(...)                                                          \
  ((StrataAttrList){(const StrataNamedAttr[]){__VA_ARGS__},                        \
                    sizeof((StrataNamedAttr[]){__VA_ARGS__}) / sizeof(StrataNamedAttr)})

typedef struct {
  StrataValueList operands;
  StrataTypeList results;
  StrataAttrList attrs;
  intptr_t numRegions; /* each region gets no blocks; see strataAddBlock */
} StrataOpSpec;

typedef struct {
  MlirContext ctx;
  MlirRewriterBase rewriter; /* null: insert directly into `block` */
  MlirBlock block;           /* insertion block (null: ops are left detached) */
  MlirOperation before;      /* insert before this op; null: at end of block */
} StrataBuilder;

/* A builder inserting before `op` (or, with a non-null rewriter, through it). */
StrataBuilder strataBuilderBefore(MlirOperation op, MlirRewriterBase rewriter);
/* A builder appending to the end of `block`. */
StrataBuilder strataBuilderAtEnd(MlirContext ctx, MlirBlock block);

MlirOperation strataBuildOp(StrataBuilder *b, const char *name, MlirLocation loc,
                            StrataOpSpec spec);
#define strataCreateOp(b, name, loc, ...)                                          \
  strataBuildOp((b), (name), (loc), (StrataOpSpec){__VA_ARGS__})

/* Inserts a detached `op` (e.g. a mlirOperationClone) at b's insertion
 * point, through its rewriter when it has one. */
void strataBuilderInsert(StrataBuilder *b, MlirOperation op);

/* Appends a block with the given argument types to region `i` of `op`. */
MlirBlock strataAddBlock(MlirOperation op, intptr_t region, StrataTypeList argTypes,
                         MlirLocation loc);

/* ---- Small conveniences used by every lowering ---- */
MlirValue strataResult(MlirOperation op, intptr_t i);
MlirAttribute strataI64Attr(MlirContext ctx, int64_t v);
MlirAttribute strataStrAttr(MlirContext ctx, const char *s);
MlirType strataF32(MlirContext ctx);
MlirType strataIndexType(MlirContext ctx);
/* arith.constant of a float/int/index scalar type. */
MlirValue strataConstFloat(StrataBuilder *b, MlirLocation loc, MlirType t, double v);
MlirValue strataConstInt(StrataBuilder *b, MlirLocation loc, MlirType t, int64_t v);
/* Declares libstrata_rt entry point `name` (`func.func private @name` with
 * `llvm.emit_c_interface`) at the top of `module`, unless a symbol of that
 * name exists. Its type comes from the runtime's ABI table
 * (runtime/kernel_abi.def), from which the C prototypes are declared too,
 * so calls and kernels cannot disagree. Fails (located error) if `name` is
 * not in the table. */
MlirLogicalResult strataDeclareRuntimeFunc(MlirOperation module, const char *name);
/* True if `module`'s body has an op with `sym_name` = name. */
bool strataModuleHasSymbol(MlirOperation module, const char *name);
/* `v` as a value of integer (or index) type `intType`, without C's undefined
 * double -> int conversion: NaN is 0, values beyond the type's range
 * saturate (an unsigned 64-bit maximum is all ones). */
int64_t strataIntFromDouble(MlirType intType, double v);
/* A FloatAttr or IntegerAttr (through strataIntFromDouble) of `v`. */
MlirAttribute strataNumberAttr(MlirType elementType, double v);
/* A memref<*x elem> of the module-level memref.global `sym` whose initial
 * value is the 1-D dense attribute `init` (of tensor<N x elem>), created
 * at the top of `module` on first use (a second use of `sym` reuses it):
 * private and constant when `constant`, public and writable otherwise. */
MlirValue strataGlobalUnrankedRef(StrataBuilder *b, MlirOperation module, MlirLocation loc, const char *sym,
                                  MlirAttribute init, bool constant);
/* A memref<*xi8> of `text` (no terminator), held in a private constant
 * memref.global `sym` at the top of `module` (created on first use; a
 * second use of `sym` must name the same text). How text reaches
 * libstrata_rt: op names for the instrumentation sinks, error sites. */
MlirValue strataConstStringRef(StrataBuilder *b, MlirOperation module, MlirLocation loc,
                               const char *sym, const char *text);
/* ---- Run-time checks (core/runtime_checks.c) ---- */
/* The runtime entry that reports a shape error (runtime/status.c lists
 * the kinds) and stops the call. */
#define STRATA_SHAPE_ERROR_FN "strata_rt_shape_error"
/* The error site of `op` for runtime entry `fn` (its location, a tab, the
 * op's name: a memref<*xi8> of a private global), built at `b`, and `fn`
 * declared in the module. False (located error) outside a builtin.module. */
bool strataRuntimeSite(StrataBuilder *b, MlirOperation op, const char *fn, MlirValue *site);
/* An scf.if at `b` that reports error `kind` with `site` when i1 `bad`
 * holds at run time; got and want are index values. */
void strataShapeCheckAt(StrataBuilder *b, MlirLocation loc, MlirValue site, MlirValue bad, int kind, int operand,
                        int dim, MlirValue got, MlirValue want);

/* bufferization.to_buffer (read-only, any strided layout) of ranked tensor
 * `t`, cast to an unranked memref of its element type: how tensors cross a
 * call into libstrata_rt. */
MlirValue strataTensorToUnrankedMemRef(StrataBuilder *b, MlirLocation loc, MlirValue t);
/* The same through a memref.transpose: a strided view whose dim i is dim
 * perm[i] of `t` (nn.transpose's perm), read in place (NULL perm: none). */
MlirValue strataTensorToUnrankedMemRefPermuted(StrataBuilder *b, MlirLocation loc, MlirValue t,
                                               const int64_t *perm);
/* Parses an attribute from text ("affine_map<(d0) -> (d0)>"); null on error. */
MlirAttribute strataParseAttr(MlirContext ctx, const char *text);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_BUILDER_H */
