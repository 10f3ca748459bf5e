#!/usr/bin/env bash
# Builds Canopy and runs its main demo: the asynchronous Matmul + Add pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target matmul_add_pipeline
./build/bin/matmul_add_pipeline "$@"
