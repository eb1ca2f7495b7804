/* A loader of ELF x86-64 relocatable objects (the objects the cpu target
 * compiles, as the model cache stores them) into this process, with no
 * LLVM: the object's allocated sections are mapped into one region (code
 * read+execute, constants and the GOT it builds read-only, data
 * read+write: never writable and executable at once), its undefined
 * symbols resolved by the caller, its relocations applied. Whatever it does
 * not know (another machine, a relocation type or section kind it does not
 * handle, a symbol the caller cannot resolve, an offset out of range,
 * initializers to run) makes the load fail with the reason: the caller
 * then links the object another way. Nothing is run. */
#ifndef STRATA_RT_ELFLOAD_H
#define STRATA_RT_ELFLOAD_H

#include <stddef.h>

typedef struct StrataRtObject StrataRtObject;

/* The address of undefined symbol `name`, or NULL when the caller has none
 * (the load then fails, unless the symbol is weak). */
typedef void *(*StrataRtSymbolResolver)(void *user, const char *name);

/* Loads the object `data` (size bytes, borrowed: nothing points into it
 * afterwards). NULL with the reason in `why` when it cannot. Free the result
 * with strataRtObjectUnload. */
StrataRtObject *strataRtObjectLoad(const void *data, size_t size, StrataRtSymbolResolver resolve, void *user,
                                   char *why, size_t whySize);

/* The address of the object's defined global symbol `name`, or NULL. */
void *strataRtObjectSymbol(const StrataRtObject *o, const char *name);

/* Unmaps the object's code and data. NULL is ignored. */
void strataRtObjectUnload(StrataRtObject *o);

#endif /* STRATA_RT_ELFLOAD_H */
