#!/usr/bin/env bash
# Installs the toolkit into a temporary prefix and checks that every function
# its headers declare is defined in the library CANN ships it in
# (declared_symbols_check.cpp).
#   check_declared.sh <build dir> <declared_symbols_check binary>
set -euo pipefail
build_dir=$1
checker=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
"$checker" "$prefix"
