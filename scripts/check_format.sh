#!/usr/bin/env bash
# Fails when a tracked C or C++ file differs from the project's .clang-format.
# Fix with: git ls-files '*.cpp' '*.h' '*.c' '*.cc' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.c' '*.cc')
unformatted=()
for file in "${files[@]}"; do
  clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done
if ((${#unformatted[@]} > 0)); then
  echo "clang-format: ${#unformatted[@]} of ${#files[@]} files differ from .clang-format:" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "clang-format: all ${#files[@]} files formatted"
