#!/usr/bin/env bash
# Whole-SDPLIB run, psdkit against CSDP back to back per problem (issue 16; not part of the test suite).
# Usage: docs/benchmarks/sdplib_run.sh JAR OUTDIR [PROBLEM...]
# Per problem, in this order:
#   1. CSDP, default threads:             wall and user+sys (/usr/bin/time), its status line, iterations, solution file
#   2. psdkit bench sdp, default threads: the solver's wall and solving-thread CPU (warm JVM: bench warms BLAS up)
#      (skipped with LIGHT=1, when the machine is too loaded for four runs per problem: step 4 then runs with the
#      default threads and its solver seconds are the wall column; the 1-thread CPU column then comes from one
#      `bench sdp --baseline none` run over the whole set with -Dpsdkit.threads=1)
#   3. CSDP, OMP_NUM_THREADS=1:           user+sys
#   4. psdkit sdp solve, 1 thread:        wall/user+sys of the process, --solution for the independent check
#   5. sdplib_check.py on psdkit's and on CSDP's solution (numpy recomputation from the .dat-s file)
# Raw outputs go to OUTDIR/raw, one summary line per problem to OUTDIR/summary.jsonl (sdplib_table.py makes the table).
set -uo pipefail
JAR="$1"; OUT="$2"; shift 2
HERE="$(cd "$(dirname "$0")" && pwd)"
DATA=/work/shared/data/sdplib
PSD_TIMEOUT=${PSD_TIMEOUT:-600}
CSDP_TIMEOUT=${CSDP_TIMEOUT:-600}
mkdir -p "$OUT/raw" "$OUT/sol"
if [[ $# -gt 0 ]]; then
  PROBLEMS=("$@")
else
  # smallest first: n^2 m from the data README's table (m column 2, n column 5)
  mapfile -t PROBLEMS < <(grep '^| [a-z]' "$DATA/README.md" | awk -F'|' '$3+0>0 {gsub(/ /,"",$2); print ($6*$6*$3), $2}' \
    | sort -n | awk '{print $2}')
fi
export OPENBLAS_CORETYPE=Cooperlake
for p in "${PROBLEMS[@]}"; do
  f="$DATA/$p.dat-s"
  [[ -f "$f" ]] || continue
  R="$OUT/raw/$p"
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date -u +%H:%M:%S)
  /usr/bin/time -f "%e %U %S" -o "$R.csdp.time" timeout "$CSDP_TIMEOUT" csdp "$f" "$OUT/sol/$p.csdp" > "$R.csdp.out" 2>&1
  echo "rc $?" >> "$R.csdp.time"
  if [[ "${LIGHT:-0}" != 1 ]]; then
    /usr/bin/time -f "%e %U %S" -o "$R.bench.time" timeout $((PSD_TIMEOUT + 300)) java -Xmx8g -jar "$JAR" bench sdp \
      --baseline none --problems "$p" --time-limit "$PSD_TIMEOUT" --json > "$R.bench.json" 2> "$R.bench.err"
    echo "rc $?" >> "$R.bench.time"
  fi
  OMP_NUM_THREADS=1 /usr/bin/time -f "%e %U %S" -o "$R.csdp1.time" timeout "$CSDP_TIMEOUT" csdp "$f" > "$R.csdp1.out" 2>&1
  echo "rc $?" >> "$R.csdp1.time"
  # LIGHT=1: this run uses the default threads (its seconds are the wall column); otherwise (or with THREADS1=1,
  # for a machine so loaded that two BLAS threads wait for each other) 1 thread
  threads=$([[ "${LIGHT:-0}" == 1 && "${THREADS1:-0}" != 1 ]] && echo 0 || echo 1)
  /usr/bin/time -f "%e %U %S" -o "$R.solve1.time" timeout $((PSD_TIMEOUT + 300)) java -Xmx8g \
    $([[ $threads == 1 ]] && echo -Dpsdkit.threads=1) \
    -jar "$JAR" sdp solve "$f" --json --time-limit "$PSD_TIMEOUT" --solution "$OUT/sol/$p.json" > "$R.solve1.json" 2> "$R.solve1.err"
  echo "rc $?" >> "$R.solve1.time"
  if [[ -s "$OUT/sol/$p.json" ]]; then
    /usr/bin/python3 "$HERE/sdplib_check.py" "$f" "$OUT/sol/$p.json" > "$R.check.json" 2>&1
  fi
  if [[ -s "$OUT/sol/$p.csdp" ]]; then
    /usr/bin/python3 "$HERE/sdplib_check.py" "$f" "$OUT/sol/$p.csdp" --csdp > "$R.csdpcheck.json" 2>&1
  fi
  rm -f "$OUT/sol/$p.json" "$OUT/sol/$p.csdp"
  echo "{\"problem\":\"$p\",\"start\":\"$start\",\"load\":$load,\"end\":\"$(date -u +%H:%M:%S)\",\"load_end\":$(cut -d' ' -f1 /proc/loadavg)}" >> "$OUT/summary.jsonl"
done
echo "done $(date -u +%H:%M:%S)" >> "$OUT/summary.jsonl"
