/* Sampling ops: GridSample (N-D: x [N, C, D1..Dr], grid [N, O1..Or, r]
 * with grid[..., k] the coordinate along Dr-k, ONNX's x-then-y order).
 * The op table, shape inference, the coordinate math (nn_sample.h) and
 * the interpreter. A tap outside the input adds nothing (padding_mode
 * zeros, and NaN coordinates in every mode), as PyTorch's grid_sample. */
#include <math.h>
#include <string.h>
#include "nn_movement_params.h"
#include "nn_sample.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

/* ---- GridSample: attributes and coordinates ---- */

bool nnGridSampleAttrs(MlirOperation op, NnGridSample *g) {
  char mode[16], padding[16];
  int64_t align;
  if (!nnAttrString(op, "mode", "bilinear", "bilinear|nearest|bicubic|linear|cubic", mode, sizeof mode) ||
      !nnAttrString(op, "padding_mode", "zeros", "zeros|border|reflection", padding, sizeof padding) ||
      !nnAttrInt(op, "align_corners", 0, &align))
    return false;
  if (align != 0 && align != 1) {
    nnError(op, "attribute 'align_corners' must be 0 or 1");
    return false;
  }
  g->mode = !strcmp(mode, "nearest") ? NN_GRID_NEAREST : strstr(mode, "linear") ? NN_GRID_LINEAR : NN_GRID_CUBIC;
  g->padding = !strcmp(padding, "zeros") ? NN_GRID_ZEROS : !strcmp(padding, "border") ? NN_GRID_BORDER : NN_GRID_REFLECTION;
  g->align = align;
  return true;
}

double nnGridUnnormalize(const NnGridSample *g, double v, int64_t size) {
  double s = (double)size;
  return g->align ? (v + 1) / 2 * (s - 1) : ((v + 1) * s - 1) / 2;
}

/* Clamps without fmin/fmax, which would turn NaN into a bound. */
static double clampNaN(double x, double hi) { return x < 0 ? 0 : x > hi ? hi : x; }

double nnGridPad(const NnGridSample *g, double x, int64_t size) {
  double hi = (double)(size - 1);
  if (g->padding == NN_GRID_ZEROS) return x;
  if (g->padding == NN_GRID_REFLECTION) {
    /* reflect between low and high = the borders, span apart */
    double low = g->align ? 0 : -0.5, span = g->align ? hi : (double)size;
    if (span <= 0) return 0;
    double a = fabs(x - low), extra = fmod(a, span), flips = floor(a / span);
    x = fmod(flips, 2) == 0 ? low + extra : low + span - extra;
  }
  return clampNaN(x, hi);
}

/* ---- GridSample: shapes ---- */

static MlirLogicalResult inferGridSample(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, grid;
  NnGridSample g;
  if (!nnOperand(def, op, "x", &x) || !nnOperand(def, op, "grid", &grid) || !nnCheckType(op, "x", &x, NN_FLOAT) ||
      !nnSameType(op, "x", &x, "grid", &grid) || !nnGridSampleAttrs(op, &g))
    return fail();
  int r = x.rank - 2;
  if (r < 1 || r > 3) {
    nnError(op, "operand 'x' must have rank 3 to 5 (N x C x 1 to 3 spatial dims)");
    return fail();
  }
  char buf[300];
  if (grid.rank != x.rank || (grid.dims[r + 1] != -1 && grid.dims[r + 1] != r)) {
    nnError(op, "%s must be [N, out spatial dims..., %d] for an x of rank %d", nnDescribe("grid", &grid, buf, sizeof buf),
            r, x.rank);
    return fail();
  }
  if (x.dims[0] != -1 && grid.dims[0] != -1 && x.dims[0] != grid.dims[0]) {
    nnError(op, "operands 'x' and 'grid' must have the same batch size (%lld vs %lld)", (long long)x.dims[0],
            (long long)grid.dims[0]);
    return fail();
  }
  int64_t dims[STRATA_MAX_RANK] = {x.dims[0] != -1 ? x.dims[0] : grid.dims[0], x.dims[1]};
  for (int i = 0; i < r; i++) dims[2 + i] = grid.dims[1 + i];
  nnSetShape(res, x.rank, dims, x.elementType);
  return mlirLogicalResultSuccess();
}

/* ---- GridSample: interpretation ---- */

static MlirLogicalResult interpGridSample(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  NnGridSample g;
  if (!nnGridSampleAttrs(op, &g)) return fail();
  const StrataTensor *X = x[0], *grid = x[1];
  int rank = X->rank, r = rank - 2;
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(y[0]);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, y[0]->dims, rank)) {
    /* per spatial dim i: the taps' positions (doubles: checked in bounds
     * before they become indices) and weights */
    double pos[3][4], w[3][4];
    int taps[3], corners = 1;
    int64_t gflat = idx[0];
    for (int i = 0; i < r; i++) gflat = gflat * grid->dims[1 + i] + idx[2 + i];
    for (int i = 0; i < r; i++) {
      int64_t size = X->dims[2 + i];
      double c = nnGridUnnormalize(&g, strataTensorGetDouble(grid, gflat * r + (r - 1 - i)), size);
      if (g.mode == NN_GRID_CUBIC) {
        double f = floor(c);
        nnCubicWeights(c - f, -0.75, w[i]);
        for (int k = 0; k < 4; k++) pos[i][k] = nnGridPad(&g, f + k - 1, size);
        taps[i] = 4;
      } else if (g.mode == NN_GRID_LINEAR) {
        c = nnGridPad(&g, c, size);
        double f = floor(c);
        pos[i][0] = f, pos[i][1] = f + 1, w[i][0] = 1 - (c - f), w[i][1] = c - f;
        taps[i] = 2;
      } else {
        pos[i][0] = nearbyint(nnGridPad(&g, c, size)), w[i][0] = 1;
        taps[i] = 1;
      }
      corners *= taps[i];
    }
    double acc = 0;
    for (int corner = 0; corner < corners; corner++) {
      double weight = 1;
      int64_t flat = idx[0] * X->dims[1] + idx[1];
      bool inside = true;
      for (int i = 0, rest = corner; i < r; i++) {
        int k = rest % taps[i];
        rest /= taps[i];
        double p = pos[i][k];
        inside &= p >= 0 && p <= (double)(X->dims[2 + i] - 1);
        flat = flat * X->dims[2 + i] + (inside ? (int64_t)p : 0);
        weight *= w[i][k];
      }
      if (inside) acc += weight * strataTensorGetDouble(X, flat);
    }
    strataTensorSetDouble(y[0], e, acc);
  }
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.grid_sample",
     .summary = "sample x [N, C, D1..Dr] (r = 1..3) at grid [N, O1..Or, r] (values in [-1, 1], x-coordinate first): "
                "mode bilinear|nearest|bicubic (opset 20: linear|cubic), padding_mode zeros|border|reflection, "
                "align_corners",
     .operands = "x, grid",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferGridSample,
     .interpret = interpGridSample,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f16 f32 f64"},
};

const StrataOpTable nnSampleTable = {kOps, sizeof kOps / sizeof kOps[0]};
