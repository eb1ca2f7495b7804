/* strata-run: compile a function through the CPU pipeline and run it (JIT),
 * or run it through the reference interpreter, or both and compare. */
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "instr.h"
#include "kernels.h"
#include "strata/strata.h"
#include "tool_io.h"
#include "tool_time.h"

#define MAX_IO 64

typedef enum { MODE_JIT, MODE_INTERPRET, MODE_COMPARE } Mode;

typedef struct {
  const char *file, *entry;
  const char *inputs[MAX_IO], *outputs[MAX_IO];
  int numInputs, numOutputs;
  Mode mode;
  long repeat, threads, optLevel;
  bool upstream;
  const char *fusion, *fuseDb, *fuseProfile;
  const char *instrument, *traceOut, *dumpDir;
  bool debugNumerics;
  unsigned long long seed;
  double atol, rtol;
  bool quiet;
} Options;

static void usage(FILE *f) {
  fprintf(f,
          "usage: strata-run [options] model.mlir|model.onnx\n"
          "\n"
          "Compiles a function through the CPU pipeline (strata-cpu-pipeline) and runs it.\n"
          "Options with a value take it as --option VALUE or --option=VALUE.\n"
          "\n"
          "  --entry NAME       function to run (default: the first public function)\n"
          "  --input FILE.npy   an input, repeated in argument order (default: random, seeded)\n"
          "  --output FILE.npy  where to write an output, repeated in result order\n"
          "  --seed N           seed for random inputs (default 0); input i uses seed N+i;\n"
          "                     floats in [-1,1), ints in [-8,8), ui8 in [0,16), i1 0/1\n"
          "  --interpret        run the reference interpreter instead of the JIT\n"
          "  --compare          run both; report max abs/rel error; fail beyond tolerance\n"
          "  --atol X --rtol X  --compare tolerance: |jit-ref| <= atol + rtol*|ref| (1e-4, 1e-4)\n"
          "  --repeat N         after a warm-up, time N runs and print 'median <t> ms'\n"
          "  --threads N        threads of the runtime kernels (conv, matmul; default 1)\n"
          "  --upstream-lowering  compile with strata-cpu-pipeline-upstream: no runtime\n"
          "                     kernels, no arena (upstream MLIR's loops; the baseline)\n"
          "  --fusion MODE      none (no fusion: kernels without epilogues, a loop nest per\n"
          "                     op), fixed (kernel epilogues; the default) or dnnfusion\n"
          "                     (nn-fuse planning + fused code generation)\n"
          "  --fuse-profile MODE  how dnnfusion settles the fusion table's profile cells:\n"
          "                     measure (time candidates on this machine; the default), db\n"
          "                     (the database only), always (fuse) or never (keep apart)\n"
          "  --fuse-profile-db FILE  latency database of nn-fuse's profile cells (dnnfusion;\n"
          "                     created on first use, reused later)\n"
          "  --instrument SPEC  run the instrument pass first, e.g. 'tool=trace ops=nn.conv*'\n"
          "                     (tools: flops, trace, profile, prune, fakequant, dump)\n"
          "  --trace-out FILE   write the trace/profile JSON of the JIT runs to FILE\n"
          "  --debug-numerics   report the first op whose compiled output differs from the\n"
          "                     interpreter's beyond --atol/--rtol (every f32 op output)\n"
          "  --dump-dir DIR     with --debug-numerics: write op<ID>_<I>.{jit,ref}.npy there\n"
          "  -O N               LLVM optimization level 0-3 (default 2)\n"
          "  --quiet            do not print output values\n"
          "  --version, --help\n");
}

