#!/usr/bin/env bash
# Installs the Debian packages Canopy builds with, when missing (needs root).
set -euo pipefail

packages=(cmake g++ make ccache libdnnl-dev libgtest-dev clang-format clang libomp-dev clang-tidy python3 libsleef-dev libgloo-dev libssl-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
if [[ "$(id -u)" != 0 ]]; then
  echo "Canopy needs these Debian packages: ${missing[*]}; run as root or install them." >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
