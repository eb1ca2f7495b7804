/* strata-opt: IR in, passes, IR out. Strata's opt-style driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/Pass.h"
#include "strata/strata.h"
#include "grow.h"
#include "tool_io.h"
#include "verify_diagnostics.h"

typedef struct {
  const char *input, *output, *pipeline;
  char *flagPipeline; /* passes given as --name[=opts] flags, in order */
  size_t flagPipelineLen, flagPipelineCap;
  bool split, verifyDiags, printAfterAll, timing, allowUnregistered, bytecode, generic;
} Options;

static void usage(FILE *f, StrataContext *ctx) {
  fprintf(f,
          "usage: strata-opt [options] [input.mlir|-]\n"
          "\n"
          "Reads MLIR (text or bytecode), runs passes, writes MLIR.\n"
          "\n"
          "  -o FILE                      output file (default: stdout); written only on success\n"
          "  --pass-pipeline=PIPELINE     textual pipeline, e.g.\n"
          "                               'builtin.module(func.func(nn-fold,canonicalize),nn-to-linalg)'\n"
          "  --PASS[=OPTIONS]             add a Strata or upstream pass, e.g. --nn-fold=max-iterations=3\n"
          "  --list-passes                list Strata and upstream passes with their options\n"
          "  --split-input-file           process chunks separated by '// -----' independently\n"
          "  --verify-diagnostics         check '// expected-error@+1 {{...}}' comments\n"
          "  --mlir-print-ir-after-all    print the IR after every pass (to stderr)\n"
          "  --mlir-timing                print pass timing (to stderr)\n"
          "  --mlir-print-op-generic      print ops in generic form\n"
          "  --allow-unregistered-dialect accept ops of unknown dialects\n"
          "  --emit-bytecode              write MLIR bytecode instead of text\n"
          "  --version, --help\n"
          "\n"
          "Strata passes (each also usable in --pass-pipeline; upstream passes: --list-passes):\n");
  for (size_t i = 0; i < strataContextNumPasses(ctx); i++)
    fprintf(f, "  --%-28s %s\n", strataContextGetPass(ctx, i)->name, strataContextGetPass(ctx, i)->summary);
}

static void appendFlagPass(Options *o, const char *name, const char *opts) {
  size_t need = strlen(name) + (opts ? strlen(opts) + 2 : 0) + 2;
  char *p = strataGrow(o->flagPipeline, &o->flagPipelineCap, o->flagPipelineLen + need + 1, 1);
  if (!p) return;
  o->flagPipeline = p;
  o->flagPipelineLen += (size_t)sprintf(p + o->flagPipelineLen, "%s%s%s%s%s",
                                        o->flagPipelineLen ? "," : "", name, opts ? "{" : "",
                                        opts ? opts : "", opts ? "}" : "");
}

static void listPasses(StrataContext *ctx) {
  printf("Strata passes:\n");
  for (size_t i = 0; i < strataContextNumPasses(ctx); i++) {
    const StrataPassDef *d = strataContextGetPass(ctx, i);
    printf("  --%-40s %s%s\n", d->name, d->pipeline ? "[pipeline] " : "", d->summary);
    for (size_t j = 0; j < d->numOptions; j++)
      printf("      %s=<%s> (default %s) - %s\n", d->options[j].name,
             (const char *[]){"bool", "int", "number", "string"}[d->options[j].kind],
             d->options[j].defaultValue ? d->options[j].defaultValue : "false", d->options[j].help);
  }
  printf("\nUpstream MLIR passes and pipelines:\n");
  for (size_t i = 0; i < strataNumUpstreamPasses(); i++) {
    const StrataUpstreamPass *u = strataGetUpstreamPass(i);
    printf("  --%-40s %s\n", u->name, u->summary);
    for (const char *p = u->options; *p;) {
      const char *e = strchr(p, '\n');
      int len = e ? (int)(e - p) : (int)strlen(p);
      printf("      %.*s\n", len, p);
      p += len + (e != NULL);
    }
  }
}

