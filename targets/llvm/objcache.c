/* The compile cache of the cpu target: the object code of a lowered module
 * whose weights strataParamsExtract took out, in DIR/<key>.o, keyed by the
 * module's text (which has no large weights left, and names every option
 * that shaped the code), the LLVM level, the host CPU and its features,
 * the LLVM version and this build of Strata (its ELF build ID, which
 * changes with any change to the compiler). A file is written to a name of its own
 * and renamed into place, so concurrent runs never see half a file; it
 * starts with a header holding its size and a checksum, and a file that
 * does not match is a miss (it is compiled and written again). Plain C
 * (cachefile.h): the key's LLVM and MLIR parts are cachekey.c's. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cachefile.h"
#include "outfile.h"

static const char kMagic[16] = "STRATA-OBJECT-2";

/* Two 64-bit FNV-1a streams with different offsets: a 128-bit key. */
typedef StrataCacheHash Hash;

void strataCacheHashBytes(StrataCacheHash *h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h->a = (h->a ^ p[i]) * 0x100000001b3ULL;
    h->b = (h->b ^ p[i]) * 0x100000001b3ULL;
    h->b ^= h->b >> 29;
  }
}

static Hash hashInit(void) { return (Hash){0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL}; }

StrataCacheHash strataCacheHashInit(void) { return hashInit(); }

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Megabytes of weights: eight independent 64-bit lanes (as many as the
 * multiplier's latency needs to stay busy), each step a bijection of the
 * lane (xor, rotate, odd multiply), so any one changed word changes the
 * result; folded into the FNV streams with the length. */
void strataCacheHashBlock(StrataCacheHash *h, const void *data, size_t n) {
  const unsigned char *p = data;
  uint64_t lane[8];
  for (int k = 0; k < 8; k++) lane[k] = 0x9e3779b97f4a7c15ULL * (uint64_t)(2 * k + 1);
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int k = 0; k < 8; k++) {
      uint64_t w;
      memcpy(&w, p + i + 8 * k, 8);
      lane[k] = rotl(lane[k] ^ w, 29) * 0x9e3779b97f4a7c15ULL;
    }
  uint64_t len = n;
  strataCacheHashBytes(h, lane, sizeof lane);
  strataCacheHashBytes(h, &len, sizeof len);
  strataCacheHashBytes(h, p + i, n - i);
}

void strataCacheHashHex(const StrataCacheHash *h, char key[33]) {
  snprintf(key, 33, "%016llx%016llx", (unsigned long long)h->a, (unsigned long long)h->b);
}

uint64_t strataCacheChecksum(const void *data, size_t n) {
  Hash h = hashInit();
  strataCacheHashBlock(&h, data, n);
  return h.a ^ h.b;
}

/* DIR/<key>.o; false when it does not fit (never a truncated path). */
static bool pathOf(char *buf, size_t size, const char *dir, const char *key) {
  int n = snprintf(buf, size, "%s/%s.o", dir, key);
  return n > 0 && (size_t)n < size;
}

char *strataObjCacheRead(const char *dir, const char *key, size_t *size) {
  char path[4096];
  FILE *f = pathOf(path, sizeof path, dir, key) ? fopen(path, "rb") : NULL;
  if (!f) return NULL;
  char magic[16];
  uint64_t n = 0, sum = 0;
  char *data = NULL;
  if (fread(magic, 1, 16, f) == 16 && !memcmp(magic, kMagic, 16) && fread(&n, sizeof n, 1, f) == 1 &&
      fread(&sum, sizeof sum, 1, f) == 1 && n > 0 && n < ((uint64_t)1 << 34) && (data = malloc((size_t)n)) &&
      fread(data, 1, (size_t)n, f) == n && fgetc(f) == EOF && strataCacheChecksum(data, (size_t)n) == sum) {
    fclose(f);
    *size = (size_t)n;
    return data;
  }
  free(data);
  fclose(f);
  return NULL;
}

/* mkdir -p, for the directories a cache path needs. */
int strataCacheMakeDirs(const char *dir) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) return ENAMETOOLONG;
  for (char *p = buf + 1;; p++) {
    if (*p != '/' && *p) continue;
    char c = *p;
    *p = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return errno;
    if (!c) return 0;
    *p = c;
  }
}

bool strataObjCacheWrite(const char *dir, const char *key, const char *data, size_t size, char *why, size_t whySize) {
  char path[4096];
  if (!pathOf(path, sizeof path, dir, key)) {
    snprintf(why, whySize, "%s", strerror(ENAMETOOLONG));
    return false;
  }
  int err = strataCacheMakeDirs(dir);
  if (err) {
    snprintf(why, whySize, "%s", strerror(err));
    return false;
  }
  StrataRtOutFile out;
  if (strataRtOutFileOpen(&out, path, why, whySize) != 0) return false;
  uint64_t n = size, sum = strataCacheChecksum(data, size);
  if (fwrite(kMagic, 1, 16, out.f) == 16 && fwrite(&n, sizeof n, 1, out.f) == 1 &&
      fwrite(&sum, sizeof sum, 1, out.f) == 1 && fwrite(data, 1, size, out.f) == size)
    return strataRtOutFileCommit(&out, why, whySize) == 0;
  snprintf(why, whySize, "%s", strerror(errno ? errno : EIO));
  strataRtOutFileAbort(&out);
  return false;
}
