#!/usr/bin/env bash
# Packets of the Hexagon code LLVM emits for each function of a dsp kernel
# file (strata-translate --target hexagon, counted in llvm-objdump-22 -d as
# `{ ... }` groups up to and including the return packet; the
# descriptor loads of the C interface included) beside the
# packets and cycles --dsp-pack's SDA model gives the same function.
# Usage: bench/dsp/hexagon_packets.sh [kernels.mlir]  (the tools of
# $STRATA_BUILD_DIR, default build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
file=${1:-$root/bench/dsp/hexagon_kernels.mlir}
tools=${STRATA_BUILD_DIR:-$root/build}/tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tools/strata-translate" "$file" --target hexagon -o "$tmp/k.o"
llvm-objdump-22 -d "$tmp/k.o" >"$tmp/k.dis"
"$tools/strata-opt" "$file" --dsp-pack=report=true 2>"$tmp/model" >/dev/null
printf '%-10s %9s %15s %15s\n' function llvm-packets 'model packets' 'model cycles'
grep -o '^func.func @[A-Za-z0-9_]*' "$file" | sed 's/func.func @//' | {
  i=0
  while read -r f; do
    i=$((i + 1))
    llvm=$(awk -v f="<_mlir_ciface_model_$f>:" '
      $2 == f {on = 1; next}
      on && /\{/ {n++}
      on && /jumpr r31/ {ret = 1}
      on && ret && /\}/ {on = 0} # the padding nops after the return are not counted
      END {print n + 0}' "$tmp/k.dis")
    model=$(sed -n "${i}p" "$tmp/model" | sed -E 's/.* in ([0-9]+) packets, ([0-9]+) modeled cycles.*/\1 \2/')
    printf '%-10s %9s %15s %15s\n' "$f" "$llvm" ${model}
  done
}
