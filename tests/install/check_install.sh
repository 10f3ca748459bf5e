#!/usr/bin/env bash
# Installs the toolkit into a temporary prefix and uses it as a CANN client
# would: the tree's layout, set_env.sh, a client built only against it, and
# dlopen of libopapi.so alone.
set -euo pipefail
build_dir=$1
source_dir=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for path in include/acl/acl.h include/acl/acl_rt.h include/acl/acl_base.h include/aclnn/acl_meta.h \
            include/aclnn/aclnn_base.h include/aclnnop/aclnn_add.h include/aclnnop/aclnn_matmul.h \
            include/canopy/canopy_runtime.h include/hccl/hccl.h include/hccl/hccl_types.h \
            include/hccl/hccl_comm.h lib64/libhccl.so lib64/libascendcl.so lib64/libnnopbase.so lib64/libopapi.so \
            lib64/libacl_op_compiler.so lib64/libc_sec.so include/securec.h include/securectype.h set_env.sh bin/canopy-bench \
            bin/npu-smi; do
  [[ -e "$prefix/$path" ]] || { echo "missing from the installed tree: $path" >&2; exit 1; }
done
# libc_sec.so exports securec.h's C functions, none of its C++ insides.
c_sec_symbols=$(nm -D --defined-only "$prefix/lib64/libc_sec.so" | awk '{ print $NF }')
grep -qx memcpy_s <<<"$c_sec_symbols" || { echo "libc_sec.so does not export memcpy_s" >&2; exit 1; }
if grep -q '^_Z' <<<"$c_sec_symbols"; then echo "libc_sec.so exports C++ symbols" >&2; exit 1; fi
readelf -d "$prefix/lib64/libopapi.so" | grep -q 'NEEDED.*libnnopbase.so' || { echo "libopapi does not NEED libnnopbase" >&2; exit 1; }
readelf -d "$prefix/lib64/libopapi.so" | grep -q 'NEEDED.*libascendcl.so' || { echo "libopapi does not NEED libascendcl" >&2; exit 1; }

# set_env.sh exports what CANN's does.
(
  unset ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH
  # shellcheck disable=SC1091
  source "$prefix/set_env.sh"
  [[ "$ASCEND_TOOLKIT_HOME" == "$prefix" && "$ASCEND_HOME_PATH" == "$prefix" ]] || { echo "set_env.sh: wrong homes" >&2; exit 1; }
  [[ ":$LD_LIBRARY_PATH:" == *":$prefix/lib64:"* ]] || { echo "set_env.sh: lib64 not on LD_LIBRARY_PATH" >&2; exit 1; }

  # npu-smi is found on PATH, as ggml's CMake runs it, and names the SoC.
  soc=$(env -u CANOPY_SOC_NAME npu-smi info | awk -F' ' 'NF > 0 && NR==7 {print $3}')
  [[ "$soc" == 910B3 ]] || { echo "set_env.sh: npu-smi on PATH reports SoC '$soc'" >&2; exit 1; }

  # A client built against nothing but the installed tree, as CANN's examples are.
  g++ -std=c++17 -O1 -I"$ASCEND_TOOLKIT_HOME/include" "$source_dir/examples/matmul_add_pipeline.cpp" \
      -L"$ASCEND_TOOLKIT_HOME/lib64" -lopapi -lnnopbase -lascendcl -lacl_op_compiler -o "$prefix/client"
  "$prefix/client" 64 48 32 | tail -1
  # CANN's op repositories build their example programs against per-repository
  # op libraries and the newer runtime library name (their CMakeLists link
  # lib64/libopapi_math.so, libopapi_nn.so, libopapi_cv.so, libacl_rt.so; ops-transformer's
  # build.sh passes -lopapi_transformer): the same client links with those names and runs.
  for lib in libopapi_math.so libopapi_nn.so libopapi_cv.so libopapi_transformer.so libacl_rt.so; do
    [[ -e "$prefix/lib64/$lib" ]] || { echo "missing from the installed tree: lib64/$lib" >&2; exit 1; }
  done
  g++ -std=c++11 -O1 -I"$ASCEND_TOOLKIT_HOME/include" -I"$ASCEND_TOOLKIT_HOME/include/aclnn" \
      "$source_dir/examples/matmul_add_pipeline.cpp" "$prefix/lib64/libacl_rt.so" "$prefix/lib64/libnnopbase.so" \
      "$prefix/lib64/libopapi_math.so" "$prefix/lib64/libopapi_nn.so" "$prefix/lib64/libopapi_cv.so" \
      -L"$ASCEND_TOOLKIT_HOME/lib64" -lopapi_transformer -lacl_op_compiler -o "$prefix/client_cann_names"
  "$prefix/client_cann_names" 64 48 32 | tail -1
  g++ -std=c++17 "$source_dir/tests/install/dlopen_check.cpp" -ldl -o "$prefix/dlopen_check"
  "$prefix/dlopen_check"
)
echo "installed toolkit: ok"
