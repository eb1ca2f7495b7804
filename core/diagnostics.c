/* Diagnostics: MLIR diagnostics are turned into StrataDiagnostic records with
 * a "file:line:col" location and delivered to the host's callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "internal.h"

/* Finds the most specific file:line:col inside a location: name locations
 * (ONNX node names) wrap one, call sites point at the callee, fused locations
 * contribute their first located part. */
static bool findFileLineCol(MlirLocation loc, MlirLocation *out) {
  if (mlirLocationIsAFileLineColRange(loc)) {
    *out = loc;
    return true;
  }
  if (mlirLocationIsAName(loc)) return findFileLineCol(mlirLocationNameGetChildLoc(loc), out);
  if (mlirLocationIsACallSite(loc))
    return findFileLineCol(mlirLocationCallSiteGetCallee(loc), out) ||
           findFileLineCol(mlirLocationCallSiteGetCaller(loc), out);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n <= 0 || n > 64) return false;
    MlirLocation parts[64];
    mlirLocationFusedGetLocations(loc, parts);
    for (intptr_t i = 0; i < n; i++)
      if (findFileLineCol(parts[i], out)) return true;
  }
  return false;
}

static StrataSeverity fromMlirSeverity(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError: return STRATA_SEVERITY_ERROR;
  case MlirDiagnosticWarning: return STRATA_SEVERITY_WARNING;
  case MlirDiagnosticNote: return STRATA_SEVERITY_NOTE;
  default: return STRATA_SEVERITY_REMARK;
  }
}

static const char *severityName(StrataSeverity s) {
  switch (s) {
  case STRATA_SEVERITY_ERROR: return "error";
  case STRATA_SEVERITY_WARNING: return "warning";
  case STRATA_SEVERITY_NOTE: return "note";
  default: return "remark";
  }
}

void strataPrintDiagnostic(const StrataDiagnostic *d, void *user) {
  (void)user;
  fprintf(stderr, "%s: %s: %s\n", d->location, severityName(d->severity), d->message);
}

static void deliver(StrataContext *ctx, StrataSeverity sev, const char *location,
                    const char *file, unsigned line, unsigned col, const char *message) {
  if (sev == STRATA_SEVERITY_ERROR) ctx->errorCount++;
  if (ctx->capturing) {
    StrataBufferedDiag *p = strataGrow(ctx->captured, &ctx->capCaptured, ctx->numCaptured + 1, sizeof *p);
    if (!p) return;
    ctx->captured = p;
    StrataBufferedDiag *b = &ctx->captured[ctx->numCaptured++];
    b->severity = sev;
    b->file = file ? strdup(file) : NULL;
    b->line = line;
    b->col = col;
    b->location = strdup(location);
    b->message = strdup(message);
    return;
  }
  StrataDiagnostic d = {sev, file, line, col, location, message};
  ctx->callback(&d, ctx->callbackUser);
}

/* `loc` as diagnostics show it: "file:line:col", "file: node 'N'" for an
 * imported node (line 0 is a whole-file location), else MLIR's own form.
 * Also gives the file (NULL if none), line and column. */
static void describeLocation(MlirLocation loc, StrataStr *where, StrataStr *file, unsigned *line,
                             unsigned *col) {
  MlirLocation flc;
  *line = *col = 0;
  if (!findFileLineCol(loc, &flc)) {
    mlirLocationPrint(loc, strataStrCallback, where);
    return;
  }
  MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(flc));
  strataStrAppend(file, f.data, f.length);
  *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(flc);
  *col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(flc);
  if (*line == 0) strataStrAppendf(where, "%s", file->data ? file->data : "");
  else strataStrAppendf(where, "%s:%u:%u", file->data ? file->data : "", *line, *col);
  if (mlirLocationIsAName(loc)) {
    MlirStringRef n = mlirIdentifierStr(mlirLocationNameGetName(loc));
    strataStrAppendf(where, ": node '%.*s'", (int)n.length, n.data);
  }
}

