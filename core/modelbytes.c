/* Model files' bytes and their cache keys, and the default cache directory
 * (include/strata/target.h): plain C, which the launcher strata-run, which
 * loads no MLIR, shares with the library. */
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "grow.h"
#include "strata/target.h"

const char *strataDefaultCacheDir(char *buf, size_t size) {
  const char *own = getenv("STRATA_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n = -1;
  if (own) n = *own ? snprintf(buf, size, "%s", own) : -1;
  else if (xdg && *xdg) n = snprintf(buf, size, "%s/strata", xdg);
  else if (home && *home) n = snprintf(buf, size, "%s/.cache/strata", home);
  return n > 0 && (size_t)n < size ? buf : NULL;
}

bool strataModelCacheKeyOfBytes(StrataKeyOfPartsFn keyOf, void *user, const void *bytes, size_t size, bool mapped,
                                const void *options, size_t optionsSize, char key[33]) {
  enum { kSlice = 8 << 20 };
  char chain[33] = "";
  const char *p = bytes;
  for (size_t at = 0;; at += kSlice) {
    size_t n = size - at < kSlice ? size - at : kSlice;
    bool last = at + n == size;
    const void *parts[3] = {chain, p + at, options};
    size_t sizes[3] = {strlen(chain), n, last ? optionsSize : 0};
    if (!keyOf(user, parts, sizes, 3, chain)) return false;
    /* at is a multiple of the page size: the slice's pages go back */
    if (mapped) madvise((void *)(p + at), n, MADV_DONTNEED);
    if (last) break;
  }
  memcpy(key, chain, sizeof chain);
  return true;
}

char *strataModelBytesRead(const char *path, size_t *size, bool *mapped, char *why, size_t whySize) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  *mapped = false, *size = 0;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(why, whySize, "cannot open '%s' (%s)", path, strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  char *data = NULL;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) data = NULL;
    else *mapped = true, *size = (size_t)st.st_size;
  }
  size_t cap = 1 << 16;
  for (ssize_t got = 1; !*mapped && got > 0;) { /* not mapped: read what it gives */
    if (!data || *size == cap) {
      char *grown = data ? strataGrow(data, &cap, cap + 1, 1) : malloc(cap);
      if (!grown) free(data);
      if (!(data = grown)) break;
    }
    got = read(fd, data + *size, cap - *size);
    if (got < 0) free(data), data = NULL;
    else *size += (size_t)got;
  }
  close(fd);
  if (!data) snprintf(why, whySize, "cannot read '%s'", path);
  return data;
}

void strataModelBytesRelease(char *bytes, size_t size, bool mapped) {
  if (mapped) munmap(bytes, size);
  else free(bytes);
}