static bool parseLong(const char *s, long lo, long hi, long *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

static int parseArgs(int argc, char **argv, Options *o) {
  *o = (Options){.repeat = 0, .threads = 1, .optLevel = 2, .atol = 1e-4, .rtol = 1e-4};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* `--option=value` as strata-opt takes it, or `--option value`. */
    char name[64];
    const char *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL, *inlineVal = NULL;
    if (eq && (size_t)(eq - a) < sizeof name) {
      snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
      a = name;
      inlineVal = eq + 1;
    }
    const char *val = inlineVal ? inlineVal : i + 1 < argc ? argv[i + 1] : NULL;
    bool tookValue = false;
#define NEED_VALUE()                                                        \
  if (!val) return fprintf(stderr, "error: %s needs a value\n", a), 1;      \
  tookValue = true;                                                         \
  if (!inlineVal) i++
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), -1;
    if (!strcmp(a, "--version")) return printf("strata-run %s (MLIR 22)\n", STRATA_VERSION), -1;
    if (!strcmp(a, "--interpret")) o->mode = MODE_INTERPRET;
    else if (!strcmp(a, "--compare")) o->mode = MODE_COMPARE;
    else if (!strcmp(a, "--quiet")) o->quiet = true;
    else if (!strcmp(a, "--entry")) { NEED_VALUE(); o->entry = val; }
    else if (!strcmp(a, "--input")) {
      NEED_VALUE();
      if (o->numInputs == MAX_IO) return fprintf(stderr, "error: too many --input\n"), 1;
      o->inputs[o->numInputs++] = val;
    } else if (!strcmp(a, "--output")) {
      NEED_VALUE();
      if (o->numOutputs == MAX_IO) return fprintf(stderr, "error: too many --output\n"), 1;
      o->outputs[o->numOutputs++] = val;
    } else if (!strcmp(a, "--seed")) {
      NEED_VALUE();
      long s;
      if (!parseLong(val, 0, __LONG_MAX__, &s)) return fprintf(stderr, "error: bad --seed '%s'\n", val), 1;
      o->seed = (unsigned long long)s;
    } else if (!strcmp(a, "--repeat")) {
      NEED_VALUE();
      if (!parseLong(val, 1, 1000000, &o->repeat)) return fprintf(stderr, "error: bad --repeat '%s'\n", val), 1;
    } else if (!strcmp(a, "--threads")) {
      NEED_VALUE();
      if (!parseLong(val, 1, 1024, &o->threads)) return fprintf(stderr, "error: bad --threads '%s'\n", val), 1;
    } else if (!strcmp(a, "--upstream-lowering")) {
      o->upstream = true;
    } else if (!strcmp(a, "--fusion")) {
      NEED_VALUE();
      if (strcmp(val, "none") && strcmp(val, "fixed") && strcmp(val, "dnnfusion"))
        return fprintf(stderr, "error: bad --fusion '%s' (none, fixed or dnnfusion)\n", val), 1;
      o->fusion = val;
    } else if (!strcmp(a, "--fuse-profile")) {
      NEED_VALUE();
      if (strcmp(val, "measure") && strcmp(val, "db") && strcmp(val, "always") && strcmp(val, "never"))
        return fprintf(stderr, "error: bad --fuse-profile '%s' (measure, db, always or never)\n", val), 1;
      o->fuseProfile = val;
    } else if (!strcmp(a, "--fuse-profile-db")) {
      NEED_VALUE();
      if (!*val || strpbrk(val, " {}=,'\""))
        return fprintf(stderr, "error: --fuse-profile-db path '%s' is empty or has one of  {}=,'\" "
                       "(not expressible as a pass option)\n", val), 1;
      o->fuseDb = val;
    } else if (!strcmp(a, "--instrument")) {
      NEED_VALUE();
      if (strpbrk(val, "{}"))
        return fprintf(stderr, "error: --instrument '%s' may not contain braces\n", val), 1;
      o->instrument = val;
    } else if (!strcmp(a, "--debug-numerics")) {
      o->debugNumerics = true;
    } else if (!strcmp(a, "--dump-dir")) {
      NEED_VALUE();
      o->dumpDir = val;
    } else if (!strcmp(a, "--trace-out")) {
      NEED_VALUE();
      o->traceOut = val;
    } else if (!strcmp(a, "-O")) {
      NEED_VALUE();
      if (!parseLong(val, 0, 3, &o->optLevel)) return fprintf(stderr, "error: bad -O '%s'\n", val), 1;
    } else if (!strcmp(a, "--atol") || !strcmp(a, "--rtol")) {
      NEED_VALUE();
      char *end;
      double d = strtod(val, &end);
      if (!*val || *end || !(d >= 0)) return fprintf(stderr, "error: bad %s '%s'\n", a, val), 1;
      *(a[2] == 'a' ? &o->atol : &o->rtol) = d;
    } else if (a[0] == '-' && a[1]) {
      return fprintf(stderr, "error: unknown option '%s' (see --help)\n", a), 1;
    } else {
      if (o->file) return fprintf(stderr, "error: more than one model file\n"), 1;
      o->file = a;
    }
    if (inlineVal && !tookValue) return fprintf(stderr, "error: option '%s' takes no value\n", a), 1;
#undef NEED_VALUE
  }
  if (!o->file) return fprintf(stderr, "error: no model file given (see --help)\n"), 1;
  if (o->fuseDb && (!o->fusion || strcmp(o->fusion, "dnnfusion")))
    return fprintf(stderr, "error: --fuse-profile-db needs --fusion dnnfusion\n"), 1;
  if (o->fuseProfile && (!o->fusion || strcmp(o->fusion, "dnnfusion")))
    return fprintf(stderr, "error: --fuse-profile needs --fusion dnnfusion\n"), 1;
  if (o->fuseProfile && !strcmp(o->fuseProfile, "db") && !o->fuseDb)
    return fprintf(stderr, "error: --fuse-profile db needs --fuse-profile-db FILE\n"), 1;
  if (o->dumpDir && !o->debugNumerics)
    return fprintf(stderr, "error: --dump-dir needs --debug-numerics\n"), 1;
  if (o->debugNumerics && (o->instrument || o->mode != MODE_JIT || o->repeat))
    return fprintf(stderr, "error: --debug-numerics runs alone (not with --instrument, --interpret, "
                   "--compare or --repeat)\n"), 1;
  if (o->traceOut && !o->instrument)
    return fprintf(stderr, "error: --trace-out needs --instrument\n"), 1;
  if (o->traceOut && o->mode == MODE_INTERPRET)
    return fprintf(stderr, "error: --trace-out records JIT runs; it does not work with --interpret\n"), 1;
  if (o->upstream && o->fusion)
    return fprintf(stderr, "error: --upstream-lowering and --fusion exclude each other\n"), 1;
  return 0;
}