/* Returns 0 if parsed, 1 on a usage error, -1 for an informational exit. */
static int parseArgs(int argc, char **argv, Options *o, StrataContext *ctx) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o")) {
      if (++i == argc) return fprintf(stderr, "error: -o needs a file name\n"), 1;
      o->output = argv[i];
    } else if (!strncmp(a, "-o", 2) && a[2]) o->output = a + 2;
    else if (!strncmp(a, "--pass-pipeline=", 16)) o->pipeline = a + 16;
    else if (!strcmp(a, "--split-input-file")) o->split = true;
    else if (!strcmp(a, "--verify-diagnostics")) o->verifyDiags = true;
    else if (!strcmp(a, "--mlir-print-ir-after-all")) o->printAfterAll = true;
    else if (!strcmp(a, "--mlir-timing")) o->timing = true;
    else if (!strcmp(a, "--mlir-print-op-generic")) o->generic = true;
    else if (!strcmp(a, "--allow-unregistered-dialect")) o->allowUnregistered = true;
    else if (!strcmp(a, "--emit-bytecode")) o->bytecode = true;
    else if (!strcmp(a, "--version")) return printf("strata-opt %s (MLIR 22)\n", STRATA_VERSION), -1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, ctx), -1;
    else if (!strcmp(a, "--list-passes")) return listPasses(ctx), -1;
    else if (!strcmp(a, "-") || a[0] != '-') {
      if (o->input) return fprintf(stderr, "error: more than one input file ('%s', '%s')\n", o->input, a), 1;
      o->input = a;
    } else {
      const char *name = a + (a[1] == '-' ? 2 : 1);
      const char *eq = strchr(name, '=');
      char *n = eq ? strndup(name, (size_t)(eq - name)) : strdup(name);
      if (strataContextLookupPass(ctx, n) || strataLookupUpstreamPass(n)) {
        appendFlagPass(o, n, eq ? eq + 1 : NULL);
        free(n);
        continue;
      }
      const char *near[4];
      size_t k = strataSuggestPasses(ctx, n, near, 4);
      fprintf(stderr, "error: unknown option '%s'", a);
      for (size_t j = 0; j < k; j++) fprintf(stderr, "%s'--%s'", j ? ", " : "; did you mean ", near[j]);
      fprintf(stderr, "%s\n", k ? "?" : " (see --help and --list-passes)");
      free(n);
      return 1;
    }
  }
  if (o->pipeline && o->flagPipeline)
    return fprintf(stderr, "error: use either --pass-pipeline or pass flags, not both\n"), 1;
  if (!o->input) o->input = "-";
  if (!o->output) o->output = "-";
  return 0;
}

typedef struct {
  char *data;
  size_t len, cap;
} Buf;

static void bufAppend(MlirStringRef s, void *user) {
  Buf *b = user;
  char *p = strataGrow(b->data, &b->cap, b->len + s.length + 1, 1);
  if (!p) return;
  b->data = p;
  memcpy(b->data + b->len, s.data, s.length);
  b->len += s.length;
  b->data[b->len] = '\0';
}

/* Parses, verifies, runs the pipeline on and prints one chunk. Returns true on success. */
static bool processChunk(StrataContext *ctx, const Options *o, const char *text, size_t len,
                         const char *name, Buf *out) {
  MlirContext mctx = strataContextGetMlir(ctx);
  MlirModule module = strataParseModule(ctx, mlirStringRefCreate(text, len), name);
  if (mlirModuleIsNull(module)) return false;
  MlirOperation op = mlirModuleGetOperation(module);
  bool ok = mlirLogicalResultIsSuccess(strataVerify(ctx, op));
  const char *pipeline = o->pipeline ? o->pipeline : o->flagPipeline;
  if (ok && pipeline && *pipeline) {
    MlirPassManager pm = mlirPassManagerCreateOnOperation(mctx, mlirStringRefCreateFromCString("builtin.module"));
    mlirPassManagerEnableVerifier(pm, true);
    if (o->printAfterAll) {
      MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
      if (o->generic) mlirOpPrintingFlagsPrintGenericOpForm(flags);
      mlirPassManagerEnableIRPrinting(pm, false, true, true, false, false, flags,
                                      mlirStringRefCreate(NULL, 0));
      mlirOpPrintingFlagsDestroy(flags);
    }
    if (o->timing) mlirPassManagerEnableTiming(pm);
    ok = mlirLogicalResultIsSuccess(strataParsePipeline(ctx, mlirPassManagerGetAsOpPassManager(pm), pipeline));
    if (ok) {
      size_t before = strataContextErrorCount(ctx);
      ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
      if (!ok && strataContextErrorCount(ctx) == before)
        strataEmitError(mlirOperationGetLocation(op), "pass pipeline failed");
    }
    mlirPassManagerDestroy(pm);
    if (ok) ok = mlirLogicalResultIsSuccess(strataVerify(ctx, op));
  }
  if (ok) {
    if (o->bytecode) {
      mlirOperationWriteBytecode(op, bufAppend, out);
    } else {
      MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
      if (o->generic) mlirOpPrintingFlagsPrintGenericOpForm(flags);
      mlirOperationPrintWithFlags(op, flags, bufAppend, out);
      mlirOpPrintingFlagsDestroy(flags);
      bufAppend(mlirStringRefCreateFromCString("\n"), out);
    }
  }
  mlirModuleDestroy(module);
  return ok;
}

