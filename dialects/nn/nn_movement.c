/* Source indices of data-movement ops, for the reference interpreter: for
 * an output element, the input element it copies (or the pad value). The
 * ops' parameters come from movement_params.c. */
#include <string.h>
#include "nn_movement.h"

enum { K_TRANSPOSE, K_CONCAT, K_SLICE, K_GATHER, K_GATHER_ELEMENTS, K_EXPAND, K_TILE, K_PAD,
       K_DEPTH_TO_SPACE, K_SPACE_TO_DEPTH };

static const struct {
  const char *name;
  int kind;
} kKinds[] = {
    {"nn.transpose", K_TRANSPOSE}, {"nn.concat", K_CONCAT}, {"nn.slice", K_SLICE},
    {"nn.gather", K_GATHER}, {"nn.gather_elements", K_GATHER_ELEMENTS}, {"nn.expand", K_EXPAND},
    {"nn.tile", K_TILE}, {"nn.pad", K_PAD},
    {"nn.depth_to_space", K_DEPTH_TO_SPACE}, {"nn.space_to_depth", K_SPACE_TO_DEPTH},
};

bool nnSourceInit(const StrataOpDef *def, MlirOperation op, StrataTensor *const *x, StrataTensor **y,
                  NnSource *s) {
  memset(s, 0, sizeof *s);
  s->op = op;
  s->x = x;
  s->y = y[0];
  s->kind = -1;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof kKinds / sizeof kKinds[0]; i++)
    if (strlen(kKinds[i].name) == name.length && !strncmp(kKinds[i].name, name.data, name.length))
      s->kind = kKinds[i].kind;
  if (!y[0]) {
    nnInterpError(op, "the result shape must be static for the interpreter");
    return false;
  }
  int rank = x[0]->rank;
  switch (s->kind) {
  case K_TRANSPOSE: return nnTransposePerm(op, rank, s->p);
  case K_CONCAT:
  case K_GATHER:
    if (!nnAttrInt(op, "axis", 0, &s->axis)) return false;
    return nnNormalizeAxis(op, "axis", &s->axis, rank);
  case K_GATHER_ELEMENTS:
    if (!nnAttrInt(op, "axis", 0, &s->axis) || !nnNormalizeAxis(op, "axis", &s->axis, rank)) return false;
    for (int d = 0; d < rank && d < x[1]->rank; d++) /* dims the types left open */
      if (d != s->axis && x[1]->dims[d] > x[0]->dims[d]) {
        nnInterpError(op, "dim %d of operand 'indices' is %lld, more than the %lld of operand 'data'", d,
                      (long long)x[1]->dims[d], (long long)x[0]->dims[d]);
        return false;
      }
    return true;
  case K_SLICE: {
    /* starts/ends/axes/steps come from the interpreted operand values. */
    int64_t n = x[1]->dims[0], count[STRATA_MAX_RANK];
    bool hasAxes = false, hasSteps = false;
    for (int i = 0; i < rank; i++) s->p[i] = 0, s->q[i] = 1;
    /* Operand positions follow operandSegmentSizes; recover them by name. */
    intptr_t st, sz;
    const StrataTensor *axes = NULL, *steps = NULL;
    if (strataOperandGroup(def, op, 3, &st, &sz) && sz) axes = x[st], hasAxes = true;
    if (strataOperandGroup(def, op, 4, &st, &sz) && sz) steps = x[st], hasSteps = true;
    for (int64_t i = 0; i < n; i++) {
      int64_t axis = hasAxes ? nnGetInt(axes, i) : i, step = hasSteps ? nnGetInt(steps, i) : 1;
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank || step == 0) {
        nnInterpError(op, "slice axis %lld or step %lld is invalid", (long long)axis, (long long)step);
        return false;
      }
      nnSliceAxis(x[0]->dims[axis], nnGetInt(x[1], i), nnGetInt(x[2], i), step, &s->p[axis], &count[axis]);
      s->q[axis] = step;
    }
    return true;
  }
  case K_EXPAND: return true;
  case K_TILE: return true;
  case K_PAD: {
    for (int i = 0; i < 2 * rank; i++) s->p[i] = nnGetInt(x[1], i);
    nnAttrString(op, "mode", "constant", NULL, s->mode, sizeof s->mode);
    s->padValue = mlirOperationGetNumOperands(op) == 3 ? strataTensorGetDouble(x[2], 0) : 0;
    return true;
  }
  case K_DEPTH_TO_SPACE:
  case K_SPACE_TO_DEPTH:
    nnAttrInt(op, "blocksize", 1, &s->blocksize);
    nnAttrString(op, "mode", "DCR", NULL, s->mode, sizeof s->mode);
    s->flag = !strcmp(s->mode, "CRD");
    return true;
  }
  nnInterpError(op, "no source-index semantics for this op");
  return false;
}

