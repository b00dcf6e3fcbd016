#!/bin/bash
# Same-run comparison of ishi binaries on this noisy shared machine: runs
# `ishi bench` (raw playouts, one thread, 9x9 and 19x19, 1 s each) for
# every binary in turn, ROUNDS times, and prints the best and the median
# rate per binary and size. Light playouts unless PLAYOUT=heavy.
#
#   tests/tools/bench_compare.sh 7 /tmp/ishi-before target/release/ishi
#   PLAYOUT=heavy tests/tools/bench_compare.sh 7 /tmp/ishi-before target/release/ishi
set -euo pipefail
rounds=$1
shift
for _ in $(seq "$rounds"); do
  for bin in "$@"; do
    # Builds before `--repeat` existed measure once anyway.
    once=()
    if "$bin" bench --help | grep -q -- --repeat; then once=(--repeat 1); fi
    "$bin" bench --sizes 9,19 --threads 1 --playout "${PLAYOUT:-light}" --seconds 1 "${once[@]}" 2>/dev/null |
      awk -v b="$bin" '/ playouts threads/ {sub("playouts/s=", "", $5); print b, $1, $5}'
  done
done | sort -k1,1 -k2,2 -k3,3n | awk '
  { k = $1 " " $2; v[k] = v[k] " " $3; n[k]++ }
  END { for (k in v) { split(v[k], a, " "); print k ": best " a[n[k]] " median " a[int((n[k] + 1) / 2)] } }' | sort
