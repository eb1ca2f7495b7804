/* The device runtimes' (opencl.c, vulkan.c) way to fail: the message goes
 * into the caller's buffer, and the call returns false. */
#ifndef STRATA_RUNTIME_ERRBUF_H
#define STRATA_RUNTIME_ERRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static inline bool rtFailf(char *err, size_t errSize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline bool rtFailf(char *err, size_t errSize, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errSize, fmt, ap);
  va_end(ap);
  return false;
}

#endif /* STRATA_RUNTIME_ERRBUF_H */
