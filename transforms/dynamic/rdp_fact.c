/* Facts of one value (rank, dims, value map) and their meet, the product
 * of the rank lattice and the per-element lattices (rdp_internal.h). */
#include "rdp_internal.h"

void rdpFactSetRank(RdpFact *f, int rank, RdpDim d) {
  f->rank = (int8_t)rank;
  for (int i = 0; i < rank && i < STRATA_MAX_RANK; i++) f->dims[i] = d;
}

static bool meetRank(RdpFact *dst, int rank) {
  if (rank == RDP_RANK_UNDEF || dst->rank == RDP_RANK_NAC || dst->rank == rank) return false;
  if (dst->rank == RDP_RANK_UNDEF) {
    rdpFactSetRank(dst, rank, rank == RDP_RANK_NAC ? rdpNac() : rdpUndef());
    return true;
  }
  dst->rank = RDP_RANK_NAC; /* two different ranks meet at nac */
  return true;
}

bool rdpFactMeetInto(RdpFact *dst, const RdpFact *src) {
  bool changed = meetRank(dst, src->rank);
  if (dst->rank >= 0 && src->rank == dst->rank)
    for (int i = 0; i < dst->rank; i++) changed |= rdpMeetInto(&dst->dims[i], &src->dims[i]);
  if (dst->valueLen > 0 && src->valueLen == dst->valueLen)
    for (int i = 0; i < dst->valueLen; i++) changed |= rdpMeetInto(&dst->vals[i], &src->vals[i]);
  return changed;
}

bool rdpFactFillUndef(RdpFact *dst, const RdpFact *src) {
  bool changed = false;
  if (dst->rank == RDP_RANK_UNDEF && src->rank >= 0) changed |= meetRank(dst, src->rank);
  if (dst->rank >= 0 && src->rank == dst->rank)
    for (int i = 0; i < dst->rank; i++)
      if (dst->dims[i].level == RDP_UNDEF) changed |= rdpMeetInto(&dst->dims[i], &src->dims[i]);
  return changed;
}

bool rdpValueKnown(const RdpFact *f) {
  if (f->valueLen < 0) return false;
  for (int i = 0; i < f->valueLen; i++)
    if (!rdpIsKnown(&f->vals[i])) return false;
  return true;
}
