/* A Winograd convolution (3x3, stride 1, 64 channels) whose weights are not
 * constants, called twice with different weights at the same address, and
 * then a second convolution of the same size with its own weights: each
 * call matches a direct convolution of its own weights. The transformed
 * weights live in kernel scratch, at an address the next call (or kernel)
 * gets again; they were packed as a cached constant keyed by that address,
 * so later calls computed with the first call's weights.
 * RUN: %capi/winograd_runtime_weights 2>&1 | FileCheck %s
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "memref.h"
#include "status.h"

enum { C = 64, H = 12, W = 14 }; /* 6 x 7 tiles: Winograd takes it */

/* y = conv(x, w), pads 1, stride 1 (no bias) */
static void direct(const float *x, const float *w, float *y) {
  for (int m = 0; m < C; m++)
    for (int oh = 0; oh < H; oh++)
      for (int ow = 0; ow < W; ow++) {
        double s = 0;
        for (int c = 0; c < C; c++)
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
              int ih = oh + i - 1, iw = ow + j - 1;
              if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                s += (double)x[(c * H + ih) * W + iw] * w[((m * C + c) * 3 + i) * 3 + j];
            }
        y[(m * H + oh) * W + ow] = (float)s;
      }
}

static float x[C * H * W], w[C * C * 9], w2[C * C * 9], y[C * H * W], ref[C * H * W];

static void conv(float *weights, const char *what) {
  int64_t xd[4] = {1, C, H, W}, wd[4] = {C, C, 3, 3};
  StrataMemRefDesc dx, dw, dy;
  strataRtMemRefInit(&dx, x, 4, xd);
  strataRtMemRefInit(&dw, weights, 4, wd);
  strataRtMemRefInit(&dy, y, 4, xd);
  StrataUnrankedMemRef ux = {4, &dx}, uw = {4, &dw}, uy = {4, &dy};
  /* not constant (the 0 after group 1), no addends, no activation */
  _mlir_ciface_strata_rt_conv2d_f32(&ux, &uw, &uy, &uy, &uy, &uy, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0.0f, 0.0f, 0, 0.0f,
                                    0.0f);
  direct(x, weights, ref);
  double err = 0, span = 0;
  for (int i = 0; i < C * H * W; i++) {
    err = fmax(err, fabs((double)y[i] - ref[i]));
    span = fmax(span, fabs((double)ref[i]));
  }
  printf("%s: %s\n", what, err <= 1e-4 * span ? "matches" : "WRONG");
}

int main(void) {
  srand(1);
  for (int i = 0; i < C * H * W; i++) x[i] = (float)rand() / RAND_MAX - 0.5f;
  for (int i = 0; i < C * C * 9; i++) w[i] = (float)rand() / RAND_MAX - 0.5f;
  for (int i = 0; i < C * C * 9; i++) w2[i] = (float)rand() / RAND_MAX - 0.5f;
  conv(w, "first weights");
  // CHECK: first weights: matches
  for (int i = 0; i < C * C * 9; i++) w[i] = -2.0f * w[i] + 0.25f;
  conv(w, "new weights at the same address");
  // CHECK: new weights at the same address: matches
  conv(w2, "another convolution's weights");
  // CHECK: another convolution's weights: matches
  return 0;
}
