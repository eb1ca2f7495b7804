/* strata-run's command line: --option VALUE or --option=VALUE, checked
 * for values and combinations before anything is loaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plain.h"
#include "run.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: strata-run [options] model.mlir|model.onnx\n"
          "\n"
          "Compiles a function for a target (the CPU: strata-cpu-pipeline) and runs it.\n"
          "Options with a value take it as --option VALUE or --option=VALUE.\n"
          "\n"
          "  --entry NAME       function to run (default: the first public function); only it\n"
          "                     and the functions it calls are compiled\n"
          "  --all-functions    compile every public function as one executable and run each\n"
          "                     in turn on the random inputs --entry would give it (with\n"
          "                     --compare: each checked); a failure is reported and the\n"
          "                     others still run\n"
          "  --output-dir DIR   with --all-functions: write result K of function NAME to\n"
          "                     DIR/NAME.K.npy (DIR must exist)\n"
          "  --input FILE.npy   an input, repeated in argument order (default: random, seeded)\n"
          "  --input-shape NAME=DIMS  the dims a random input's type leaves dynamic, e.g.\n"
          "                     x=1x3x224x224 (NAME: the ONNX input name or the input's\n"
          "                     number); repeated per input\n"
          "  --shapes FILE      run every line's shapes (NAME=DIMS ..., as --input-shape)\n"
          "                     through one compiled executable: per shape the output\n"
          "                     shapes, latency (after a warm-up, the median of --repeat\n"
          "                     runs, default 1), peak intermediate memory and, with\n"
          "                     --compare, the check against the interpreter\n"
          "  --output FILE.npy  where to write an output, repeated in result order\n"
          "  --seed N           seed for random inputs (default 0); input i uses seed N+i;\n"
          "                     floats in [-1,1), ints in [-8,8), unsigned in [0,16), i1 0/1\n"
          "  --target NAME      the target to compile for and run on (default cpu)\n"
          "  --list-targets     list the targets and exit\n"
          "  --device N         the target's device (opencl, vulkan; default $STRATA_DEVICE, else 0)\n"
          "  --list-devices     list the --target's devices and exit\n"
          "  --interpret        run the reference interpreter instead of the target\n"
          "  --compare          run both; report max abs/rel error; fail beyond tolerance\n"
          "  --atol X --rtol X  --compare tolerance: |jit-ref| <= atol + rtol*|ref| (1e-4, 1e-4)\n"
          "  --repeat N         after a warm-up, time N runs and print 'median <t> ms'\n"
          "  --threads N        threads of the runtime kernels (conv, matmul; 1-64, default 1)\n"
          "  --max-memory SIZE  cap on the memory the compiled code's runtime holds at once\n"
          "                     (bytes, or with a K, M or G suffix); beyond it a run fails\n"
          "  --upstream-lowering  compile with the target's baseline lowering (cpu:\n"
          "                     strata-cpu-pipeline-upstream: no runtime kernels, no arena,\n"
          "                     upstream MLIR's loops)\n"
          "  --fusion MODE      none (no fusion: kernels without epilogues, a loop nest per\n"
          "                     op), fixed (kernel epilogues; the default) or dnnfusion\n"
          "                     (nn-fuse planning + fused code generation)\n"
          "  --fuse-profile MODE  how dnnfusion settles the fusion table's profile cells:\n"
          "                     measure (time candidates on this machine; the default), db\n"
          "                     (the database only), always (fuse) or never (keep apart)\n"
          "  --fuse-profile-db FILE  latency database of nn-fuse's profile cells (dnnfusion;\n"
          "                     created on first use, reused later)\n"
          "  --sparse MODE      pattern sparsity (PatDNN) before compiling: detect (convert\n"
          "                     the convolutions whose weights already follow <= 8\n"
          "                     patterns; weights unchanged), or prune=N and/or rate=R\n"
          "                     (prune to the N most frequent patterns, keep 1/R of each\n"
          "                     layer's kernels; CHANGES the results), e.g. prune=8,rate=3.6\n"
          "  --sparse-tune      with --sparse: time tile/unroll/loop-order candidates per layer\n"
          "  --sparse-tune-db FILE  with --sparse: --sparse-tune, measurements cached in FILE\n"
          "                     (created on first use; a later run measures nothing new)\n"
          "  --sparse-report    with --sparse: print per layer the patterns, kernels kept,\n"
          "                     FLOP cut, tuning and index overhead\n"
          "  --instrument SPEC  run the instrument pass first, e.g. 'tool=trace ops=nn.conv*'\n"
          "                     (tools: flops, trace, profile, prune, fakequant, dump)\n"
          "  --quantized int8   run a QDQ model's quantized Conv/MatMul/Gemm on its int8\n"
          "                     tensors, as ONNX Runtime does (nn-qdq-to-qlinear; may differ\n"
          "                     from the float graph by one quantization step)\n"
          "  --predicate MODE   predicate data-dependent scf.if/scf.while first (Grape):\n"
          "                     masked (arith.select over speculated safe ops) or skip\n"
          "                     (a branch per guard); see docs/pred.md\n"
          "  --trace-out FILE   write the trace/profile JSON of the JIT runs to FILE\n"
          "  --debug-numerics   report the first op whose compiled output differs from the\n"
          "                     interpreter's beyond --atol/--rtol (every f32 op output)\n"
          "  --dump-dir DIR     with --debug-numerics: write op<ID>_<I>.{jit,ref}.npy there\n"
          "  -O N               LLVM optimization level 0-3 (default 2)\n"
          "  --cache-dir DIR    keep compiled code in DIR and reuse it when the same model\n"
          "                     is compiled again with the same options on this CPU\n"
          "                     (default: $STRATA_CACHE_DIR, else $XDG_CACHE_HOME/strata,\n"
          "                     else ~/.cache/strata; STRATA_CACHE_DIR= turns it off)\n"
          "  --no-cache         neither read nor write the compile cache\n"
          "  --quiet            do not print output values\n"
          "  --stats            print the kernel launches and copies a call makes on the\n"
          "                     device (GPU targets)\n"
          "  --version, --help\n");
}




/* Appends option `a` (and its value) to the options that shape the code. */
static void noteCodeOption(Options *o, const char *a, const char *val) {
  int n = snprintf(o->codeArgs + o->codeArgsLen, sizeof o->codeArgs - o->codeArgsLen, "%s%s%s", a, val ? "=" : "",
                   val ? val : "");
  if (n < 0 || (size_t)n + 1 >= sizeof o->codeArgs - o->codeArgsLen) o->codeArgsOverflow = true;
  else o->codeArgsLen += (size_t)n + 1; /* each one NUL-terminated */
}