/* Finds the next "// -----" separator line at or after p; NULL if none. */
static const char *findSeparator(const char *p) {
  for (const char *q = p; (q = strstr(q, "// -----")); q += 8) {
    bool lineStart = q == p || q[-1] == '\n';
    const char *e = q + 8;
    while (*e == '-') e++;
    while (*e == ' ' || *e == '\t' || *e == '\r') e++;
    if (lineStart && (*e == '\n' || !*e)) return q;
  }
  return NULL;
}

int main(int argc, char **argv) {
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return fprintf(stderr, "error: could not create the Strata context\n"), 1;
  Options o = {0};
  int rc = parseArgs(argc, argv, &o, ctx);
  if (rc) {
    free(o.flagPipeline);
    strataContextDestroy(ctx);
    return rc < 0 ? 0 : 1;
  }
  mlirContextSetAllowUnregisteredDialects(strataContextGetMlir(ctx), o.allowUnregistered);
  size_t len;
  char *text = toolReadFile(o.input, &len);
  if (!text) {
    free(o.flagPipeline);
    strataContextDestroy(ctx);
    return 1;
  }
  const char *name = strcmp(o.input, "-") ? o.input : "<stdin>";
  Buf out = {0};
  bool ok = true;
  const char *chunk = text;
  unsigned line = 1;
  while (chunk) {
    const char *sep = o.split ? findSeparator(chunk) : NULL;
    size_t clen = sep ? (size_t)(sep - chunk) : (size_t)(text + len - chunk);
    /* Pad with newlines so locations keep the file's line numbers. */
    char *padded = malloc(line - 1 + clen + 1);
    if (!padded) break;
    memset(padded, '\n', line - 1);
    memcpy(padded + line - 1, chunk, clen);
    padded[line - 1 + clen] = '\0';
    VerifyDiags *vd = NULL;
    if (o.verifyDiags) {
      vd = verifyDiagsCreate(padded, name);
      strataContextSetDiagnosticCallback(ctx, verifyDiagsRecord, vd);
    }
    if (out.len && o.split && !o.bytecode) bufAppend(mlirStringRefCreateFromCString("// -----\n"), &out);
    bool chunkOk = processChunk(ctx, &o, padded, line - 1 + clen, name, &out);
    if (vd) {
      strataContextSetDiagnosticCallback(ctx, NULL, NULL);
      chunkOk = verifyDiagsFinish(vd);
    }
    ok = ok && chunkOk;
    free(padded);
    for (size_t i = 0; i < clen; i++) line += chunk[i] == '\n';
    if (!sep) break;
    const char *next = strchr(sep, '\n');
    chunk = next ? next + 1 : NULL;
    line++;
  }
  if (ok) {
    ToolOutput f;
    ok = toolOutputOpen(&f, o.output);
    if (ok) {
      ok = fwrite(out.data ? out.data : "", 1, out.len, f.f) == out.len;
      ok = ok ? toolOutputCommit(&f) : (toolOutputAbort(&f), false);
    }
  }
  free(out.data);
  free(text);
  free(o.flagPipeline);
  strataContextDestroy(ctx);
  return ok ? 0 : 1;
}
