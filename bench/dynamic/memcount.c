/* An LD_PRELOAD allocation counter for peers that report no memory figure
 * of their own (ONNX Runtime from npm, bench/dynamic/ort_memory.js): it
 * counts the bytes held through malloc and friends (by their usable size)
 * and the most held at once. The process marks a measurement by opening
 * two paths that do not exist: opening MARK "reset" starts a measurement
 * (the peak becomes the bytes held now), opening MARK "report" writes
 * "memcount: <peak minus the bytes held at the reset> <held now minus
 * them>" to stderr. Both opens then fail with ENOENT as they would.
 * Built by dyn_memory.py: cc -O2 -shared -fPIC memcount.c -o memcount.so */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MARK "/nonexistent/strata-memcount/"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static long held, peak, base;

static void *note(void *p) {
  if (p) {
    long h = __atomic_add_fetch(&held, (long)malloc_usable_size(p), __ATOMIC_RELAXED);
    long k = __atomic_load_n(&peak, __ATOMIC_RELAXED);
    while (h > k && !__atomic_compare_exchange_n(&peak, &k, h, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
  }
  return p;
}

static void forget(void *p) {
  if (p) __atomic_sub_fetch(&held, (long)malloc_usable_size(p), __ATOMIC_RELAXED);
}

void *malloc(size_t n) { return note(__libc_malloc(n)); }
void *calloc(size_t a, size_t b) { return note(__libc_calloc(a, b)); }
void free(void *p) {
  forget(p);
  __libc_free(p);
}
void *realloc(void *p, size_t n) {
  forget(p);
  void *q = __libc_realloc(p, n);
  if (!q && n) note(p); /* the old block stays */
  return note(q);
}
void *memalign(size_t a, size_t n) { return note(__libc_memalign(a, n)); }
void *aligned_alloc(size_t a, size_t n) { return note(__libc_memalign(a, n)); }
void *valloc(size_t n) { return note(__libc_memalign((size_t)sysconf(_SC_PAGESIZE), n)); }
int posix_memalign(void **out, size_t a, size_t n) {
  void *p = __libc_memalign(a, n);
  if (!p) return ENOMEM;
  *out = note(p);
  return 0;
}

static int marked(const char *path) {
  if (strncmp(path, MARK, sizeof MARK - 1) != 0) return 0;
  const char *what = path + sizeof MARK - 1;
  if (!strcmp(what, "reset")) {
    base = __atomic_load_n(&held, __ATOMIC_RELAXED);
    __atomic_store_n(&peak, base, __ATOMIC_RELAXED);
  } else if (!strcmp(what, "report")) {
    char line[96];
    int n = snprintf(line, sizeof line, "memcount: %ld %ld\n", __atomic_load_n(&peak, __ATOMIC_RELAXED) - base,
                     __atomic_load_n(&held, __ATOMIC_RELAXED) - base);
    if (write(2, line, (size_t)n) < 0) return 1;
  }
  return 1;
}

static int realOpen(const char *path, int flags, mode_t mode) {
  return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  if (marked(path)) return errno = ENOENT, -1;
  return realOpen(path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