int parseArgs(int argc, char **argv, Options *o) {
  *o = (Options){.repeat = 0, .threads = 1, .optLevel = 2, .target = "cpu", .atol = 1e-4, .rtol = 1e-4};
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
    else if (!strcmp(a, "--stats")) o->stats = true;
    else if (!strcmp(a, "--list-targets")) o->listTargets = true;
    else if (!strcmp(a, "--list-devices")) o->listDevices = true;
    else if (!strcmp(a, "--device")) { NEED_VALUE(); o->device = val; }
    else if (!strcmp(a, "--target")) { NEED_VALUE(); o->target = val; }
    else if (!strcmp(a, "--entry")) { NEED_VALUE(); o->entry = val; }
    else if (!strcmp(a, "--all-functions")) o->allFunctions = true;
    else if (!strcmp(a, "--output-dir")) { NEED_VALUE(); o->outputDir = val; }
    else if (!strcmp(a, "--input")) {
      NEED_VALUE();
      if (o->numInputs == MAX_IO) return fprintf(stderr, "error: too many --input\n"), 1;
      o->inputs[o->numInputs++] = val;
    } else if (!strcmp(a, "--input-shape")) {
      NEED_VALUE();
      if (o->numInputShapes == MAX_IO) return fprintf(stderr, "error: too many --input-shape\n"), 1;
      if (!strchr(val, '=')) return fprintf(stderr, "error: --input-shape takes NAME=DIMS, e.g. x=1x3x224x224\n"), 1;
      o->inputShapes[o->numInputShapes++] = val;
    } else if (!strcmp(a, "--shapes")) {
      NEED_VALUE();
      o->shapesFile = val;
    } else if (!strcmp(a, "--output")) {
      NEED_VALUE();
      if (o->numOutputs == MAX_IO) return fprintf(stderr, "error: too many --output\n"), 1;
      o->outputs[o->numOutputs++] = val;
    } else if (!strcmp(a, "--seed")) {
      NEED_VALUE();
      long s;
      if (!runParseLong(val, 0, __LONG_MAX__, &s)) return fprintf(stderr, "error: bad --seed '%s'\n", val), 1;
      o->seed = (unsigned long long)s;
    } else if (!strcmp(a, "--repeat")) {
      NEED_VALUE();
      if (!runParseLong(val, 1, 1000000, &o->repeat)) return fprintf(stderr, "error: bad --repeat '%s'\n", val), 1;
    } else if (!strcmp(a, "--threads")) {
      NEED_VALUE();
      if (!runParseLong(val, 1, 64, &o->threads)) return fprintf(stderr, "error: bad --threads '%s' (1 to 64)\n", val), 1;
    } else if (!strcmp(a, "--max-memory")) {
      NEED_VALUE();
      if (!runParseSize(val, &o->maxMemory)) return fprintf(stderr, "error: bad --max-memory '%s'\n", val), 1;
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
    } else if (!strcmp(a, "--sparse")) {
      NEED_VALUE();
      o->sparse.mode = val;
    } else if (!strcmp(a, "--sparse-tune")) {
      o->sparse.tune = true;
    } else if (!strcmp(a, "--sparse-tune-db")) {
      NEED_VALUE();
      o->sparse.tuneDb = val;
    } else if (!strcmp(a, "--sparse-report")) {
      o->sparse.report = "-";
    } else if (!strcmp(a, "--instrument")) {
      NEED_VALUE();
      if (strpbrk(val, "{}"))
        return fprintf(stderr, "error: --instrument '%s' may not contain braces\n", val), 1;
      o->instrument = val;
    } else if (!strcmp(a, "--quantized")) {
      NEED_VALUE();
      if (strcmp(val, "int8")) return fprintf(stderr, "error: bad --quantized '%s' (int8)\n", val), 1;
      o->quantized = true;
    } else if (!strcmp(a, "--predicate")) {
      NEED_VALUE();
      if (strcmp(val, "masked") && strcmp(val, "skip"))
        return fprintf(stderr, "error: bad --predicate '%s' (masked or skip)\n", val), 1;
      o->predicate = val;
    } else if (!strcmp(a, "--debug-numerics")) {
      o->debugNumerics = true;
    } else if (!strcmp(a, "--dump-dir")) {
      NEED_VALUE();
      o->dumpDir = val;
    } else if (!strcmp(a, "--trace-out")) {
      NEED_VALUE();
      o->traceOut = val;
    } else if (!strcmp(a, "--cache-dir")) {
      NEED_VALUE();
      if (!*val) return fprintf(stderr, "error: --cache-dir needs a directory\n"), 1;
      o->cacheDir = val;
    } else if (!strcmp(a, "--no-cache")) {
      o->noCache = true;
    } else if (!strcmp(a, "-O")) {
      NEED_VALUE();
      if (!runParseLong(val, 0, 3, &o->optLevel)) return fprintf(stderr, "error: bad -O '%s'\n", val), 1;
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
    if (a[0] == '-' && a[1] && !runOptionIsRunOnly(a)) noteCodeOption(o, a, tookValue ? val : NULL);
#undef NEED_VALUE
  }
  if (o->listTargets || o->listDevices) return 0;
  if (!o->file) return fprintf(stderr, "error: no model file given (see --help)\n"), 1;
  if (o->fuseDb && (!o->fusion || strcmp(o->fusion, "dnnfusion")))
    return fprintf(stderr, "error: --fuse-profile-db needs --fusion dnnfusion\n"), 1;
  if (o->fuseProfile && (!o->fusion || strcmp(o->fusion, "dnnfusion")))
    return fprintf(stderr, "error: --fuse-profile needs --fusion dnnfusion\n"), 1;
  if (o->fuseProfile && !strcmp(o->fuseProfile, "db") && !o->fuseDb)
    return fprintf(stderr, "error: --fuse-profile db needs --fuse-profile-db FILE\n"), 1;
  if ((o->sparse.tune || o->sparse.tuneDb || o->sparse.report) && !o->sparse.mode)
    return fprintf(stderr, "error: --sparse-tune, --sparse-tune-db and --sparse-report need --sparse MODE\n"), 1;
  if (o->sparse.mode) {
    char why[512];
    o->sparse.target = o->target;
    char *pipeline = strataSparsePipeline(&o->sparse, why, sizeof why);
    if (!pipeline) return fprintf(stderr, "error: --sparse: %s\n", why), 1;
    free(pipeline);
  }
  if (o->dumpDir && !o->debugNumerics)
    return fprintf(stderr, "error: --dump-dir needs --debug-numerics\n"), 1;
  if (o->debugNumerics && (o->instrument || o->mode != MODE_JIT || o->repeat))
    return fprintf(stderr, "error: --debug-numerics runs alone (not with --instrument, --interpret, "
                   "--compare or --repeat)\n"), 1;
  if (o->shapesFile && (o->numInputs || o->numInputShapes || o->numOutputs || o->debugNumerics || o->traceOut))
    return fprintf(stderr, "error: --shapes makes its own inputs and writes no files (not with --input, "
                   "--input-shape, --output, --debug-numerics or --trace-out)\n"), 1;
  if (o->allFunctions && (o->entry || o->numInputs || o->numInputShapes || o->numOutputs || o->shapesFile ||
                          o->debugNumerics || o->repeat || o->traceOut || o->stats))
    return fprintf(stderr, "error: --all-functions runs each function once on random inputs (not with --entry, "
                   "--input, --input-shape, --output, --shapes, --debug-numerics, --repeat, --trace-out or "
                   "--stats)\n"), 1;
  if (o->outputDir && !o->allFunctions)
    return fprintf(stderr, "error: --output-dir needs --all-functions (one function: --output)\n"), 1;
  if (o->numInputShapes && o->numInputs)
    return fprintf(stderr, "error: --input-shape shapes random inputs (not with --input)\n"), 1;
  if (o->traceOut && !o->instrument)
    return fprintf(stderr, "error: --trace-out needs --instrument\n"), 1;
  if (o->stats && (o->mode == MODE_INTERPRET || o->shapesFile || o->debugNumerics))
    return fprintf(stderr, "error: --stats reports a compiled call; it does not work with --interpret, "
                   "--shapes or --debug-numerics\n"), 1;
  if (o->traceOut && o->mode == MODE_INTERPRET)
    return fprintf(stderr, "error: --trace-out records JIT runs; it does not work with --interpret\n"), 1;
  if (o->noCache && o->cacheDir)
    return fprintf(stderr, "error: --cache-dir and --no-cache exclude each other\n"), 1;
  if (!o->noCache && !o->cacheDir) o->cacheDir = strataDefaultCacheDir(o->cacheBuf, sizeof o->cacheBuf);
  if (o->noCache) o->cacheDir = NULL;
  if (o->upstream && o->fusion)
    return fprintf(stderr, "error: --upstream-lowering and --fusion exclude each other\n"), 1;
  return 0;
}