/* The pipeline the options ask for; *owned is set when it was allocated. */
static const char *pipelineFor(const Options *o, char **owned) {
  *owned = NULL;
  if (o->upstream) return strataCpuPipelineUpstream();
  if (!o->fusion || !strcmp(o->fusion, "fixed")) return strataCpuPipeline();
  if (!strcmp(o->fusion, "none")) return strataCpuPipelineUnfused();
  if (!o->fuseDb && !o->fuseProfile) return strataCpuPipelineFused();
  *owned = strataCpuPipelineFusedWith(o->fuseProfile, o->fuseDb);
  return *owned;
}

static void printTensor(const char *label, size_t i, const StrataTensor *t, bool values) {
  char shape[256];
  strataTensorFormatType(t, shape, sizeof shape);
  int64_t n = strataTensorNumElements(t);
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (int64_t k = 0; k < n; k++) {
    double v = strataTensorGetDouble(t, k);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    sum += v;
  }
  printf("%s #%zu: %s  min %.6g  max %.6g  mean %.6g\n", label, i, shape, lo, hi, n ? sum / n : 0);
  if (!values) return;
  int64_t shown = n < 16 ? n : 16;
  printf("  [");
  for (int64_t k = 0; k < shown; k++) printf("%s%.6g", k ? ", " : "", strataTensorGetDouble(t, k));
  printf("%s]\n", shown < n ? ", ..." : "");
}

/* Compares per output; returns true if all are within tolerance. */
static bool compare(StrataTensor *const *jit, StrataTensor *const *ref, size_t n, const Options *o) {
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    double maxAbs = 0, maxRel = 0;
    bool within = true;
    int64_t count = strataTensorNumElements(ref[i]);
    for (int64_t k = 0; k < count; k++) {
      double a = strataTensorGetDouble(jit[i], k), b = strataTensorGetDouble(ref[i], k);
      /* NaN matches only NaN and an infinity only itself (a tolerance
       * computed from a NaN or infinite reference would accept anything). */
      double err;
      if (isnan(a) || isnan(b) || isinf(a) || isinf(b)) {
        bool same = (isnan(a) && isnan(b)) || a == b;
        err = same ? 0 : INFINITY;
        if (!same) within = false;
        maxAbs = err > maxAbs ? err : maxAbs;
        continue;
      }
      err = fabs(a - b);
      double rel = err / (fabs(b) > 1e-30 ? fabs(b) : 1e-30);
      maxAbs = err > maxAbs ? err : maxAbs;
      maxRel = rel > maxRel && fabs(b) > o->atol ? rel : maxRel;
      if (err > o->atol + o->rtol * fabs(b)) within = false;
    }
    printf("compare output #%zu: max abs error %.3g, max rel error %.3g: %s\n", i, maxAbs, maxRel,
           within ? "OK" : "MISMATCH");
    ok = ok && within;
  }
  return ok;
}

