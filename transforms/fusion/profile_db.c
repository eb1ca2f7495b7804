/* The latency database of nn-fuse{profile-db} and sparse-tune{db}: measured latencies of
 * candidate kernels, keyed by their canonical text, kept in a plain text
 * file ("<ns>\t<key>" per line) so runs on the same machine reuse them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuse_internal.h"
#include "grow.h"
#include "outfile.h"

typedef struct {
  char *key;
  double ns;
} Entry;

struct StrataFuseDb {
  StrataContext *ctx;
  char *path;
  Entry *entries;
  size_t count, capacity;
  size_t hits, measured;
  bool dirty;
};

static MlirLocation fileLoc(StrataFuseDb *db, unsigned line) {
  return mlirLocationFileLineColGet(strataContextGetMlir(db->ctx),
                                    mlirStringRefCreateFromCString(db->path), line, 1);
}

static bool append(StrataFuseDb *db, const char *key, size_t len, double ns) {
  Entry *e = strataGrow(db->entries, &db->capacity, db->count + 1, sizeof *e);
  if (!e) return false;
  db->entries = e;
  char *k = malloc(len + 1);
  if (!k) return false;
  memcpy(k, key, len);
  k[len] = 0;
  db->entries[db->count++] = (Entry){k, ns};
  return true;
}

/* The file's resolution. Every value the database holds, loaded or
 * inserted, is first rounded to what one line of the file can hold, so a
 * plan made while measuring (which decides on the rounded value) and a plan
 * made later from the saved file see the same numbers: with values kept at
 * full precision in memory but written with one decimal, a comparison
 * within 0.1 ns could go one way while measuring and the other way when
 * read back. */
#define LATENCY_FORMAT "%.1f"

double fuseDbRepresentable(double ns) {
  char text[64];
  snprintf(text, sizeof text, LATENCY_FORMAT, ns);
  return strtod(text, NULL);
}

static Entry *find(const StrataFuseDb *db, const char *key) {
  for (size_t i = 0; i < db->count; i++)
    if (!strcmp(db->entries[i].key, key)) return &db->entries[i];
  return NULL;
}

/* One line: "<ns>\t<key>". Returns false on a malformed line. */
static bool parseLine(StrataFuseDb *db, char *line) {
  size_t len = strcspn(line, "\r\n");
  line[len] = 0;
  if (!len || line[0] == '#') return true;
  char *tab = strchr(line, '\t'), *end;
  if (!tab || tab[1] == 0) return false;
  *tab = 0;
  errno = 0;
  double ns = strtod(line, &end);
  if (errno || *end || !(ns >= 0)) return false;
  ns = fuseDbRepresentable(ns);
  Entry *e = find(db, tab + 1);
  if (e) {
    e->ns = ns;
    return true;
  }
  return append(db, tab + 1, strlen(tab + 1), ns);
}

StrataFuseDb *strataFuseDbCreate(StrataContext *ctx, const char *path) {
  StrataFuseDb *db = calloc(1, sizeof *db);
  if (!db || (path && !(db->path = strdup(path)))) {
    free(db);
    return NULL;
  }
  db->ctx = ctx;
  if (!path) return db;
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT) return db; /* created on first save */
    strataEmitError(fileLoc(db, 0), "cannot read the latency database: %s",
                    strerror(errno));
    strataFuseDbDestroy(db);
    return NULL;
  }
  char *line = NULL;
  size_t cap = 0;
  unsigned lineNo = 0;
  bool ok = true;
  while (ok && getline(&line, &cap, f) >= 0) {
    lineNo++;
    if (!parseLine(db, line)) {
      strataEmitError(fileLoc(db, lineNo),
                      "malformed latency database line (expected "
                      "'<latency-ns><TAB><key>')");
      ok = false;
    }
  }
  free(line);
  fclose(f);
  if (!ok) {
    strataFuseDbDestroy(db);
    return NULL;
  }
  return db;
}

/* Opening the output (a temporary beside the file, removed again) is the
 * one check that answers for permissions, missing directories and
 * read-only file systems alike. */
MlirLogicalResult strataFuseDbCheckWritable(StrataFuseDb *db) {
  if (!db->path) return mlirLogicalResultSuccess();
  StrataRtOutFile probe;
  char err[512];
  if (strataRtOutFileOpen(&probe, db->path, err, sizeof err) != 0) {
    strataEmitError(fileLoc(db, 0), "latency database: %s", err);
    return mlirLogicalResultFailure();
  }
  strataRtOutFileAbort(&probe);
  return mlirLogicalResultSuccess();
}

void strataFuseDbDestroy(StrataFuseDb *db) {
  if (!db) return;
  for (size_t i = 0; i < db->count; i++) free(db->entries[i].key);
  free(db->entries);
  free(db->path);
  free(db);
}

/* Written atomically (outfile.h): a failed write never leaves a truncated
 * database. */
MlirLogicalResult strataFuseDbSave(StrataFuseDb *db) {
  if (!db->dirty || !db->path) return mlirLogicalResultSuccess();
  StrataRtOutFile out;
  char err[512];
  int rc = strataRtOutFileOpen(&out, db->path, err, sizeof err);
  if (rc == 0) {
    fprintf(out.f, "# Strata latency database: <latency-ns>\t<kernel key>\n");
    for (size_t i = 0; i < db->count; i++)
      fprintf(out.f, LATENCY_FORMAT "\t%s\n", db->entries[i].ns, db->entries[i].key);
    rc = strataRtOutFileCommit(&out, err, sizeof err);
  }
  if (rc != 0) {
    strataEmitError(fileLoc(db, 0), "latency database: %s", err);
    return mlirLogicalResultFailure();
  }
  db->dirty = false;
  return mlirLogicalResultSuccess();
}

bool strataFuseDbLookup(StrataFuseDb *db, const char *key, double *ns) {
  Entry *e = find(db, key);
  if (!e) return false;
  db->hits++;
  *ns = e->ns;
  return true;
}

void strataFuseDbInsert(StrataFuseDb *db, const char *key, double ns) {
  ns = fuseDbRepresentable(ns);
  Entry *e = find(db, key);
  db->measured++;
  db->dirty = true;
  if (e) e->ns = ns;
  else append(db, key, strlen(key), ns);
}

size_t strataFuseDbSize(const StrataFuseDb *db) { return db->count; }
size_t strataFuseDbHits(const StrataFuseDb *db) { return db->hits; }
size_t strataFuseDbMeasured(const StrataFuseDb *db) { return db->measured; }
