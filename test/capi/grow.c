/* strataGrow (runtime/grow.h), the one growth helper for Strata's dynamic
 * arrays: growth from empty by doubling, need <= cap, a large need, and
 * overflow (NULL, with the array and the capacity unchanged).
 * RUN: %capi/grow 2>&1 | FileCheck %s
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "grow.h"

int main(void) {
  int *a = NULL;
  size_t cap = 0;
  a = strataGrow(a, &cap, 1, sizeof *a);
  // CHECK: from empty: ok cap 8
  printf("from empty: %s cap %zu\n", a ? "ok" : "null", cap);
  for (int i = 0; i < 8; i++) a[i] = i;

  int *same = strataGrow(a, &cap, 8, sizeof *a);
  // CHECK: need <= cap: same cap 8
  printf("need <= cap: %s cap %zu\n", same == a ? "same" : "moved", cap);

  a = strataGrow(a, &cap, 9, sizeof *a);
  // CHECK: doubling: cap 16 kept 0..7: yes
  int kept = 1;
  for (int i = 0; i < 8; i++) kept &= a[i] == i;
  printf("doubling: cap %zu kept 0..7: %s\n", cap, kept ? "yes" : "no");

  a = strataGrow(a, &cap, 1000, sizeof *a);
  a[999] = 7;
  // CHECK: large need: cap 1024 kept 0..7: yes
  kept = 1;
  for (int i = 0; i < 8; i++) kept &= a[i] == i;
  printf("large need: cap %zu kept 0..7: %s\n", cap, kept ? "yes" : "no");

  size_t capOne = 5;
  char *s = strataGrow(NULL, &capOne, 6, 1);
  // CHECK: from a given capacity: cap 10
  printf("from a given capacity: cap %zu\n", capOne);
  free(s);

  int *over = strataGrow(a, &cap, SIZE_MAX - 1, sizeof *a);
  // CHECK: overflow: null cap 1024 array intact: yes
  kept = a[999] == 7;
  for (int i = 0; i < 8; i++) kept &= a[i] == i;
  printf("overflow: %s cap %zu array intact: %s\n", over ? "ptr" : "null", cap, kept ? "yes" : "no");

  over = strataGrow(a, &cap, SIZE_MAX / sizeof *a + 1, sizeof *a);
  // CHECK: overflow of need * size: null cap 1024
  printf("overflow of need * size: %s cap %zu\n", over ? "ptr" : "null", cap);

  size_t capBig = SIZE_MAX / 2 + 2; /* doubling it would wrap around */
  over = strataGrow(a, &capBig, capBig + 1, 2);
  // CHECK: overflow of doubling: null cap ok
  printf("overflow of doubling: %s cap %s\n", over ? "ptr" : "null", capBig == SIZE_MAX / 2 + 2 ? "ok" : "changed");
  free(a);
  return 0;
}