/* --debug-numerics: true if it ran and found no divergence. */
static bool debugNumerics(StrataContext *ctx, MlirModule module, const char *entry,
                          StrataTensor *const *inputs, size_t numIn, const Options *o) {
  if (o->dumpDir && mkdir(o->dumpDir, 0777) != 0) {
    struct stat st;
    if (stat(o->dumpDir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "error: cannot create --dump-dir '%s'\n", o->dumpDir);
      return false;
    }
  }
  char *owned;
  const char *pipeline = pipelineFor(o, &owned);
  strataRtSetNumThreads((int)o->threads);
  StrataDebugNumericsOptions options = {o->atol, o->rtol, pipeline, (int)o->optLevel, o->dumpDir};
  StrataDebugNumericsReport r;
  bool ran = pipeline && mlirLogicalResultIsSuccess(
                             strataDebugNumerics(ctx, module, entry, inputs, numIn, &options, &r));
  free(owned);
  if (!ran) return false;
  if (r.diverged)
    printf("debug-numerics: first divergence at op_id %lld %s output #%lld (%s): max abs error %.3g "
           "(%zu op outputs compared)\n", (long long)r.opId, r.opName, (long long)r.index, r.location,
           r.maxAbsError, r.compared);
  else
    printf("debug-numerics: %zu op outputs compared, all within tolerance\n", r.compared);
  return !r.diverged;
}

