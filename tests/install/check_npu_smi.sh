#!/usr/bin/env bash
# bin/npu-smi prints CANN's device table for the devices the environment gives
# Canopy: one entry per device with its SoC name and memory, laid out so that
# ggml's CMake, which reads the SoC name as the third field of line 7 of
# `npu-smi info` (ggml/src/ggml-cann/CMakeLists.txt), finds it.
#   check_npu_smi.sh <npu-smi binary>
set -euo pipefail
npu_smi=$1
fail() { echo "npu-smi: $*" >&2; exit 1; }

table=$(CANOPY_DEVICE_COUNT=3 CANOPY_DEVICE_MEMORY=2G CANOPY_SOC_NAME=Ascend310P3 "$npu_smi" info)
soc=$(awk -F' ' 'NF > 0 && NR==7 {print $3}' <<<"$table")
[[ "Ascend$soc" == Ascend310P3 ]] || fail "line 7 field 3 is '$soc', not 310P3:"$'\n'"$table"
# One two-line entry per device, numbered from 0, each with its memory in MB.
devices=$(grep -cE '^\| [0-9]+ +310P3 +\| OK ' <<<"$table" || true)
[[ "$devices" == 3 ]] || fail "$devices device rows instead of 3:"$'\n'"$table"
for id in 0 1 2; do
  grep -qE "^\| $id +310P3 " <<<"$table" || fail "no row for device $id"
done
[[ $(grep -c '/ 2048 ' <<<"$table") == 3 ]] || fail "device memory is not 2048 MB on every device:"$'\n'"$table"
# Every line of the table has the same width.
widths=$(awk '{ print length($0) }' <<<"$table" | sort -u | wc -l)
[[ "$widths" == 1 ]] || fail "the table's lines differ in width:"$'\n'"$table"

# The default SoC, and the default device count.
soc=$(env -u CANOPY_SOC_NAME -u CANOPY_DEVICE_COUNT "$npu_smi" info | awk -F' ' 'NF > 0 && NR==7 {print $3}')
[[ "$soc" == 910B3 ]] || fail "default SoC is '$soc', not 910B3"

# Anything but `info` is a usage error.
if "$npu_smi" list >/dev/null 2>&1; then fail "'npu-smi list' succeeded"; fi
if "$npu_smi" >/dev/null 2>&1; then fail "'npu-smi' without a command succeeded"; fi
echo "npu-smi: ok"
