"""PatDNN's pruning in PyTorch, as a user would prune a model before
exporting it, and mirroring Strata's passes (transforms/sparse/): natural
patterns and their top-k histogram (sparse-pattern-select), projection of
each 3x3 kernel onto the set member keeping the largest sum of squares
(sparse-pattern-prune), connectivity pruning that keeps the
ceil(M*C/rate) largest-L2 kernels of a layer (sparse-connectivity-prune),
and the FKW/CSR index sizes of dialects/sparse/sparse_fkw.c.

Weights are tensors w[M][C][3][3]; a mask is 9 bits, bit 3*r + c (bit 4
the centre), as in dialects/sparse/sparse.h. The functions return 0/1
weight masks, for torch.nn.utils.prune."""
import math

import torch

CENTRE = 4
OTHERS = torch.tensor([b for b in range(9) if b != CENTRE])


def natural_patterns(w, n=4):
    """Each kernel's natural pattern: the centre plus its n-1 largest-magnitude
    other entries (ties: the lower bit, as sparseNaturalPattern). Returns
    the masks as an int64 tensor shaped w.shape[:2]."""
    k = w.detach().reshape(-1, 9)[:, OTHERS].abs()
    # a stable sort on -|w| keeps the lower bit first among equal magnitudes
    top = torch.sort(-k, dim=1, stable=True).indices[:, :n - 1]
    bits = OTHERS[top]
    masks = (torch.ones_like(bits[:, 0]) << CENTRE) | (torch.ones_like(bits) << bits).sum(dim=1)
    return masks.reshape(w.shape[:2])


def select_top(weights, k=8, n=4):
    """The k most frequent natural patterns over all kernels of `weights` (3x3
    conv weight tensors); ties: the lower mask first."""
    counts = {}
    for w in weights:
        masks, freq = torch.unique(natural_patterns(w, n), return_counts=True)
        for m, f in zip(masks.tolist(), freq.tolist()):
            counts[m] = counts.get(m, 0) + f
    ranked = sorted(counts.items(), key=lambda mf: (-mf[1], mf[0]))
    return [m for m, _ in ranked[:k]]


def mask_rows(masks):
    """[P][9] 0/1 float32 rows of the 9-bit masks."""
    return torch.tensor([[(m >> b) & 1 for b in range(9)] for m in masks], dtype=torch.float32)


def pattern_mask(w, masks):
    """The 0/1 mask projecting each kernel onto the member of `masks` keeping
    the largest sum of squares (ties: the first member)."""
    rows = mask_rows(masks)
    keep = (w.detach().reshape(-1, 9) ** 2) @ rows.T  # [kernels][P]
    return rows[torch.argmax(keep, dim=1)].reshape(w.shape)


def connectivity_mask(w, rate):
    """The 0/1 mask keeping the ceil(M*C/rate) kernels of largest L2 norm
    (ties: the lower (m, c) position)."""
    M, C = w.shape[:2]
    keep = min(M * C, math.ceil(M * C / rate))
    norms = (w.detach().reshape(M * C, 9).double() ** 2).sum(dim=1)
    order = torch.sort(-norms, stable=True).indices
    alive = torch.zeros(M * C)
    alive[order[:keep]] = 1
    return alive[:, None].expand(M * C, 9).reshape(w.shape)


def prune_mask(w, masks, rate=None):
    """Pattern projection, then connectivity pruning at `rate` (None: none)
    of the projected kernels."""
    m = pattern_mask(w, masks)
    return m * connectivity_mask(w * m, rate) if rate else m


def stats(w):
    """(nonzero kernels, nonzero weights) of a pruned weight tensor."""
    flat = w.detach().reshape(-1, 9)
    return int((flat != 0).any(dim=1).sum()), int((flat != 0).sum())


def index_bytes(w, num_patterns, index_bytes_each=4):
    """(FKW, CSR) index-structure bytes of a pattern-pruned w, as
    sparseFkwIndexBytes and sparseCsrIndexBytes count them: FKW's offset
    (M+1), reorder (M), index (one per kernel) and stride (M*(P+1));
    CSR's row pointers (M+1) and one column per nonzero weight."""
    M = w.shape[0]
    kernels, nnz = stats(w)
    fkw = (M + 1) + M + kernels + M * (num_patterns + 1)
    csr = (M + 1) + nnz
    return fkw * index_bytes_each, csr * index_bytes_each


def follows(w, masks):
    """Whether every nonzero kernel of w lies inside one of `masks`."""
    support = (w.detach().reshape(-1, 9) != 0).float()
    rows = mask_rows(masks)
    return bool((support[:, None, :] <= rows[None, :, :]).all(dim=2).any(dim=1).all())