void strataLocationFormat(MlirLocation loc, char *buf, size_t size) {
  StrataStr where = {0}, file = {0};
  unsigned line, col;
  describeLocation(loc, &where, &file, &line, &col);
  snprintf(buf, size, "%s", where.data ? where.data : "");
  strataStrFree(&where);
  strataStrFree(&file);
}

void strataEmitErrorText(StrataContext *ctx, const char *location, const char *fmt, ...) {
  StrataStr msg = {0};
  va_list ap;
  va_start(ap, fmt);
  strataStrAppendv(&msg, fmt, ap);
  va_end(ap);
  deliver(ctx, STRATA_SEVERITY_ERROR, location, NULL, 0, 0, msg.data ? msg.data : "");
  strataStrFree(&msg);
}

static void deliverMlir(StrataContext *ctx, MlirDiagnostic diag) {
  StrataStr msg = {0}, where = {0}, file = {0};
  mlirDiagnosticPrint(diag, strataStrCallback, &msg);
  unsigned line, col;
  describeLocation(mlirDiagnosticGetLocation(diag), &where, &file, &line, &col);
  deliver(ctx, fromMlirSeverity(mlirDiagnosticGetSeverity(diag)), where.data ? where.data : "",
          file.data, line, col, msg.data ? msg.data : "");
  intptr_t numNotes = mlirDiagnosticGetNumNotes(diag);
  for (intptr_t i = 0; i < numNotes; i++) deliverMlir(ctx, mlirDiagnosticGetNote(diag, i));
  strataStrFree(&msg);
  strataStrFree(&where);
  strataStrFree(&file);
}

MlirLogicalResult strataDiagnosticHandler(MlirDiagnostic diag, void *user) {
  deliverMlir((StrataContext *)user, diag);
  return mlirLogicalResultSuccess();
}

void strataCaptureBegin(StrataContext *ctx) { ctx->capturing = true; }

void strataCaptureEnd(StrataContext *ctx, bool deliverAll) {
  ctx->capturing = false;
  for (size_t i = 0; i < ctx->numCaptured; i++) {
    StrataBufferedDiag *b = &ctx->captured[i];
    if (deliverAll) {
      StrataDiagnostic d = {b->severity, b->file, b->line, b->col, b->location, b->message};
      ctx->callback(&d, ctx->callbackUser);
    } else if (b->severity == STRATA_SEVERITY_ERROR) {
      ctx->errorCount--; /* discarded errors do not count */
    }
    free(b->file);
    free(b->location);
    free(b->message);
  }
  ctx->numCaptured = 0;
}

void strataEmitDiagnostic(StrataSeverity severity, MlirLocation loc, const char *fmt, ...) {
  StrataStr msg = {0}, where = {0}, file = {0};
  va_list ap;
  va_start(ap, fmt);
  strataStrAppendv(&msg, fmt, ap);
  va_end(ap);
  unsigned line, col;
  describeLocation(loc, &where, &file, &line, &col);
  StrataContext *ctx = strataContextFromMlir(mlirLocationGetContext(loc));
  const char *w = where.data ? where.data : "", *m = msg.data ? msg.data : "";
  if (ctx) deliver(ctx, severity, w, file.data, line, col, m);
  else fprintf(stderr, "%s: %s: %s\n", w, severityName(severity), m);
  strataStrFree(&msg);
  strataStrFree(&where);
  strataStrFree(&file);
}

void strataEmitOpError(MlirOperation op, const char *fmt, ...) {
  StrataStr s = {0};
  va_list ap;
  va_start(ap, fmt);
  strataStrAppendv(&s, fmt, ap);
  va_end(ap);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  strataEmitError(mlirOperationGetLocation(op), "'%.*s' op %s", (int)n.length, n.data, s.data ? s.data : "");
  strataStrFree(&s);
}

void strataEmitError(MlirLocation loc, const char *fmt, ...) {
  StrataStr s = {0};
  va_list ap;
  va_start(ap, fmt);
  strataStrAppendv(&s, fmt, ap);
  va_end(ap);
  mlirEmitError(loc, s.data ? s.data : "");
  strataStrFree(&s);
}
