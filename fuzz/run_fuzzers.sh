#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each one for a
# number of executions, as recorded in docs/reliability.md ("Fuzzing").
#
#   fuzz/run_fuzzers.sh                      # the recorded campaign
#   fuzz/run_fuzzers.sh 20000 5000 5000 2000 # a quick check: runs per target
#                                            # (the last: each libhccl target)
#
# Environment: CANOPY_FUZZ_BUILD (build dir, default build-fuzz),
# CANOPY_FUZZ_WORK (corpora and crash files, default $CANOPY_FUZZ_BUILD/fuzz-work),
# CANOPY_FUZZ_KNOWN_BUGS (see docs/reliability.md: re-enable detours around known bugs).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${CANOPY_FUZZ_BUILD:-$root/build-fuzz}"
work="${CANOPY_FUZZ_WORK:-$build/fuzz-work}"
runs_meta="${1:-1000000}"
runs_op="${2:-1000000}"
runs_runtime="${3:-500000}"
runs_hccl="${4:-100000}"

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCANOPY_BUILD_FUZZERS=ON -DCANOPY_BUILD_TESTS=OFF \
  -DCANOPY_BUILD_EXAMPLES=OFF -DCANOPY_BUILD_BENCH=OFF -DCANOPY_SANITIZE=address,undefined >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_meta_api fuzz_op_phase1 fuzz_runtime_sequence \
  fuzz_hccl_rank_table fuzz_hccl_root_info fuzz_hccl_store

status=0
run() {
  local target="$1" runs="$2" limit="${3:-0}"
  local dir="$work/$target"
  mkdir -p "$dir/corpus"
  echo "== $target: $runs runs (log: $dir/log)"
  local start
  start=$(date +%s)
  # New inputs go to $dir/corpus; the committed seeds are only read.
  if (cd "$dir" && "$build/bin/$target" -runs="$runs" -max_total_time="$limit" -max_len=1024 -len_control=20 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 "$dir/corpus" "$root/fuzz/corpus/$target" >"$dir/log" 2>&1); then
    :
  else
    status=1
    echo "   FAILED: see $dir/log and the crash-*/timeout-*/leak-* files in $dir"
  fi
  grep -E "^stat::number_of_executed_units|^Done" "$dir/log" | sed 's/^/   /'
  echo "   $(( $(date +%s) - start )) s"
}

run fuzz_meta_api "$runs_meta"
run fuzz_op_phase1 "$runs_op"
run fuzz_runtime_sequence "$runs_runtime"
# libhccl's rendezvous: each input makes connections (and rank tables listen),
# so these run at most 10 minutes each.
run fuzz_hccl_rank_table "$runs_hccl" 600
run fuzz_hccl_root_info "$runs_hccl" 600
run fuzz_hccl_store "$runs_hccl" 600
exit "$status"
