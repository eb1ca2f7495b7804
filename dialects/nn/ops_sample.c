/* Sampling ops: GridSample (N-D: x [N, C, D1..Dr], grid [N, O1..Or, r]
 * with grid[..., k] the coordinate along Dr-k, ONNX's x-then-y order) and
 * RoiAlign. The op table, shape inference, the coordinate math
 * (nn_sample.h) and the interpreter. GridSample: a tap outside the input
 * adds nothing (padding_mode zeros, and NaN coordinates in every mode), as
 * PyTorch's grid_sample. RoiAlign: ONNX Runtime's sampling (which ONNX's
 * reference follows), max mode the maximum of weighted corners. */
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

/* ---- RoiAlign ---- */

bool nnRoiAlignAttrs(MlirOperation op, NnRoiAlign *r) {
  char mode[8], coord[24];
  if (!nnAttrString(op, "mode", "avg", "avg|max", mode, sizeof mode) ||
      !nnAttrString(op, "coordinate_transformation_mode", "half_pixel", "half_pixel|output_half_pixel", coord,
                    sizeof coord) ||
      !nnAttrInt(op, "output_height", 1, &r->outH) || !nnAttrInt(op, "output_width", 1, &r->outW) ||
      !nnAttrInt(op, "sampling_ratio", 0, &r->sampling) || !nnAttrFloat(op, "spatial_scale", 1.0, &r->scale))
    return false;
  if (r->outH < 1 || r->outW < 1 || r->sampling < 0) {
    nnError(op, "attributes 'output_height' and 'output_width' must be positive and 'sampling_ratio' not negative");
    return false;
  }
  r->max = !strcmp(mode, "max");
  r->halfPixel = !strcmp(coord, "half_pixel");
  return true;
}

void nnRoiGeometry(const NnRoiAlign *r, const double box[4], NnRoiGeometry *g) {
  double offset = r->halfPixel ? 0.5 : 0, bins[2] = {(double)r->outH, (double)r->outW};
  for (int k = 0; k < 2; k++) { /* k = 0: y (H), box[1], box[3]; k = 1: x (W), box[0], box[2] */
    double start = box[1 - k] * r->scale - offset, extent = box[3 - k] * r->scale - offset - start;
    if (!r->halfPixel && !(extent >= 1)) extent = 1; /* as ONNX Runtime: max(extent, 1) */
    g->start[k] = start;
    g->bin[k] = extent / bins[k];
    double n = r->sampling > 0 ? (double)r->sampling : ceil(extent / bins[k]);
    g->samples[k] = n > 0 ? n : 0; /* NaN too */
  }
  g->count = g->samples[0] * g->samples[1] > 1 ? g->samples[0] * g->samples[1] : 1;
}

static MlirLogicalResult inferRoiAlign(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, rois, bi;
  NnRoiAlign r;
  char buf[300];
  if (!nnOperand(def, op, "x", &x) || !nnOperand(def, op, "rois", &rois) || !nnOperand(def, op, "batch_indices", &bi) ||
      !nnCheckType(op, "x", &x, NN_FLOAT) || !nnSameType(op, "x", &x, "rois", &rois) ||
      !nnCheckType(op, "batch_indices", &bi, NN_T(STRATA_DTYPE_I64)) || !nnRoiAlignAttrs(op, &r))
    return fail();
  if (x.rank != 4) {
    nnError(op, "%s must be 4-D (N, C, H, W)", nnDescribe("x", &x, buf, sizeof buf));
    return fail();
  }
  if (rois.rank != 2 || (rois.dims[1] != -1 && rois.dims[1] != 4)) {
    nnError(op, "%s must be [num_rois, 4]", nnDescribe("rois", &rois, buf, sizeof buf));
    return fail();
  }
  if (bi.rank != 1 || (bi.dims[0] != -1 && rois.dims[0] != -1 && bi.dims[0] != rois.dims[0])) {
    nnError(op, "%s must be [num_rois] (%lld)", nnDescribe("batch_indices", &bi, buf, sizeof buf), (long long)rois.dims[0]);
    return fail();
  }
  int64_t dims[4] = {rois.dims[0] != -1 ? rois.dims[0] : bi.dims[0], x.dims[1], r.outH, r.outW};
  nnSetShape(res, 4, dims, x.elementType);
  return mlirLogicalResultSuccess();
}

