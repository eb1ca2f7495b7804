/* --dsp-to-vector, run: every dsp instruction op lowered to vector and
 * arith ops, compiled for the host through the CPU target's upstream
 * pipeline and JIT-run on random vectors and Rt values, agrees bit for bit
 * with the emulator (include/strata/dsp.h) -- the digest's C2 check.
 * RUN: %capi/dsp_to_vector 2>&1 | FileCheck %s
 * With `--hexagon N` the module also goes through the hexagon target (HVX
 * intrinsics, LLVM's Hexagon backend, run under qemu-hexagon) on the first
 * N rounds, and all three must agree (test/targets/hexagon/bitexact.test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

#define B "vector<128xi8>"
#define H "vector<64xi16>"
#define W "vector<32xi32>"
#define READ(name, src, T, vec, pad)                                                     \
  "  %" name " = vector.transfer_read %" src "[%c0], %" pad " {in_bounds = [true]} : tensor<" T ">, " vec "\n"

static const char *kModule =
    "func.func @f(%x0: tensor<128xi8>, %x1: tensor<128xi8>, %h0: tensor<64xi16>, %h1: tensor<64xi16>,\n"
    "             %w0: tensor<32xi32>, %w1: tensor<32xi32>, %rtt: tensor<1xi32>)\n"
    "    -> (tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<64xi16>, tensor<64xi16>,\n"
    "        tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<64xi16>,\n"
    "        tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<128xi8>, tensor<64xi16>,\n"
    "        tensor<128xi8>, tensor<128xi8>, tensor<64xi16>, tensor<64xi16>, tensor<32xi32>, tensor<32xi32>) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %p8 = arith.constant 0 : i8\n"
    "  %p16 = arith.constant 0 : i16\n"
    "  %p32 = arith.constant 0 : i32\n"
    READ("vx0", "x0", "128xi8", B, "p8") READ("vx1", "x1", "128xi8", B, "p8")
    READ("vh0", "h0", "64xi16", H, "p16") READ("vh1", "h1", "64xi16", H, "p16")
    READ("vw0", "w0", "32xi32", W, "p32") READ("vw1", "w1", "32xi32", W, "p32")
    "  %rt = tensor.extract %rtt[%c0] : tensor<1xi32>\n"
    "  %r0 = \"dsp.vrmpy\"(%vx0, %rt) : (" B ", i32) -> " W "\n"
    "  %r1 = \"dsp.vrmpy\"(%vx0, %rt) {unsigned_rt} : (" B ", i32) -> " W "\n"
    "  %r2 = \"dsp.vrmpy_acc\"(%vw0, %vx0, %rt) : (" W ", " B ", i32) -> " W "\n"
    "  %m0:2 = \"dsp.vmpy\"(%vx0, %rt) : (" B ", i32) -> (" H ", " H ")\n"
    "  %m1:2 = \"dsp.vmpy_acc\"(%vh0, %vh1, %vx0, %rt) : (" H ", " H ", " B ", i32) -> (" H ", " H ")\n"
    "  %a0:2 = \"dsp.vmpa\"(%vx0, %vx1, %rt) : (" B ", " B ", i32) -> (" H ", " H ")\n"
    "  %a1:2 = \"dsp.vmpa_acc\"(%vh0, %vh1, %vx0, %vx1, %rt) : (" H ", " H ", " B ", " B ", i32) -> (" H ", " H ")\n"
    "  %d0 = \"dsp.vdmpy\"(%vx0, %rt) : (" B ", i32) -> " H "\n"
    "  %d1 = \"dsp.vdmpy_acc\"(%vh0, %vx0, %rt) : (" H ", " B ", i32) -> " H "\n"
    "  %s0 = \"dsp.vsat\"(%vh0, %vh1) : (" H ", " H ") -> " B "\n"
    "  %s1 = \"dsp.vsat\"(%vw0, %vw1) : (" W ", " W ") -> " H "\n"
    "  %f0:2 = \"dsp.vshuff\"(%vx0, %vx1) : (" B ", " B ") -> (" B ", " B ")\n"
    "  %f1:2 = \"dsp.vshuff\"(%vh0, %vh1) : (" H ", " H ") -> (" H ", " H ")\n"
    "  %e0:2 = \"dsp.vdeal\"(%vw0, %vw1) : (" W ", " W ") -> (" W ", " W ")\n"
    "  %tb = tensor.empty() : tensor<128xi8>\n"
    "  %th = tensor.empty() : tensor<64xi16>\n"
    "  %tw = tensor.empty() : tensor<32xi32>\n"
    "  %o0 = vector.transfer_write %r0, %tw[%c0] {in_bounds = [true]} : " W ", tensor<32xi32>\n"
    "  %o1 = vector.transfer_write %r1, %tw[%c0] {in_bounds = [true]} : " W ", tensor<32xi32>\n"
    "  %o2 = vector.transfer_write %r2, %tw[%c0] {in_bounds = [true]} : " W ", tensor<32xi32>\n"
    "  %o3 = vector.transfer_write %m0#0, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o4 = vector.transfer_write %m0#1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o5 = vector.transfer_write %m1#0, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o6 = vector.transfer_write %m1#1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o7 = vector.transfer_write %a0#0, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o8 = vector.transfer_write %a0#1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o9 = vector.transfer_write %a1#0, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o10 = vector.transfer_write %a1#1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o11 = vector.transfer_write %d0, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o12 = vector.transfer_write %d1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o13 = vector.transfer_write %s0, %tb[%c0] {in_bounds = [true]} : " B ", tensor<128xi8>\n"
    "  %o14 = vector.transfer_write %s1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o15 = vector.transfer_write %f0#0, %tb[%c0] {in_bounds = [true]} : " B ", tensor<128xi8>\n"
    "  %o16 = vector.transfer_write %f0#1, %tb[%c0] {in_bounds = [true]} : " B ", tensor<128xi8>\n"
    "  %o17 = vector.transfer_write %f1#0, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o18 = vector.transfer_write %f1#1, %th[%c0] {in_bounds = [true]} : " H ", tensor<64xi16>\n"
    "  %o19 = vector.transfer_write %e0#0, %tw[%c0] {in_bounds = [true]} : " W ", tensor<32xi32>\n"
    "  %o20 = vector.transfer_write %e0#1, %tw[%c0] {in_bounds = [true]} : " W ", tensor<32xi32>\n"
    "  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14, %o15, %o16,"
    " %o17, %o18, %o19, %o20 : tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<64xi16>,"
    " tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<64xi16>,"
    " tensor<64xi16>, tensor<64xi16>, tensor<64xi16>, tensor<128xi8>, tensor<64xi16>, tensor<128xi8>,"
    " tensor<128xi8>, tensor<64xi16>, tensor<64xi16>, tensor<32xi32>, tensor<32xi32>\n"
    "}\n";

static uint64_t rng = 0xD1B54A32D192ED03ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

enum { NOUT = 21 };

int main(int argc, char **argv) {
  int hexRounds = argc == 3 && !strcmp(argv[1], "--hexagon") ? atoi(argv[2]) : 0;
  StrataContext *ctx = strataContextCreate();
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "dsp_to_vector.mlir");
  if (mlirModuleIsNull(m)) return 1;
  char pipeline[4096];
  /* The vector lowering leaves ub.poison behind (vector.shuffle and
   * from_elements start from it), which the CPU pipeline has no pass for. */
  snprintf(pipeline, sizeof pipeline, "func.func(dsp-to-vector),%s,convert-ub-to-llvm,reconcile-unrealized-casts",
           strataCpuPipelineUpstream());
  StrataJit *jit = strataJitCreateWithPipeline(ctx, m, pipeline, 2);
  // CHECK: compiled: yes
  printf("compiled: %s\n", jit ? "yes" : "no");
  if (!jit) return 1;
  StrataExecutable *hex = NULL;
  if (hexRounds) {
    hex = strataCompile(ctx, m, "hexagon", NULL);
    printf("hexagon compiled: %s\n", hex ? "yes" : "no");
    if (!hex) return 1;
  }
  int64_t n128 = 128, n64 = 64, n32 = 32, n1 = 1;
  StrataTensor *in[7] = {strataTensorCreate(STRATA_DTYPE_I8, 1, &n128), strataTensorCreate(STRATA_DTYPE_I8, 1, &n128),
                         strataTensorCreate(STRATA_DTYPE_I16, 1, &n64), strataTensorCreate(STRATA_DTYPE_I16, 1, &n64),
                         strataTensorCreate(STRATA_DTYPE_I32, 1, &n32), strataTensorCreate(STRATA_DTYPE_I32, 1, &n32),
                         strataTensorCreate(STRATA_DTYPE_I32, 1, &n1)};
  static const char kinds[NOUT + 1] = "wwwhhhhhhhhhhbhbbhhww";
  StrataTensor *out[NOUT], *ref[NOUT], *hexOut[NOUT];
  for (int i = 0; i < NOUT; i++) {
    StrataDType d = kinds[i] == 'w' ? STRATA_DTYPE_I32 : kinds[i] == 'h' ? STRATA_DTYPE_I16 : STRATA_DTYPE_I8;
    int64_t len = kinds[i] == 'w' ? 32 : kinds[i] == 'h' ? 64 : 128;
    out[i] = strataTensorCreate(d, 1, &len);
    ref[i] = strataTensorCreate(d, 1, &len);
    hexOut[i] = strataTensorCreate(d, 1, &len);
  }
  int exact = 0, total = 0, rounds = 20, hexExact = 0, hexX86 = 0, hexTotal = 0;
  for (int round = 0; round < rounds; round++) {
    for (int t = 0; t < 7; t++) {
      uint8_t *p = in[t]->data;
      for (size_t k = 0; k < strataTensorNumBytes(in[t]); k++) p[k] = (uint8_t)next();
    }
    const uint8_t *x0 = in[0]->data, *x1 = in[1]->data;
    const int16_t *h0 = in[2]->data, *h1 = in[3]->data;
    const int32_t *w0 = in[4]->data, *w1 = in[5]->data;
    uint32_t rt = (uint32_t)((int32_t *)in[6]->data)[0];
    strataDspVrmpy(ref[0]->data, x0, rt, true, false);
    strataDspVrmpy(ref[1]->data, x0, rt, false, false);
    memcpy(ref[2]->data, w0, 128);
    strataDspVrmpy(ref[2]->data, x0, rt, true, true);
    strataDspVmpy(ref[3]->data, ref[4]->data, x0, rt, false);
    memcpy(ref[5]->data, h0, 128);
    memcpy(ref[6]->data, h1, 128);
    strataDspVmpy(ref[5]->data, ref[6]->data, x0, rt, true);
    strataDspVmpa(ref[7]->data, ref[8]->data, x0, x1, rt, false);
    memcpy(ref[9]->data, h0, 128);
    memcpy(ref[10]->data, h1, 128);
    strataDspVmpa(ref[9]->data, ref[10]->data, x0, x1, rt, true);
    strataDspVdmpy(ref[11]->data, x0, rt, false);
    memcpy(ref[12]->data, h0, 128);
    strataDspVdmpy(ref[12]->data, x0, rt, true);
    strataDspVsatHalfToByte(ref[13]->data, h0, h1);
    strataDspVsatWordToHalf(ref[14]->data, w0, w1);
    strataDspVshuff(ref[15]->data, ref[16]->data, x0, x1, 1);
    strataDspVshuff(ref[17]->data, ref[18]->data, h0, h1, 2);
    strataDspVdeal(ref[19]->data, ref[20]->data, w0, w1, 4);
    if (mlirLogicalResultIsFailure(strataJitInvoke(jit, "f", in, 7, out, NOUT))) return 1;
    for (int i = 0; i < NOUT; i++) {
      bool same = !memcmp(out[i]->data, ref[i]->data, strataTensorNumBytes(ref[i]));
      exact += same;
      total++;
      if (!same && round == 0) printf("output %d differs\n", i);
    }
    if (round >= hexRounds) continue;
    if (mlirLogicalResultIsFailure(strataExecutableInvoke(hex, "f", in, 7, hexOut, NOUT))) return 1;
    for (int i = 0; i < NOUT; i++) {
      size_t bytes = strataTensorNumBytes(ref[i]);
      bool same = !memcmp(hexOut[i]->data, ref[i]->data, bytes);
      hexExact += same;
      hexX86 += !memcmp(hexOut[i]->data, out[i]->data, bytes);
      hexTotal++;
      if (!same && round == 0) printf("hexagon output %d differs\n", i);
    }
  }
  if (hex) {
    printf("hexagon bit-exact against the emulator: %d of %d\n", hexExact, hexTotal);
    printf("hexagon bit-exact against dsp-to-vector: %d of %d\n", hexX86, hexTotal);
    strataExecutableDestroy(hex);
  }
  // CHECK: bit-exact against the emulator: 420 of 420
  printf("bit-exact against the emulator: %d of %d\n", exact, total);
  for (int i = 0; i < NOUT; i++) {
    strataTensorDestroy(out[i]);
    strataTensorDestroy(ref[i]);
    strataTensorDestroy(hexOut[i]);
  }
  for (int t = 0; t < 7; t++) strataTensorDestroy(in[t]);
  strataJitDestroy(jit);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
