#!/usr/bin/env bash
# Installs the Debian packages Diet needs (only those missing) and builds the
# project in build/ (Release, tests and apps on).  Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libhalide14-0-dev libxgboost-dev catch2 nlohmann-json3-dev
          libcli11-dev libopenblas-dev libdnnl-dev gnuplot-nox python3-halide python3-numpy
          slurm-wlm munge)  # slurm-wlm, munge: the farm tests' single-node cluster (scripts/slurm_cluster.sh)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg -s "$p" >/dev/null 2>&1; then
        missing+=("$p")
    fi
done

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y "${missing[@]}"
fi

# The options are passed explicitly so that an existing build/ configured
# differently (e.g. apps off) is brought back to the full build.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDIET_BUILD_TESTS=ON -DDIET_BUILD_APPS=ON
cmake --build build -j"$(nproc)"
