/* Output files: atomic for regular files, written through for devices and
 * FIFOs, symlinks followed (see outfile.h for why each). */
#include "outfile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINK_HOPS = 40 }; /* as the kernel's own limit (ELOOP) */

static void release(StrataRtOutFile *o) {
  free(o->target);
  free(o->tmp);
  o->f = NULL;
  o->target = o->tmp = NULL;
}

static int fail(char *err, size_t errSize, const char *path, int errnum) {
  snprintf(err, errSize, "cannot write '%s': %s", path, strerror(errnum));
  return -1;
}

/* `path` with every symlink in its last component followed, however many
 * there are and whether or not the last one points at an existing file
 * (a dangling link names the file to create). NULL with errno set. */
static char *resolveLinks(const char *path) {
  char *p = strdup(path);
  for (int hops = 0; p; hops++) {
    struct stat st;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    char *link = malloc(cap + 1);
    ssize_t n = link ? readlink(p, link, cap) : -1;
    if (n < 0 || hops == MAX_LINK_HOPS) {
      int e = n < 0 ? (link ? errno : ENOMEM) : ELOOP;
      free(link);
      free(p);
      errno = e;
      return NULL;
    }
    link[n] = '\0';
    char *next = link;
    const char *slash = strrchr(p, '/');
    if (link[0] != '/' && slash) { /* relative to the link's directory */
      size_t dirLen = (size_t)(slash - p) + 1;
      next = malloc(dirLen + (size_t)n + 1);
      if (next) memcpy(next, p, dirLen), memcpy(next + dirLen, link, (size_t)n + 1);
      free(link);
    }
    free(p);
    p = next;
  }
  errno = ENOMEM;
  return NULL;
}

/* Creates `tmp` (whose last six characters are replaced) exclusively, with
 * `mode` (the umask applies), trying fresh names while they exist. */
static int createTemp(char *tmp, mode_t mode) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  char *suffix = tmp + strlen(tmp) - 6;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)tmp;
  for (int tries = 0; tries < 100; tries++) {
    for (int i = 0; i < 6; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      suffix[i] = alphabet[(x >> 33) % (sizeof alphabet - 1)];
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

int strataRtOutFileOpen(StrataRtOutFile *o, const char *path, char *err, size_t errSize) {
  memset(o, 0, sizeof *o);
  if (!(o->target = resolveLinks(path))) return fail(err, errSize, path, errno);
  struct stat st;
  bool exists = stat(o->target, &st) == 0;
  int fd;
  if (exists && S_ISDIR(st.st_mode)) {
    release(o);
    return fail(err, errSize, path, EISDIR);
  }
  if (exists && !S_ISREG(st.st_mode)) {
    fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  } else {
    size_t n = strlen(o->target) + sizeof ".tmpXXXXXX";
    if (!(o->tmp = malloc(n))) {
      release(o);
      return fail(err, errSize, path, ENOMEM);
    }
    snprintf(o->tmp, n, "%s.tmpXXXXXX", o->target);
    fd = createTemp(o->tmp, exists ? 0600 : 0666);
    if (fd >= 0 && exists) { /* the replacement keeps the file's mode and owner */
      (void)!fchown(fd, st.st_uid, st.st_gid); /* only root may; others keep their own */
      (void)!fchmod(fd, st.st_mode & 07777);
    }
  }
  if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
    int e = errno;
    if (fd >= 0) close(fd);
    if (fd >= 0 && o->tmp) unlink(o->tmp);
    release(o);
    return fail(err, errSize, path, e);
  }
  return 0;
}

int strataRtOutFileCommit(StrataRtOutFile *o, char *err, size_t errSize) {
  int e = 0;
  if (ferror(o->f)) e = errno ? errno : EIO;
  if (fclose(o->f) != 0 && !e) e = errno;
  if (!e && o->tmp && rename(o->tmp, o->target) != 0) e = errno;
  if (e && o->tmp) unlink(o->tmp);
  if (e) fail(err, errSize, o->target, e);
  release(o);
  return e ? -1 : 0;
}

void strataRtOutFileAbort(StrataRtOutFile *o) {
  if (o->f) fclose(o->f);
  if (o->tmp) unlink(o->tmp);
  release(o);
}
