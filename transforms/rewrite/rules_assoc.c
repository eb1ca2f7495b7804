/* Associative rules (Table 3.4 rows 1-4 and their families) over
 * multiplication chains, and constant chains of Mul/Div.
 *
 * A chain is the tree of nn.mul ops under a root whose inner results have
 * no other use: its leaves are the factors, in order. Looking at factors
 * instead of fixed operand positions is the commutative swap that enables
 * the rules (row 3's footnote: Abs(A)⊙B⊙Abs(C) needs B and Abs(C) swapped
 * first); there is no standalone swapping rule, which could only loop. A
 * rule merges factors and the chain is multiplied out again, left to right,
 * keeping the other factors' order. */
#include "rewrite.h"

enum { RW_MAX_FACTORS = 12 };

typedef struct {
  MlirValue f[RW_MAX_FACTORS];
  int n;
} Chain;

/* Collects the factors under `v`; `top` is the root itself. */
static bool collect(RwPlan *p, MlirValue v, bool top, Chain *c) {
  MlirOperation m = top ? p->root : rwDef(p, v, "nn.mul");
  if (!mlirOperationIsNull(m) && (top || rwHasOneUse(v))) {
    if (!top) rwConsume(p, m);
    return collect(p, rwOperand(m, 0), false, c) && collect(p, rwOperand(m, 1), false, c);
  }
  if (c->n == RW_MAX_FACTORS) return false;
  c->f[c->n++] = v;
  return true;
}

/* The chain rooted at the plan's root, if the root is where it ends (a mul
 * feeding only another mul is matched as part of that one's chain). */
static bool rootChain(RwPlan *p, Chain *c) {
  c->n = 0;
  return strataOpIsNamed(p->root, "nn.mul") && !rwFeedsOnly(p->root, "nn.mul") &&
         collect(p, rwResultOf(p->root), true, c);
}

static int product(RwPlan *p, const int *nodes, int n) {
  if (n < 1) return -1;
  int acc = nodes[0];
  for (int i = 1; i < n; i++) acc = rwBinary(p, "nn.mul", acc, nodes[i]);
  return acc;
}

/* A rule that merges two factors into one: `pairs` only tests, `merge`
 * builds the merged factor (consuming what it replaces). */
typedef struct {
  bool (*pairs)(RwPlan *p, MlirValue a, MlirValue b);
  int (*merge)(RwPlan *p, MlirValue a, MlirValue b);
} PairRule;

/* Merges the first pair of factors the rule accepts; the merged factor
 * takes the place of the first of the two. */
static bool matchPair(RwPlan *p, const PairRule *rule) {
  Chain c;
  if (!rootChain(p, &c)) return false;
  for (int i = 0; i < c.n; i++)
    for (int j = i + 1; j < c.n; j++) {
      if (!rule->pairs(p, c.f[i], c.f[j])) continue;
      int nodes[RW_MAX_FACTORS], n = 0;
      for (int k = 0; k < c.n; k++) {
        if (k == i) nodes[n++] = rule->merge(p, c.f[i], c.f[j]);
        else if (k != j) nodes[n++] = rwLeaf(p, c.f[k]);
      }
      rwSetResult(p, product(p, nodes, n));
      return p->ok;
    }
  return false;
}

/* The pair's factors can be consumed: each is used only by the chain (the
 * plan's final check is authoritative; this only steers matchPair past
 * pairs that would fail it, to the next pair). */
static bool consumable(MlirValue a, MlirValue b) {
  return mlirValueEqual(a, b) || (rwHasOneUse(a) && rwHasOneUse(b));
}

/* Both factors are results of `name`; the op of each. */
static bool bothOf(RwPlan *p, const char *name, MlirValue a, MlirValue b, MlirOperation *da,
                   MlirOperation *db) {
  *da = rwDef(p, a, name);
  *db = rwDef(p, b, name);
  return !mlirOperationIsNull(*da) && !mlirOperationIsNull(*db);
}

/* ---- Row 1: Recip(A)⊙Recip(A⊙B) → Recip(Square(A)⊙B) ----
 * Family: recip(x)⊙recip(y) → recip(x⊙y). The thesis prints Square(Recip(A))⊙B,
 * which is B/A²; the left side is 1/(A²B) (the digest's correction). */

