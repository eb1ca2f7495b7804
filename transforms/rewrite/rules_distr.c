/* Distributive rules (Table 3.4 rows 5-7) and additive constant chains.
 * Add, Sub and Mul form a ring in wrap-around integer arithmetic too, so
 * these rules apply to integer tensors as well as float ones. */
#include "rewrite.h"

/* ---- Rows 5 and 7: A⊙C + A⊙B → A⊙(C+B), A⊙B − A⊙C → A⊙(B−C) ----
 * (Row 5 as corrected: the thesis prints (A+B)⊙C.) The common factor may be
 * either operand of either product. Row 7, Square(A+B) − (A+B)⊙C →
 * (A+B)⊙(A+B−C), is the instance whose left product is a square; it is its
 * own pattern so that the report names it. */
static bool matchDistr(RwPlan *p, bool squareOnly) {
  MlirOperation root = p->root;
  const char *op = strataOpIsNamed(root, "nn.sub") ? "nn.sub" : "nn.add";
  MlirOperation m[2] = {rwDef(p, rwOperand(root, 0), "nn.mul"), rwDef(p, rwOperand(root, 1), "nn.mul")};
  if (mlirOperationIsNull(m[0]) || mlirOperationIsNull(m[1])) return false;
  bool square[2];
  for (int s = 0; s < 2; s++) square[s] = rwSame(p, rwOperand(m[s], 0), rwOperand(m[s], 1));
  if (squareOnly && !square[0] && !square[1]) return false;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      MlirValue common = rwOperand(m[0], i), dup = rwOperand(m[1], j);
      if (!rwSame(p, common, dup)) continue;
      rwConsume(p, m[0]);
      rwConsume(p, m[1]);
      rwDropDuplicate(p, dup, common);
      /* The rest of each product; a square's rest is the common factor. */
      MlirValue rest[2] = {rwOperand(m[0], 1 - i), rwOperand(m[1], 1 - j)};
      for (int s = 0; s < 2; s++)
        if (square[s]) {
          rwDropDuplicate(p, rest[s], common);
          rest[s] = common;
        }
      int inner = rwBinary(p, op, rwLeaf(p, rest[0]), rwLeaf(p, rest[1]));
      rwSetResult(p, rwBinary(p, "nn.mul", rwLeaf(p, common), inner));
      return p->ok;
    }
  return false;
}

bool rwMatchDistrFactor(RwPlan *p) { return matchDistr(p, false); }
bool rwMatchDistrSquare(RwPlan *p) { return matchDistr(p, true); }

/* ---- Row 6: A + A⊙B → A⊙(B+1) ----
 * Same FLOPs (the constant is a scalar), but A is read once instead of
 * twice (§): it fires on the byte saving. Sub forms: A − A⊙B → A⊙(1−B),
 * A⊙B − A → A⊙(B−1). */
bool rwMatchDistrOne(RwPlan *p) {
  MlirOperation root = p->root;
  bool isSub = strataOpIsNamed(root, "nn.sub");
  for (int side = 0; side < 2; side++) {
    MlirValue a = rwOperand(root, side);
    MlirOperation m = rwDef(p, rwOperand(root, 1 - side), "nn.mul");
    if (mlirOperationIsNull(m)) continue;
    for (int k = 0; k < 2; k++) {
      if (!rwSame(p, rwOperand(m, k), a)) continue;
      rwConsume(p, m);
      rwDropDuplicate(p, rwOperand(m, k), a);
      int b = rwLeaf(p, rwOperand(m, 1 - k)), one = rwScalar(p, 1.0, b), inner;
      if (!isSub) inner = rwBinary(p, "nn.add", b, one);
      else if (side == 0) inner = rwBinary(p, "nn.sub", one, b); /* A − A⊙B */
      else inner = rwBinary(p, "nn.sub", b, one);                 /* A⊙B − A */
      rwSetResult(p, rwBinary(p, "nn.mul", rwLeaf(p, a), inner));
      return p->ok;
    }
  }
  return false;
}

/* ---- Family: constant terms meet, (x+c1)+c2 → x+(c1+c2), (x−c1)+c2 → x+(c2−c1) ----
 * The Add/Sub tree under the root is flattened into signed terms (inner
 * results with no other use are looked through); all constant terms are
 * summed first, at their own size, and --nn-fold folds that sum. */

enum { RW_MAX_TERMS = 12 };

typedef struct {
  MlirValue v[RW_MAX_TERMS];
  bool neg[RW_MAX_TERMS];
  int n;
} Terms;

static bool collectTerms(RwPlan *p, MlirValue v, bool neg, bool top, Terms *t) {
  MlirOperation op = top ? p->root : (MlirOperation){NULL};
  if (!top && rwHasOneUse(v)) {
    op = rwDef(p, v, "nn.add");
    if (mlirOperationIsNull(op)) op = rwDef(p, v, "nn.sub");
  }
  if (!mlirOperationIsNull(op)) {
    if (!top) rwConsume(p, op);
    bool sub = strataOpIsNamed(op, "nn.sub");
    return collectTerms(p, rwOperand(op, 0), neg, false, t) &&
           collectTerms(p, rwOperand(op, 1), sub ? !neg : neg, false, t);
  }
  if (t->n == RW_MAX_TERMS) return false;
  t->v[t->n] = v;
  t->neg[t->n++] = neg;
  return true;
}

bool rwMatchConstTerms(RwPlan *p) {
  Terms t = {.n = 0};
  if (rwFeedsOnly(p->root, "nn.add") || rwFeedsOnly(p->root, "nn.sub") ||
      !collectTerms(p, rwResultOf(p->root), false, true, &t))
    return false;
  /* k = the signed sum of the constants, as k or −k (kNeg). */
  int k = -1, numConst = 0;
  bool kNeg = false, isConst[RW_MAX_TERMS];
  for (int i = 0; i < t.n; i++) {
    isConst[i] = rwIsConstant(p, t.v[i]);
    if (!isConst[i]) continue;
    int c = rwLeaf(p, t.v[i]);
    if (numConst++ == 0) k = c, kNeg = t.neg[i];
    else k = rwBinary(p, t.neg[i] == kNeg ? "nn.add" : "nn.sub", k, c);
  }
  if (numConst < 2 || numConst == t.n) return false;
  /* The other terms in order, then k; start from a positive one. */
  int items[RW_MAX_TERMS], n = 0;
  bool neg[RW_MAX_TERMS];
  for (int i = 0; i < t.n; i++)
    if (!isConst[i]) items[n] = rwLeaf(p, t.v[i]), neg[n++] = t.neg[i];
  items[n] = k, neg[n++] = kNeg;
  int start = 0;
  while (start < n && neg[start]) start++;
  if (start == n) return false; /* every term negated: would need a Neg */
  int acc = items[start];
  for (int i = 0; i < n; i++)
    if (i != start) acc = rwBinary(p, neg[i] ? "nn.sub" : "nn.add", acc, items[i]);
  rwSetResult(p, acc);
  return p->ok;
}
