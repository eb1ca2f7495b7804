#!/usr/bin/env bash
# Bytes of output copies pred-placeholder-alias removes from real models:
# each model (ONNX or nn-level MLIR) goes through the CPU pipeline up to the
# pass, which reports what it removed. Prints one line per model. Not a test.
#   bench/pred/placeholder_copies.sh [build-dir] model.onnx|model.mlir...
set -euo pipefail
build=${1:-build}
shift
pipeline='builtin.module(func.func(nn-fold),func.func(nn-raise),sparse-fkw,sparse-to-vector,nn-to-kernels,func.func(nn-to-linalg),func.func(strata-math-approx),instr-to-runtime,strata-emit-c-interface,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(buffer-loop-hoisting,cse,canonicalize),strata-distinct-results,buffer-results-to-out-params{hoist-static-allocs modify-public-functions},buffer-deallocation-pipeline,convert-bufferization-to-memref,pred-placeholder-alias{report})'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for model in "$@"; do
  name=$(basename "$model")
  src=$model
  case $model in
    *.onnx) "$build/tools/strata-import" "$model" -o "$tmp/m.mlir" 2>/dev/null || { echo "$name: import failed"; continue; }
            src=$tmp/m.mlir ;;
  esac
  "$build/tools/strata-opt" "$src" --pass-pipeline="$pipeline" -o "$tmp/out.mlir" 2>"$tmp/err" || { echo "$name: pipeline failed"; continue; }
  total=$(grep -o '[0-9]* copies ([0-9]* bytes) into placeholders removed' "$tmp/err" || echo "no report")
  left=$(grep -cE 'memref.copy [^,]*, %arg[0-9]+ ' "$tmp/out.mlir" || true)
  echo "$name: $total; copies into an argument left: $left"
done
