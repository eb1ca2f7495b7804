/* A C program running a model compiled ahead of time by strata-translate,
 * with no Strata compiler at run time: only the object, its header and
 * libstrata_rt. Build (see docs/embedding.md):
 *
 *   strata-translate model.onnx -o model.o --header model.h --name net
 *   cc -O2 -DMODEL_HEADER='"model.h"' -DENTRY=net_main run_model.c model.o \
 *      libstrata_rt.a -lm -lpthread -o run_model
 *
 * Inputs are seeded pseudo-random values in [-1, 1) (f32 inputs only).
 *   run_model [--repeat N] [--threads T] [--save DIR]
 * --repeat prints "median X ms" over N runs after a warm-up; --save writes
 * DIR/in<i>.npy and DIR/out<i>.npy. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include MODEL_HEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define E(suffix) CAT(ENTRY, suffix)

static int64_t elements(const int64_t *shape, int rank) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= shape[i];
  return n;
}

static int saveNpy(const char *path, const float *data, const int64_t *shape, int rank) {
  char header[256];
  int off = snprintf(header, sizeof header, "{'descr': '<f4', 'fortran_order': False, 'shape': (");
  for (int i = 0; i < rank; i++) off += snprintf(header + off, sizeof header - (size_t)off, "%lld,%s", (long long)shape[i], i + 1 < rank ? " " : "");
  off += snprintf(header + off, sizeof header - (size_t)off, "), }");
  int total = 10 + off + 1, pad = (64 - total % 64) % 64;
  FILE *f = fopen(path, "wb");
  if (!f) return perror(path), 1;
  unsigned short hlen = (unsigned short)(off + pad + 1);
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc(hlen & 0xff, f), fputc(hlen >> 8, f);
  fwrite(header, 1, (size_t)off, f);
  for (int i = 0; i < pad; i++) fputc(' ', f);
  fputc('\n', f);
  fwrite(data, sizeof(float), (size_t)elements(shape, rank), f);
  return fclose(f) != 0;
}

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int repeat = 0, threads = 1;
  const char *save = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--save") && i + 1 < argc) save = argv[++i];
    else return fprintf(stderr, "usage: %s [--repeat N] [--threads T] [--save DIR]\n", argv[0]), 2;
  }
  strataRtSetNumThreads(threads);
  void *in[E(_num_inputs) + 1], *out[E(_num_outputs) + 1];
  unsigned seed = 1;
  for (int i = 0; i < E(_num_inputs); i++) {
    if (E(_input_elem_bytes)[i] != 4) return fprintf(stderr, "input %d is not f32\n", i), 1;
    int64_t n = elements(E(_input_shapes)[i], E(_input_ranks)[i]);
    float *p = malloc(sizeof(float) * (size_t)(n ? n : 1));
    if (!p) return 1;
    for (int64_t k = 0; k < n; k++) {
      seed = seed * 1103515245u + 12345u;
      p[k] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
    in[i] = p;
  }
  for (int i = 0; i < E(_num_outputs); i++) {
    int64_t n = elements(E(_output_shapes)[i], E(_output_ranks)[i]);
    out[i] = calloc((size_t)(n ? n : 1), (size_t)E(_output_elem_bytes)[i]);
    if (!out[i]) return 1;
  }
  if (E(_run)(in, out) != 0) /* a runtime error: bad data or out of memory */
    return fprintf(stderr, "error: %s\n", strataRtLastError()), 1;
  if (repeat > 0) {
    double *t = malloc(sizeof(double) * (size_t)repeat);
    if (!t) return 1;
    for (int r = 0; r < repeat; r++) {
      double a = nowMs();
      if (E(_run)(in, out) != 0) return fprintf(stderr, "error: %s\n", strataRtLastError()), 1;
      t[r] = nowMs() - a;
    }
    qsort(t, (size_t)repeat, sizeof *t, cmp);
    printf("median %.4f ms (%d runs)\n", t[repeat / 2], repeat);
    free(t);
  }
  int rc = 0;
  char path[4096];
  for (int i = 0; save && i < E(_num_inputs); i++) {
    snprintf(path, sizeof path, "%s/in%d.npy", save, i);
    rc |= saveNpy(path, in[i], E(_input_shapes)[i], E(_input_ranks)[i]);
  }
  for (int i = 0; save && i < E(_num_outputs); i++) {
    if (E(_output_elem_bytes)[i] != 4) continue;
    snprintf(path, sizeof path, "%s/out%d.npy", save, i);
    rc |= saveNpy(path, out[i], E(_output_shapes)[i], E(_output_ranks)[i]);
  }
  for (int i = 0; i < E(_num_inputs); i++) free(in[i]);
  for (int i = 0; i < E(_num_outputs); i++) free(out[i]);
  return rc;
}
