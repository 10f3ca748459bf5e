#!/usr/bin/env bash
# Builds Canopy and runs the whole test suite: a Release build (warnings are
# errors) and its suite, clang-tidy (with clang's own -Werror diagnostics) over
# every source, then the suite under AddressSanitizer + UndefinedBehaviorSanitizer
# in checker mode (one run checks memory and that a clean program makes the
# checker report nothing), then the runtime, concurrency and in-process HCCL
# suites under ThreadSanitizer. Each test binary is one ctest test (a failing
# binary prints its failing cases); two at a time.
# The sanitized builds are -O1 with line tables (cmake/CanopyOptions.cmake) and
# the test code -O1 everywhere, for build time; ccache serves unchanged sources,
# and scripts/clang_tidy_cached.py skips units whose clean clang-tidy result
# (keyed by their preprocessed text) is cached beside it.
# CANOPY_SKIP_SANITIZERS=1 stops before the sanitizer stages (quick local runs).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh

stage() { printf '\n=== %s (at %d s) ===\n' "$*" "$SECONDS"; }

# ccache makes a rebuild of unchanged sources nearly free (a second run, or CI
# on a machine that built the same tree). Paths are hashed relative to the
# checkout, so a clone in another folder hits the same entries.
# Without a writable cache directory the builds run without it.
launcher=()
export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ccache}"
if command -v ccache >/dev/null 2>&1 && mkdir -p "$CCACHE_DIR" 2>/dev/null && [[ -w "$CCACHE_DIR" ]]; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

stage "Formatting (clang-format); every exported C function has its exception handler"
bash scripts/check_format.sh
python3 scripts/c_boundary.py --check

# Builds are most of CI's time (three once: Release, ASan, TSan's part), so no
# stage builds the library twice: one ctest test per test binary, not per case
# (CANOPY_TESTS_PER_CASE=OFF), and clang's part is its -Werror diagnostics inside
# clang-tidy, which needs a configured tree but no build.
stage "Release build and tests"
cmake -S . -B build "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release -DCANOPY_WERROR=ON -DCANOPY_TESTS_PER_CASE=OFF >/dev/null
cmake --build build -j2
ctest --test-dir build -j2 --output-on-failure --timeout 1200

stage "Long stress: 8 threads x 8 streams x 10^5 tasks with events and host functions"
CANOPY_STRESS_TASKS=100000 CANOPY_DEVICE_COUNT=2 CANOPY_DEVICE_MEMORY=1G ./build/bin/runtime_stress_test

stage "clang-tidy (the checks of .clang-tidy, and clang's -Werror warnings) over every source"
CC=clang CXX=clang++ cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release -DCANOPY_WERROR=ON \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF -DCANOPY_TESTS_PER_CASE=OFF \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
python3 scripts/clang_tidy_cached.py -p build-clang -j 2

if [[ "${CANOPY_SKIP_SANITIZERS:-0}" == 1 ]]; then
  exit 0
fi

# One ctest test per test binary here too: a sanitized process per case, tens of
# thousands of them, would cost more than the cases. The checker rides along
# (CANOPY_CHECK=1): the suite is a clean program, so it must report nothing,
# and one sanitized run costs less than a second plain one. The install test
# builds and runs a client of its own; it runs without the checker.
stage "AddressSanitizer + UndefinedBehaviorSanitizer, in checker mode: a clean program reports nothing"
cmake -S . -B build-asan "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANOPY_SANITIZE=address,undefined \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF -DCANOPY_TESTS_PER_CASE=OFF >/dev/null
cmake --build build-asan -j2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
CANOPY_CHECK=1 ctest --test-dir build-asan -j2 -LE 'install|avx2_cap' --output-on-failure --timeout 3600
ctest --test-dir build-asan -j2 -L install --output-on-failure --timeout 3600
unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

stage "ThreadSanitizer: runtime, concurrency and in-process HCCL"
cmake -S . -B build-tsan "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANOPY_SANITIZE=thread \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j2 --target runtime_lifecycle_test runtime_api_test runtime_stress_test \
  runtime_adversarial_test hccl_in_process_test hccl_api_test
ctest --test-dir build-tsan -L 'runtime|tsan' -j2 --output-on-failure --timeout 1800
stage "Done"
