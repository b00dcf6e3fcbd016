#!/bin/bash
# Same-run comparison of how ishi binaries scale from one thread to two in
# the tree search: every round runs `ishi bench --search-only` (1 s with one
# thread, then 1 s with two) for every binary in turn, and the ratio of the
# two rates is taken within the round, so that a slow spell of this shared
# machine hits both halves alike. Prints the median, the range and the mean
# of the ratios per binary and size. Light playouts unless PLAYOUT=heavy.
#
#   tests/tools/scaling_compare.sh 30 9 /tmp/ishi-before target/release/ishi
set -euo pipefail
rounds=$1
size=$2
shift 2
for _ in $(seq "$rounds"); do
  for bin in "$@"; do
    "$bin" bench --sizes "$size" --threads 1,2 --playout "${PLAYOUT:-light}" --seconds 1 \
      --repeat 1 --search-only 2>/dev/null |
      awk -v b="$bin" '/ search threads=2 / {sub("ratio_vs_first=", "", $6); print b, $1, $6}'
  done
done | sort -k1,1 -k2,2 -k3,3n | awk '
  { k = $1 " " $2; v[k] = v[k] " " $3; n[k]++; sum[k] += $3 }
  END {
    for (k in v) {
      split(v[k], a, " "); m = n[k]
      med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
      printf "%s: two threads / one, median %.3f (%.2f-%.2f), mean %.3f over %d rounds\n", k, med, a[1], a[m], sum[k] / m, m
    }
  }' | sort
