/* NumPy .npy reading and writing (format versions 1.0 and 2.0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "outfile.h"
#include "strata/support.h"
#include "strata/tensor.h"

static const struct { const char *descr; StrataDType dtype; } kDescrs[] = {
    {"<f4", STRATA_DTYPE_F32}, {"<f8", STRATA_DTYPE_F64}, {"<f2", STRATA_DTYPE_F16},
    {"|b1", STRATA_DTYPE_I1},  {"|i1", STRATA_DTYPE_I8},  {"|u1", STRATA_DTYPE_U8},
    {"<i2", STRATA_DTYPE_I16}, {"<i4", STRATA_DTYPE_I32}, {"<i8", STRATA_DTYPE_I64},
    {"<u2", STRATA_DTYPE_U16}, {"<u4", STRATA_DTYPE_U32}, {"<u8", STRATA_DTYPE_U64},
};

#define FAIL(...) do { snprintf(err, errSize, __VA_ARGS__); goto fail; } while (0)

/* Finds the value text after 'key': in the header dict. */
static const char *dictValue(const char *header, const char *key) {
  const char *k = strstr(header, key);
  if (!k) return NULL;
  k = strchr(k + strlen(key), ':');
  if (!k) return NULL;
  k++;
  while (*k == ' ') k++;
  return k;
}

StrataTensor *strataNpyRead(const char *path, char *err, size_t errSize) {
  StrataTensor *t = NULL;
  char *header = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) FAIL("%s: cannot open", path);
  unsigned char pre[10];
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0)
    FAIL("%s: not a .npy file (bad magic)", path);
  size_t hlen;
  if (pre[6] == 1) hlen = pre[8] | (size_t)pre[9] << 8;
  else if (pre[6] == 2 || pre[6] == 3) {
    unsigned char more[2];
    if (fread(more, 1, 2, f) != 2) FAIL("%s: truncated header", path);
    hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)more[0] << 16 | (size_t)more[1] << 24;
  } else FAIL("%s: unsupported .npy version %d", path, pre[6]);
  if (hlen > (1u << 20)) FAIL("%s: header too large", path);
  header = calloc(1, hlen + 1);
  if (!header || fread(header, 1, hlen, f) != hlen) FAIL("%s: truncated header", path);
  const char *descr = dictValue(header, "'descr'");
  StrataDType dtype = STRATA_DTYPE_INVALID;
  /* A quoted value: descr[1..3] are then inside the header (at worst its
   * NUL), and descr[4] is read only after three characters matched. */
  for (size_t i = 0; descr && *descr == '\'' && i < sizeof kDescrs / sizeof kDescrs[0]; i++)
    if (!strncmp(descr + 1, kDescrs[i].descr, 3) && descr[4] == '\'') dtype = kDescrs[i].dtype;
  if (dtype == STRATA_DTYPE_INVALID) FAIL("%s: unsupported dtype (want f4, f8, f2, b1, i1, u1, i2, i4, i8, u2, u4, u8, little-endian)", path);
  const char *fo = dictValue(header, "'fortran_order'");
  if (!fo || strncmp(fo, "False", 5) != 0) FAIL("%s: Fortran-ordered arrays are not supported", path);
  const char *shape = dictValue(header, "'shape'");
  if (!shape || *shape != '(') FAIL("%s: header has no shape", path);
  int64_t dims[STRATA_MAX_RANK];
  int rank = 0;
  const char *p = shape + 1;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    char *end;
    long long d = strtoll(p, &end, 10);
    if (end == p || d < 0) FAIL("%s: malformed shape", path);
    if (rank == STRATA_MAX_RANK) FAIL("%s: rank above %d", path, STRATA_MAX_RANK);
    dims[rank++] = d;
    p = end;
  }
  /* The header's shape is checked against what the file holds before any
   * allocation: a few bytes must not make the reader ask for gigabytes. */
  int64_t count, bytes;
  if (!strataShapeNumElements(dims, rank, &count) ||
      !strataCheckedMul(count, (int64_t)strataDTypeSize(dtype), &bytes))
    FAIL("%s: shape too large", path);
  struct stat st;
  long at = ftell(f);
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && at >= 0 && st.st_size - at < bytes)
    FAIL("%s: data truncated (expected %lld bytes)", path, (long long)bytes);
  t = strataTensorCreate(dtype, rank, dims);
  if (!t) FAIL("%s: tensor too large", path);
  size_t n = strataTensorNumBytes(t);
  if (fread(t->data, 1, n, f) != n) FAIL("%s: data truncated (expected %zu bytes)", path, n);
  free(header);
  fclose(f);
  return t;
fail:
  strataTensorDestroy(t);
  free(header);
  if (f) fclose(f);
  return NULL;
}

bool strataNpyWrite(const char *path, const StrataTensor *t, char *err, size_t errSize) {
  const char *descr = NULL;
  for (size_t i = 0; i < sizeof kDescrs / sizeof kDescrs[0]; i++)
    if (kDescrs[i].dtype == t->dtype) descr = kDescrs[i].descr;
  if (!descr) {
    snprintf(err, errSize, "%s: cannot write dtype %s", path, strataDTypeName(t->dtype));
    return false;
  }
  char dict[512];
  int off = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < t->rank; i++)
    off += snprintf(dict + off, sizeof dict - (size_t)off, "%lld,%s", (long long)t->dims[i],
                    i + 1 < t->rank ? " " : "");
  off += snprintf(dict + off, sizeof dict - (size_t)off, "), }");
  /* Pad with spaces so that data starts at a multiple of 64 bytes. */
  size_t total = 10 + (size_t)off + 1;
  size_t pad = (64 - total % 64) % 64;
  size_t hlen = (size_t)off + pad + 1;
  StrataRtOutFile out;
  if (strataRtOutFileOpen(&out, path, err, errSize) != 0) return false;
  FILE *f = out.f;
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                           (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
  fwrite(pre, 1, 10, f);
  fwrite(dict, 1, (size_t)off, f);
  for (size_t i = 0; i < pad; i++) fputc(' ', f);
  fputc('\n', f);
  fwrite(t->data, 1, strataTensorNumBytes(t), f);
  /* A failed write leaves the stream's error flag set; commit reports it. */
  return strataRtOutFileCommit(&out, err, errSize) == 0;
}
