#!/usr/bin/env bash
# Builds Canopy and runs the whole test suite: a Release build (warnings are
# errors), the same suite built with clang and run in checker mode, clang-tidy,
# then the suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the
# runtime, concurrency and in-process HCCL suites under ThreadSanitizer. In the
# Release stage every test case is a ctest test of its own; the later stages run
# each test binary as one test. Two at a time. CANOPY_SKIP_SANITIZERS=1 stops
# before the sanitizer stages (quick local runs).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh

stage() { printf '\n=== %s ===\n' "$*"; }

stage "Formatting (clang-format); every exported C function has its exception handler"
bash scripts/check_format.sh
python3 scripts/c_boundary.py --check

stage "Release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCANOPY_WERROR=ON >/dev/null
cmake --build build -j2
ctest --test-dir build -j2 --output-on-failure --timeout 1200

stage "Long stress: 8 threads x 8 streams x 10^5 tasks with events and host functions"
CANOPY_STRESS_TASKS=100000 CANOPY_DEVICE_COUNT=2 CANOPY_DEVICE_MEMORY=1G ./build/bin/runtime_stress_test

# One run of the suite per compiler: the clang build's run is also the checker-mode
# run (a clean program reports nothing), so the suite is not run a third time. It
# and the sanitizer stage register one ctest test per test binary
# (CANOPY_TESTS_PER_CASE=OFF): the Release stage above names each failing case.
stage "clang: Release build, and the same suite in checker mode"
CC=clang CXX=clang++ cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release -DCANOPY_WERROR=ON \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF -DCANOPY_TESTS_PER_CASE=OFF >/dev/null
cmake --build build-clang -j2
CANOPY_CHECK=1 ctest --test-dir build-clang -j2 --output-on-failure --timeout 1200

stage "clang-tidy (the checks of .clang-tidy) over the clang build's sources"
run-clang-tidy -p build-clang -j 2 -quiet

if [[ "${CANOPY_SKIP_SANITIZERS:-0}" == 1 ]]; then
  exit 0
fi

# One ctest test per test binary here too: a sanitized process per case, tens of
# thousands of them, would cost more than the cases.
stage "AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANOPY_SANITIZE=address,undefined \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF -DCANOPY_TESTS_PER_CASE=OFF >/dev/null
cmake --build build-asan -j2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -j2 --output-on-failure --timeout 3600

stage "ThreadSanitizer: runtime, concurrency and in-process HCCL"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANOPY_SANITIZE=thread \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j2 --target runtime_lifecycle_test runtime_api_test runtime_stress_test graph_capture_test \
  runtime_adversarial_test hccl_in_process_test hccl_api_test
ctest --test-dir build-tsan -L 'runtime|tsan' -j2 --output-on-failure --timeout 1800
