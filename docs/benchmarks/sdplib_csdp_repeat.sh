#!/usr/bin/env bash
# CSDP 1-thread CPU per problem, averaged over repeated runs (issue 16; not part of the test suite): /usr/bin/time's
# 0.01 s resolution makes a single run of the small SDPLIB problems read 0.00 s. Usage: sdplib_csdp_repeat.sh OUT PROBLEM...
# Prints "problem reps cpu_per_run" lines (user+sys of REPS runs of `csdp FILE` with OMP_NUM_THREADS=1, divided by REPS).
OUT="$1"; shift
DATA=/work/shared/data/sdplib
for p in "$@"; do
  f="$DATA/$p.dat-s"
  t=$( { OMP_NUM_THREADS=1 /usr/bin/time -f "%U %S" csdp "$f" > /dev/null; } 2>&1 | tail -1 | awk '{print $1+$2}')
  reps=$(awk -v t="$t" 'BEGIN { r = (t < 0.005) ? 50 : int(1.0 / t) + 1; if (r > 50) r = 50; if (r < 1) r = 1; print r }')
  if [[ $reps -gt 1 ]]; then
    t=$( { /usr/bin/time -f "%U %S" bash -c "for i in \$(seq $reps); do OMP_NUM_THREADS=1 csdp '$f' > /dev/null; done"; } 2>&1 \
      | tail -1 | awk -v r="$reps" '{print ($1+$2)/r}')
  fi
  echo "$p $reps $t" >> "$OUT"
done
