#!/usr/bin/env bash
# Issue 33 (hot loops): `fit krr` (California, n = 5,000) and `fit svm` (bench svm's data, n = 5,000) as whole
# processes, two psdkit jars interleaved with scikit-learn's KernelRidge.fit / SVC.fit scripts, ROUNDS rounds; then
# `bench krr` and `bench svm` in-process (warm) for each jar. Usage:
#   docs/benchmarks/hot_loops_run.sh OLD.jar NEW.jar DATA_DIR [ROUNDS]
# DATA_DIR must hold cal5000.csv (the first 5,000 rows of numpy's permutation with seed 1 of California housing,
# as krr_sklearn.py draws them) and svm-train-5000.csv (written by `psdkit bench svm --data-dir`).
set -uo pipefail
OLD="$1"; NEW="$2"; DATA="$3"; ROUNDS="${4:-3}"
HERE="$(cd "$(dirname "$0")" && pwd)"
export OPENBLAS_CORETYPE=Cooperlake # Debian's OpenBLAS 0.3.21 for numpy on this VM, see krr_sklearn.py
J=(java -Xmx3g -Djava.awt.headless=true -jar)
wall() { /usr/bin/time -f "%e" -o /tmp/hot-loops-time.$$ "$@" >/tmp/hot-loops-out.$$ 2>/tmp/hot-loops-err.$$; \
  printf '%s wall %s s  %s\n' "$label" "$(cat /tmp/hot-loops-time.$$)" \
  "$(grep -ho '"seconds" *: *[0-9.e-]*\|fit [0-9.]* s' /tmp/hot-loops-out.$$ /tmp/hot-loops-err.$$ | head -1)"; }
for r in $(seq 1 "$ROUNDS"); do
  for jar in "$OLD" "$NEW"; do
    label="round $r fit krr $(basename "$(dirname "$jar")")"
    wall "${J[@]}" "$jar" fit krr --train "$DATA/cal5000.csv" --kernel 'gaussian(sigma=1)' --lambda 0.01 \
      --scale zscore --out /tmp/hot-loops-krr.$$.json --json
  done
  label="round $r sklearn KernelRidge.fit"; wall /usr/bin/python3 "$HERE/hot_loops_krr_sklearn.py" "$DATA/cal5000.csv"
  for jar in "$OLD" "$NEW"; do
    label="round $r fit svm $(basename "$(dirname "$jar")")"
    wall "${J[@]}" "$jar" fit svm --train "$DATA/svm-train-5000.csv" --kernel 'gaussian(gamma=0.1)' -C 10 \
      --out /tmp/hot-loops-svm.$$.json --json
  done
  label="round $r sklearn SVC.fit"; wall /usr/bin/python3 "$HERE/hot_loops_svm_sklearn.py" "$DATA/svm-train-5000.csv"
done
for jar in "$OLD" "$NEW"; do
  echo "== $(basename "$(dirname "$jar")") bench krr / bench svm (in-process, best of 3)"
  "${J[@]}" "$jar" bench krr --sizes 5000 --java-max-n 0 --eigen-max-n 0 --repeats 3 2>&1 | grep -i "n=5000\|gram" | head -5
  mkdir -p "/tmp/hot-loops-svm.$$"
  "${J[@]}" "$jar" bench svm --sizes 5000 --repeats 3 --baseline-max-n 0 --data-dir "/tmp/hot-loops-svm.$$" 2>&1 \
    | grep "n=5000" | tail -1
done
rm -rf /tmp/hot-loops-*.$$ /tmp/hot-loops-*.$$.json
