#!/usr/bin/env bash
# Builds everything, then runs the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
exec ctest --output-on-failure -j2
