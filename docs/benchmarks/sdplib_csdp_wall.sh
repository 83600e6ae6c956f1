#!/usr/bin/env bash
# CSDP wall seconds per SDPLIB problem at CSDP's default threads, averaged over repeated runs (issue 16; not part of
# the test suite; needs Debian's coinor-csdp). Problems under 0.5 s are repeated to about 1 s (at most 100 runs).
# Usage: sdplib_csdp_wall.sh OUT PROBLEM...   (DATA=/path/to/sdplib, default /work/shared/data/sdplib)
# Appends "problem reps wall user sys iterations status objective" lines to OUT (times per run, seconds).
OUT="$1"; shift
D="${DATA:-/work/shared/data/sdplib}"
for p in "$@"; do
  f="$D/$p.dat-s"
  t=$( { /usr/bin/time -f "%e %U %S" csdp "$f" > "/tmp/csdp.$p.out"; } 2>&1 | tail -1)
  w=$(echo "$t" | awk '{print $1}')
  reps=$(awk -v t="$w" 'BEGIN { r = (t < 0.01) ? 100 : int(1.0 / t) + 1; if (r > 100) r = 100; if (t >= 0.5) r = 1; print r }')
  if [[ $reps -gt 1 ]]; then
    t=$( { /usr/bin/time -f "%e %U %S" bash -c "for i in \$(seq $reps); do csdp '$f' > /dev/null; done"; } 2>&1 | tail -1)
    t=$(echo "$t" | awk -v r="$reps" '{printf "%.5f %.5f %.5f", $1/r, $2/r, $3/r}')
  fi
  it=$(grep -c "^Iter" "/tmp/csdp.$p.out")
  st=$(grep -m1 "^Success\|^Partial\|^Failure\|^Stuck\|infeasible" "/tmp/csdp.$p.out" | tr ' ' '_')
  obj=$(grep "^Primal objective value" "/tmp/csdp.$p.out" | awk '{print $NF}')
  echo "$p $reps $t $it $st $obj" >> "$OUT"
done
