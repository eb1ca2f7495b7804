#!/bin/sh
# Runs each function of FILE with each fusion mode against the interpreter.
# Usage: run_modes.sh FILE FUNC...
file=$1; shift
for f in "$@"; do
  for m in none fixed dnnfusion; do
    strata-run "$file" --entry "$f" --fusion "$m" --compare --quiet | grep compare | sed "s/^/$f $m: /"
  done
done
