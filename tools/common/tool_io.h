/* I/O shared by Strata's command-line tools. */
#ifndef STRATA_TOOL_IO_H
#define STRATA_TOOL_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "outfile.h"

/* Reads a whole file ("-" = stdin). NULL with a message on stderr on error. */
char *toolReadFile(const char *path, size_t *len);

/* An output file (-o): "-" is stdout; anything else is written as
 * libstrata_rt's outfile.h says (atomically for regular files, through to
 * devices and FIFOs, symlinks followed). Errors go to stderr. */
typedef struct {
  FILE *f;
  StrataRtOutFile file;
} ToolOutput;
bool toolOutputOpen(ToolOutput *o, const char *path);
bool toolOutputCommit(ToolOutput *o); /* false if any write failed */
void toolOutputAbort(ToolOutput *o);  /* removes the temporary file, if any */

#endif
