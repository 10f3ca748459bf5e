#!/usr/bin/env bash
# Each shared library given exports only C names of the API (acl*, Acl*,
# aclnn*, canopy*, Hccl*: see cmake/exports.map) and nothing of C++ or libstdc++, and
# a library named with =SYMBOL after it exports at least SYMBOL.
#   check_exports.sh lib/libascendcl.so=aclInit lib/libacl_op_compiler.so ...
set -euo pipefail
status=0
for argument in "$@"; do
  library=${argument%%=*}
  expected=
  [[ "$argument" == *=* ]] && expected=${argument#*=}
  symbols=$(nm -D --defined-only "$library" | awk '{ print $NF }')
  stray=$(grep -Ev '^(acl|Acl|canopy|Hccl)[A-Za-z0-9_]*$' <<<"$symbols" || true)
  if [[ -n "$stray" ]]; then
    echo "$library exports names outside the C API:" >&2
    head -20 <<<"$stray" | sed 's/^/  /' >&2
    status=1
  fi
  if [[ -n "$expected" ]] && ! grep -qx "$expected" <<<"$symbols"; then
    echo "$library does not export $expected" >&2
    status=1
  fi
done
((status == 0)) && echo "exports: only the C API ($# libraries)"
exit $status
