/* libFuzzer target: bytes -> the .npy reader. strataNpyRead only takes a
 * path, so each input goes into an in-memory file (memfd) read back through
 * /proc/self/fd: no disk I/O and nothing left behind after a crash. */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz_common.h"

static int gFd = -1;
static char gPath[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  gFd = memfd_create("strata-fuzz-npy", 0);
  if (gFd < 0) {
    perror("fuzz: memfd_create");
    abort();
  }
  snprintf(gPath, sizeof gPath, "/proc/self/fd/%d", gFd);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (ftruncate(gFd, 0) != 0) abort();
  for (size_t off = 0; off < size;) {
    ssize_t n = pwrite(gFd, data + off, size - off, (off_t)off);
    if (n <= 0) abort();
    off += (size_t)n;
  }
  char err[256];
  StrataTensor *t = strataNpyRead(gPath, err, sizeof err);
  if (t) {
    /* Touch every element so a tensor shorter than it claims shows up. */
    volatile double sum = 0;
    int64_t n = strataTensorNumElements(t);
    for (int64_t i = 0; i < n; i++) sum += strataTensorGetDouble(t, i);
    (void)sum;
  }
  strataTensorDestroy(t);
  return 0;
}
