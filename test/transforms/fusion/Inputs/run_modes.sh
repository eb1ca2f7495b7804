#!/bin/sh
# Runs each function of FILE with each fusion mode against the interpreter:
# none, fixed, dnnfusion (measured plan), and dnnfusion with every profile
# cell fused (the largest blocks the table allows).
# Usage: run_modes.sh FILE FUNC...
file=$1; shift
for f in "$@"; do
  for m in none fixed dnnfusion always; do
    if [ "$m" = always ]; then mode="--fusion dnnfusion --fuse-profile always"; else mode="--fusion $m"; fi
    strata-run "$file" --entry "$f" $mode --compare --quiet | grep compare | sed "s/^/$f $m: /"
  done
done