/* x⊙y where y = x⊙B has no other use: Square(x)⊙B, as the corrected row
 * writes it (Fig. 3.2(a): a Recip, a Square and a Mul). -1 if y is not. */
static int squareTimes(RwPlan *p, MlirValue x, MlirValue y) {
  MlirOperation m = rwDef(p, y, "nn.mul");
  if (mlirOperationIsNull(m) || !rwHasOneUse(y)) return -1;
  for (int k = 0; k < 2; k++) {
    if (!rwSame(p, rwOperand(m, k), x)) continue;
    rwConsume(p, m);
    rwDropDuplicate(p, rwOperand(m, k), x);
    int xl = rwLeaf(p, x);
    return rwBinary(p, "nn.mul", rwBinary(p, "nn.mul", xl, xl), rwLeaf(p, rwOperand(m, 1 - k)));
  }
  return -1;
}

static bool recipPair(RwPlan *p, MlirValue a, MlirValue b) {
  MlirOperation ra, rb;
  return consumable(a, b) && bothOf(p, "nn.reciprocal", a, b, &ra, &rb);
}

static int recipMerge(RwPlan *p, MlirValue a, MlirValue b) {
  MlirOperation ra, rb;
  bothOf(p, "nn.reciprocal", a, b, &ra, &rb);
  rwConsume(p, ra);
  rwConsume(p, rb);
  MlirValue x = rwOperand(ra, 0), y = rwOperand(rb, 0);
  int prod = squareTimes(p, x, y);
  if (prod < 0) prod = squareTimes(p, y, x);
  if (prod < 0) prod = rwBinary(p, "nn.mul", rwLeaf(p, x), rwLeaf(p, y));
  return rwUnary(p, "nn.reciprocal", prod);
}

bool rwMatchRecipPair(RwPlan *p) { return matchPair(p, &(PairRule){recipPair, recipMerge}); }

/* ---- Row 2: (A⊙√B)⊙(√B⊙C) → A⊙B⊙C; family √x⊙√x → x ----
 * Fast-math only: for x < 0 the left side is NaN, the right side x. */

static bool sqrtPair(RwPlan *p, MlirValue a, MlirValue b) {
  MlirOperation sa, sb;
  return consumable(a, b) && bothOf(p, "nn.sqrt", a, b, &sa, &sb) &&
         rwSame(p, rwOperand(sa, 0), rwOperand(sb, 0));
}

static int sqrtMerge(RwPlan *p, MlirValue a, MlirValue b) {
  MlirOperation sa, sb;
  bothOf(p, "nn.sqrt", a, b, &sa, &sb);
  rwConsume(p, sa);
  rwConsume(p, sb);
  rwDropDuplicate(p, rwOperand(sb, 0), rwOperand(sa, 0));
  return rwLeaf(p, rwOperand(sa, 0));
}

bool rwMatchSqrtPair(RwPlan *p) { return matchPair(p, &(PairRule){sqrtPair, sqrtMerge}); }

/* ---- Row 3: Abs(A)⊙B⊙Abs(C) → Abs(A⊙C)⊙B; family |x|⊙|y| → |x⊙y| ----
 * Floats only: with wrap-around integers |x|·|y| and |x·y| differ. */

static bool absPair(RwPlan *p, MlirValue a, MlirValue b) {
  MlirOperation da, db;
  return rwIsFloat(a) && consumable(a, b) && bothOf(p, "nn.abs", a, b, &da, &db);
}

static int absMerge(RwPlan *p, MlirValue a, MlirValue b) {
  MlirOperation da, db;
  bothOf(p, "nn.abs", a, b, &da, &db);
  rwConsume(p, da);
  rwConsume(p, db);
  return rwUnary(p, "nn.abs",
                 rwBinary(p, "nn.mul", rwLeaf(p, rwOperand(da, 0)), rwLeaf(p, rwOperand(db, 0))));
}

bool rwMatchAbsPair(RwPlan *p) { return matchPair(p, &(PairRule){absPair, absMerge}); }

/* ---- Row 4: (A⊙ReduceSum(B))⊙(ReduceSum(B)⊙C) → A⊙Square(ReduceSum(B))⊙C ----
 * Family: equal factors of a chain meet and become a square. It pays when
 * the factor is smaller than the chain (a reduction, a broadcast operand):
 * the square is taken before broadcasting, and a duplicate computation of
 * the factor disappears. Constants are left to the constant rule. */