int main(int argc, char **argv) {
  Options o;
  int rc = parseArgs(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : 1;
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return fprintf(stderr, "error: could not create the Strata context\n"), 1;
  StrataTensor *inputs[MAX_IO] = {0}, **ref = NULL, *jitOut[MAX_IO] = {0};
  size_t numIn = 0, numOut = 0, numRef = 0;
  StrataJit *jit = NULL;
  bool ok = false;
  size_t len;
  char *text = toolReadFile(o.file, &len);
  MlirModule module = {NULL};
  if (!text) goto done;
  if (strataLooksLikeOnnx(o.file, text, len)) {
    char *dirCopy = strdup(o.file);
    module = strataImportOnnx(ctx, text, len, o.file, dirCopy ? dirname(dirCopy) : ".", NULL);
    free(dirCopy);
  } else {
    module = strataParseModule(ctx, mlirStringRefCreate(text, len), o.file);
  }
  if (mlirModuleIsNull(module) || mlirLogicalResultIsFailure(strataVerify(ctx, mlirModuleGetOperation(module))))
    goto done;
  if (o.instrument) {
    char *pipeline = malloc(strlen(o.instrument) + 16);
    if (!pipeline) goto done;
    sprintf(pipeline, "instrument{%s}", o.instrument);
    bool instrumented = mlirLogicalResultIsSuccess(
        strataRunPipeline(ctx, mlirModuleGetOperation(module), pipeline));
    free(pipeline);
    if (!instrumented) goto done;
  }
  MlirOperation func = strataLookupFunc(module, o.entry);
  if (mlirOperationIsNull(func)) {
    if (o.entry)
      fprintf(stderr, "%s: error: no function '%s' in the module\n", o.file, o.entry);
    else
      fprintf(stderr, "%s: error: no public function with a body in the module\n", o.file);
    goto done;
  }
  MlirStringRef fname = mlirStringAttrGetValue(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  char entry[256];
  snprintf(entry, sizeof entry, "%.*s", (int)fname.length, fname.data);
  MlirType ftype = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type")));
  numIn = (size_t)mlirFunctionTypeGetNumInputs(ftype);
  numOut = (size_t)mlirFunctionTypeGetNumResults(ftype);
  if (numIn > MAX_IO || numOut > MAX_IO) {
    fprintf(stderr, "%s: error: '%s' has more than %d inputs or outputs\n", o.file, entry, MAX_IO);
    goto done;
  }
  if (o.numInputs && (size_t)o.numInputs != numIn) {
    fprintf(stderr, "error: '%s' takes %zu inputs, %d --input given\n", entry, numIn, o.numInputs);
    goto done;
  }
  if (o.numOutputs > 0 && (size_t)o.numOutputs > numOut) {
    fprintf(stderr, "error: '%s' has %zu outputs, %d --output given\n", entry, numOut, o.numOutputs);
    goto done;
  }
  for (size_t i = 0; i < numIn; i++) {
    MlirType t = mlirFunctionTypeGetInput(ftype, (intptr_t)i);
    char want[256], err[512];
    strataTypeToString(t, want, sizeof want);
    if (o.numInputs) {
      inputs[i] = strataNpyRead(o.inputs[i], err, sizeof err);
      if (!inputs[i]) {
        fprintf(stderr, "error: %s\n", err);
        goto done;
      }
      if (!strataTensorMatchesType(inputs[i], t)) {
        char have[256];
        strataTensorFormatType(inputs[i], have, sizeof have);
        fprintf(stderr, "error: %s holds %s, but input #%zu of '%s' is %s\n", o.inputs[i], have, i,
                entry, want);
        goto done;
      }
    } else {
      inputs[i] = strataTensorCreateForType(t);
      if (!inputs[i]) {
        char why[160];
        strataTensorTypeProblem(t, why, sizeof why);
        fprintf(stderr, "error: input #%zu of '%s' has type %s, which %s; no random input (give --input)\n",
                i, entry, want, why);
        goto done;
      }
      /* Floats in [-1, 1); integers in [-8, 8), unsigned in [0, 16); bools 0/1. */
      StrataDType dt = inputs[i]->dtype;
      bool isFloat = dt == STRATA_DTYPE_F32 || dt == STRATA_DTYPE_F64 || dt == STRATA_DTYPE_F16;
      strataTensorFillRandom(inputs[i], o.seed + i, isFloat ? -1.0 : dt == STRATA_DTYPE_U8 ? 0 : -8,
                             isFloat ? 1.0 : dt == STRATA_DTYPE_U8 ? 16 : 8);
    }
  }
  if (o.debugNumerics) {
    ok = debugNumerics(ctx, module, entry, inputs, numIn, &o);
    goto done;
  }
  if (o.mode != MODE_JIT) {
    double t0 = toolNowMs();
    if (mlirLogicalResultIsFailure(strataInterpret(ctx, func, inputs, numIn, &ref, &numRef)))
      goto done;
    if (o.mode == MODE_INTERPRET) printf("interpreted '%s' in %.3f ms\n", entry, toolNowMs() - t0);
  }
  if (o.mode != MODE_INTERPRET) {
    for (size_t i = 0; i < numOut; i++) {
      MlirType t = mlirFunctionTypeGetResult(ftype, (intptr_t)i);
      jitOut[i] = strataTensorCreateForType(t);
      if (!jitOut[i]) {
        char ts[256], why[160];
        strataTypeToString(t, ts, sizeof ts);
        strataTensorTypeProblem(t, why, sizeof why);
        fprintf(stderr, "error: result #%zu of '%s' has type %s, which %s\n", i, entry, ts, why);
        goto done;
      }
    }
    double t0 = toolNowMs();
    strataRtSetNumThreads((int)o.threads);
    char *ownedPipeline;
    const char *pipeline = pipelineFor(&o, &ownedPipeline);
    jit = pipeline ? strataJitCreateWithPipeline(ctx, module, pipeline, (int)o.optLevel) : NULL;
    free(ownedPipeline);
    if (!jit) goto done;
    double t1 = toolNowMs();
    if (mlirLogicalResultIsFailure(strataJitInvoke(jit, entry, inputs, numIn, jitOut, numOut)))
      goto done;
    printf("compiled '%s' in %.1f ms, ran in %.3f ms\n", entry, t1 - t0, toolNowMs() - t1);
    if (o.repeat) {
      double *times = malloc((size_t)o.repeat * sizeof *times);
      if (!times) goto done;
      for (long r = 0; r < o.repeat; r++) {
        double s = toolNowMs();
        strataJitInvoke(jit, entry, inputs, numIn, jitOut, numOut);
        times[r] = toolNowMs() - s;
      }
      printf("median %.4f ms (%ld runs)\n", toolMedian(times, (size_t)o.repeat), o.repeat);
      free(times);
    }
  }
  StrataTensor *const *results = o.mode == MODE_INTERPRET ? ref : jitOut;
  for (size_t i = 0; i < numOut; i++) printTensor("output", i, results[i], !o.quiet);
  ok = true;
  for (int i = 0; i < o.numOutputs && ok; i++) {
    char err[512];
    if (!strataNpyWrite(o.outputs[i], results[i], err, sizeof err)) {
      fprintf(stderr, "error: %s\n", err);
      ok = false;
    }
  }
  if (ok && o.mode == MODE_COMPARE) ok = compare(jitOut, ref, numOut, &o);
  if (ok && o.traceOut && strataRtInstrWrite(o.traceOut) != 0) {
    fprintf(stderr, "error: cannot write the trace to '%s'\n", o.traceOut);
    ok = false;
  }
done:
  strataJitDestroy(jit);
  for (size_t i = 0; i < MAX_IO; i++) strataTensorDestroy(inputs[i]), strataTensorDestroy(jitOut[i]);
  for (size_t i = 0; i < numRef; i++) strataTensorDestroy(ref[i]);
  free(ref);
  if (!mlirModuleIsNull(module)) mlirModuleDestroy(module);
  free(text);
  strataContextDestroy(ctx);
  return ok ? 0 : 1;
}
