/* Output files that are safe to point anywhere.
 *
 *   StrataRtOutFile out;
 *   char err[256];
 *   if (strataRtOutFileOpen(&out, path, err, sizeof err) != 0) { report(err); return; }
 *   fwrite(data, 1, n, out.f);
 *   if (strataRtOutFileCommit(&out, err, sizeof err) != 0) report(err);
 *   // or strataRtOutFileAbort(&out) to drop what was written
 *
 * What `path` names decides how it is written:
 * - a regular file, or nothing yet: atomically. The bytes go to a temporary
 *   file in the same directory, renamed over the target on commit, so a
 *   failed or aborted write leaves no partial file and an existing file
 *   untouched. A new file gets mode 0666 minus the umask; an existing one
 *   keeps its mode (and, where the process may, its owner).
 * - a symbolic link (a chain of them, dangling or not): what it finally
 *   points at, by the rules here; the link itself stays.
 * - anything else that is not a directory (a character or block device such
 *   as /dev/null or /dev/full, a FIFO, a socket): written through, opened as
 *   it is. A device is never replaced by a regular file. Write errors (a
 *   full /dev/full) are reported by commit.
 * - a directory: an error.
 * Used by every tool's -o, the .npy writer, the trace sink and the fusion
 * profile database. Plain C and POSIX, no MLIR: libstrata_rt is the bottom
 * layer, so everything above can use it. */
#ifndef STRATA_RUNTIME_OUTFILE_H
#define STRATA_RUNTIME_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct StrataRtOutFile {
  FILE *f;      /* write the contents here */
  char *target; /* the file written: `path` with its symlinks resolved */
  char *tmp;    /* the temporary renamed over `target` on commit; NULL when written through */
} StrataRtOutFile;

/* Opens `path` for writing. Returns 0, or -1 with a message naming `path`
 * in `err` (and `o` left with nothing to release). */
int strataRtOutFileOpen(StrataRtOutFile *o, const char *path, char *err, size_t errSize);

/* Closes the output and, when writing atomically, renames it into place.
 * Returns 0, or -1 with a message in `err` if any write failed (the
 * temporary file is removed and the target left as it was). Releases `o`
 * either way. */
int strataRtOutFileCommit(StrataRtOutFile *o, char *err, size_t errSize);

/* Closes the output and removes the temporary file, leaving the target as it
 * was (what was written through to a device or FIFO stays written).
 * Releases `o`. */
void strataRtOutFileAbort(StrataRtOutFile *o);

#endif /* STRATA_RUNTIME_OUTFILE_H */