/* ONNX Runtime's bilinear sample at (y, x): the 4 corners' flat offsets in
 * an H x W plane and weights; false (the sample adds 0) outside
 * [-1, H] x [-1, W] or at NaN. */
static bool roiBilinear(double y, double x, int64_t H, int64_t W, int64_t at[4], double w[4]) {
  if (!(y >= -1 && y <= (double)H && x >= -1 && x <= (double)W)) return false;
  double c[2] = {y <= 0 ? 0 : y, x <= 0 ? 0 : x}, l[2];
  int64_t lo[2], hi[2], size[2] = {H, W};
  for (int k = 0; k < 2; k++) {
    lo[k] = (int64_t)c[k];
    if (lo[k] >= size[k] - 1) hi[k] = lo[k] = size[k] - 1, c[k] = (double)lo[k];
    else hi[k] = lo[k] + 1;
    l[k] = c[k] - (double)lo[k];
  }
  at[0] = lo[0] * W + lo[1], at[1] = lo[0] * W + hi[1], at[2] = hi[0] * W + lo[1], at[3] = hi[0] * W + hi[1];
  w[0] = (1 - l[0]) * (1 - l[1]), w[1] = (1 - l[0]) * l[1], w[2] = l[0] * (1 - l[1]), w[3] = l[0] * l[1];
  return true;
}

static double maxOf(double a, double b) { return a < b ? b : a; } /* std::max, as ONNX Runtime */

static MlirLogicalResult interpRoiAlign(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  NnRoiAlign r;
  if (!nnRoiAlignAttrs(op, &r)) return fail();
  const StrataTensor *X = x[0];
  int64_t N = X->dims[0], C = X->dims[1], H = X->dims[2], W = X->dims[3], idx[4] = {0};
  int64_t n = strataTensorNumElements(y[0]);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, y[0]->dims, 4)) {
    int64_t b = nnGetInt(x[2], idx[0]);
    if (b < 0 || b >= N)
      return nnInterpError(op, "batch index %lld of roi %lld is outside [0, %lld)", (long long)b, (long long)idx[0],
                           (long long)N);
    double box[4];
    for (int k = 0; k < 4; k++) box[k] = strataTensorGetDouble(x[1], idx[0] * 4 + k);
    NnRoiGeometry g;
    nnRoiGeometry(&r, box, &g);
    int64_t plane = (b * C + idx[1]) * H * W;
    double acc = r.max ? -INFINITY : 0;
    for (double iy = 0; iy < g.samples[0]; iy++)
      for (double ix = 0; ix < g.samples[1]; ix++) {
        double yy = g.start[0] + (double)idx[2] * g.bin[0] + (iy + 0.5) * g.bin[0] / g.samples[0];
        double xx = g.start[1] + (double)idx[3] * g.bin[1] + (ix + 0.5) * g.bin[1] / g.samples[1];
        int64_t at[4];
        double w[4], v[4] = {0, 0, 0, 0};
        if (roiBilinear(yy, xx, H, W, at, w))
          for (int k = 0; k < 4; k++) v[k] = w[k] * strataTensorGetDouble(X, plane + at[k]);
        acc = r.max ? maxOf(acc, maxOf(maxOf(maxOf(v[0], v[1]), v[2]), v[3])) : acc + v[0] + v[1] + v[2] + v[3];
      }
    if (r.max && g.samples[0] * g.samples[1] == 0) acc = 0;
    strataTensorSetDouble(y[0], e, r.max ? acc : acc / g.count);
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
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.roi_align",
     .summary = "pool x [N, C, H, W] over `rois` [R, 4] (x1, y1, x2, y2, times spatial_scale) of images "
                "`batch_indices` [R] into [R, C, output_height, output_width] bins: bilinear samples "
                "(sampling_ratio per bin, 0 adaptive), mode avg|max, coordinate_transformation_mode "
                "half_pixel|output_half_pixel",
     .operands = "x, rois, batch_indices",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferRoiAlign,
     .interpret = interpRoiAlign,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f16 bf16 f32 f64 i64"},
};

const StrataOpTable nnSampleTable = {kOps, sizeof kOps / sizeof kOps[0]};
