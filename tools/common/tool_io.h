/* I/O shared by Strata's command-line tools. */
#ifndef STRATA_TOOL_IO_H
#define STRATA_TOOL_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Reads a whole file ("-" = stdin). NULL with a message on stderr on error. */
char *toolReadFile(const char *path, size_t *len);

/* Output written atomically: to a temp file beside `path`, renamed over it
 * only on commit. "-" writes to stdout directly. */
typedef struct {
  FILE *f;
  char *path, *tmp;
} ToolOutput;
bool toolOutputOpen(ToolOutput *o, const char *path);
bool toolOutputCommit(ToolOutput *o); /* false if any write failed */
void toolOutputAbort(ToolOutput *o);  /* removes the temp file */

#endif
