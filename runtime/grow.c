/* strataGrow (grow.h): amortized O(1) growth by doubling, overflow-checked. */
#include "grow.h"
#include <stdint.h>
#include <stdlib.h>

void *strataGrow(void *items, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return items;
  size_t n = *cap ? *cap : 8;
  while (n < need) {
    if (n > SIZE_MAX / 2) {
      n = need; /* doubling would overflow: take exactly what is needed */
      break;
    }
    n *= 2;
  }
  if (size && n > SIZE_MAX / size) return NULL;
  size_t bytes = n * size;
  void *p = realloc(items, bytes ? bytes : 1);
  if (!p) return NULL;
  *cap = n;
  return p;
}
