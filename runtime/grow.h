/* One growth helper for Strata's dynamic arrays (plain C; every layer links
 * the runtime and has runtime/ on its include path). */
#ifndef STRATA_RUNTIME_GROW_H
#define STRATA_RUNTIME_GROW_H

#include <stddef.h>

/* Grows an array so it holds at least `need` elements of `size` bytes: the
 * capacity *cap doubles (from 8, or from *cap) until it is enough, and the
 * array is reallocated. Returns the array (maybe moved) and updates *cap;
 * NULL on overflow or out of memory, with `items` and *cap unchanged (the
 * caller still owns `items`). need <= *cap returns items as is. */
void *strataGrow(void *items, size_t *cap, size_t need, size_t size);

#endif
