#!/bin/sh
# Builds embed.c against the installed Strata with pkg-config flags only.
# Usage: pkgconfig-build.sh PREFIX OUTPUT [PACKAGE]   (strata or strata-shared)
set -e
export PKG_CONFIG_PATH="$1/lib/pkgconfig"
cc "$(dirname "$0")/embed/embed.c" -o "$2" $(pkg-config --cflags --libs "${3:-strata}")