static int64_t flatOf(const StrataTensor *t, const int64_t *idx) {
  int64_t flat = 0;
  for (int d = 0; d < t->rank; d++) flat = flat * t->dims[d] + idx[d];
  return flat;
}

NnSourceKind nnSourceOf(const NnSource *s, const int64_t *o, const StrataTensor **from, int64_t *flat) {
  const StrataTensor *x = s->x[0];
  int64_t i[STRATA_MAX_RANK];
  int rank = x->rank;
  *from = x;
  switch (s->kind) {
  case K_TRANSPOSE:
    for (int d = 0; d < rank; d++) i[s->p[d]] = o[d];
    break;
  case K_CONCAT:
    memcpy(i, o, sizeof(int64_t) * (size_t)rank);
    if (o[s->axis] >= x->dims[s->axis]) {
      *from = s->x[1];
      i[s->axis] -= x->dims[s->axis];
    }
    break;
  case K_SLICE:
    for (int d = 0; d < rank; d++) i[d] = s->p[d] + o[d] * s->q[d];
    break;
  case K_GATHER: {
    const StrataTensor *ind = s->x[1];
    int64_t ii[STRATA_MAX_RANK];
    for (int d = 0; d < ind->rank; d++) ii[d] = o[s->axis + d];
    int64_t t = nnGetInt(ind, flatOf(ind, ii)), dim = x->dims[s->axis];
    if (t < -dim || t >= dim) {
      nnInterpError(s->op, "index %lld is out of range for axis %lld of size %lld", (long long)t,
                    (long long)s->axis, (long long)dim);
      return NN_SOURCE_ERROR;
    }
    for (int d = 0; d < s->axis; d++) i[d] = o[d];
    i[s->axis] = t < 0 ? t + dim : t;
    for (int d = (int)s->axis + 1; d < rank; d++) i[d] = o[d - 1 + ind->rank];
    break;
  }
  case K_GATHER_ELEMENTS: {
    int64_t t = nnGetInt(s->x[1], flatOf(s->x[1], o)), dim = x->dims[s->axis];
    if (t < -dim || t >= dim) {
      nnInterpError(s->op, "index %lld is out of range for axis %lld of size %lld", (long long)t,
                    (long long)s->axis, (long long)dim);
      return NN_SOURCE_ERROR;
    }
    memcpy(i, o, sizeof(int64_t) * (size_t)rank);
    i[s->axis] = t < 0 ? t + dim : t;
    break;
  }
  case K_EXPAND:
    *flat = nnBroadcastIndex(x, o, s->y->rank);
    return NN_SOURCE_ELEMENT;
  case K_TILE:
    for (int d = 0; d < rank; d++) i[d] = o[d] % x->dims[d];
    break;
  case K_PAD:
    for (int d = 0; d < rank; d++) {
      int64_t n = x->dims[d], v = o[d] - s->p[d];
      if (n == 0) return NN_SOURCE_PAD; /* only constant mode pads empty dims */
      if (v < 0 || v >= n) {
        if (!strcmp(s->mode, "constant")) return NN_SOURCE_PAD;
        if (!strcmp(s->mode, "edge")) v = v < 0 ? 0 : n - 1;
        else if (!strcmp(s->mode, "wrap")) v = ((v % n) + n) % n;
        else v = v < 0 ? -v : 2 * (n - 1) - v; /* reflect */
      }
      i[d] = v;
    }
    break;
  case K_DEPTH_TO_SPACE: {
    int64_t b = s->blocksize, C = s->y->dims[1], bh = o[2] % b, bw = o[3] % b;
    i[0] = o[0];
    i[1] = s->flag ? o[1] * b * b + bh * b + bw : (bh * b + bw) * C + o[1];
    i[2] = o[2] / b;
    i[3] = o[3] / b;
    break;
  }
  case K_SPACE_TO_DEPTH: {
    int64_t b = s->blocksize, C = x->dims[1], blk = o[1] / C;
    i[0] = o[0];
    i[1] = o[1] % C;
    i[2] = o[2] * b + blk / b;
    i[3] = o[3] * b + blk % b;
    break;
  }
  }
  *flat = flatOf(*from, i);
  return NN_SOURCE_ELEMENT;
}