static bool equalPair(RwPlan *p, MlirValue a, MlirValue b) {
  return (mlirValueEqual(a, b) || rwHasOneUse(b)) && rwSame(p, a, b) && !rwIsConstant(p, a);
}

static int equalMerge(RwPlan *p, MlirValue a, MlirValue b) {
  rwDropDuplicate(p, b, a);
  int l = rwLeaf(p, a);
  return rwBinary(p, "nn.mul", l, l);
}

bool rwMatchEqualFactors(RwPlan *p) { return matchPair(p, &(PairRule){equalPair, equalMerge}); }

/* ---- Family: constant factors meet, (x⊙c1)⊙c2 → x⊙(c1⊙c2) ----
 * All constant factors of the chain multiply first, at their own (usually
 * scalar or broadcast) size; --nn-fold then folds the product. */

bool rwMatchConstFactors(RwPlan *p) {
  Chain c;
  if (!rootChain(p, &c)) return false;
  int k = -1, numConst = 0;
  bool isConst[RW_MAX_FACTORS];
  for (int i = 0; i < c.n; i++) {
    isConst[i] = rwIsConstant(p, c.f[i]);
    if (!isConst[i]) continue;
    numConst++;
    k = k < 0 ? rwLeaf(p, c.f[i]) : rwBinary(p, "nn.mul", k, rwLeaf(p, c.f[i]));
  }
  if (numConst < 2 || numConst == c.n) return false; /* all-constant: --nn-fold's job */
  int nodes[RW_MAX_FACTORS], n = 0;
  bool placed = false;
  for (int i = 0; i < c.n; i++) {
    if (!isConst[i]) nodes[n++] = rwLeaf(p, c.f[i]);
    else if (!placed) nodes[n++] = k, placed = true;
  }
  rwSetResult(p, product(p, nodes, n));
  return p->ok;
}

/* ---- Family: x/c1/c2 → x/(c1⊙c2), (x⊙c1)/c2 → x⊙(c1/c2),
 *      (x/c1)⊙c2 → x⊙(c2/c1) ----
 * Floats only: integer division truncates, so it does not associate. */

/* The operand of `op` (binary) that is a constant, preferring the second;
 * -1 if neither. */
static int constOperand(RwPlan *p, MlirOperation op) {
  if (rwIsConstant(p, rwOperand(op, 1))) return 1;
  if (rwIsConstant(p, rwOperand(op, 0))) return 0;
  return -1;
}

bool rwMatchConstDiv(RwPlan *p) {
  MlirOperation root = p->root;
  if (!rwIsFloat(rwResultOf(root))) return false;
  bool rootIsDiv = strataOpIsNamed(root, "nn.div");
  int ci = rootIsDiv ? (rwIsConstant(p, rwOperand(root, 1)) ? 1 : -1) : constOperand(p, root);
  if (ci < 0) return false;
  MlirValue x = rwOperand(root, 1 - ci), c2 = rwOperand(root, ci);
  MlirOperation inner = rwDef(p, x, "nn.div");
  bool innerIsDiv = !mlirOperationIsNull(inner);
  if (!innerIsDiv && rootIsDiv) inner = rwDef(p, x, "nn.mul");
  if (mlirOperationIsNull(inner) || !rwHasOneUse(x)) return false;
  int cj = innerIsDiv ? (rwIsConstant(p, rwOperand(inner, 1)) ? 1 : -1) : constOperand(p, inner);
  if (cj < 0 || rwIsConstant(p, rwOperand(inner, 1 - cj))) return false;
  rwConsume(p, inner);
  int y = rwLeaf(p, rwOperand(inner, 1 - cj)), c1 = rwLeaf(p, rwOperand(inner, cj)),
      k2 = rwLeaf(p, c2);
  int result;
  if (rootIsDiv && innerIsDiv) /* (y/c1)/c2 */
    result = rwBinary(p, "nn.div", y, rwBinary(p, "nn.mul", c1, k2));
  else if (rootIsDiv) /* (y⊙c1)/c2 */
    result = rwBinary(p, "nn.mul", y, rwBinary(p, "nn.div", c1, k2));
  else /* (y/c1)⊙c2 */
    result = rwBinary(p, "nn.mul", y, rwBinary(p, "nn.div", k2, c1));
  rwSetResult(p, result);
  return p->ok;
}
