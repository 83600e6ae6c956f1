#!/usr/bin/env python3
"""Peer for `psdkit bench svm`: scikit-learn SVC (LIBSVM) on the CSV files the benchmark wrote.

Usage: /usr/bin/python3 docs/benchmarks/svm_sklearn.py DIR N [N ...]  (DIR = the bench's --data-dir)
Same settings as the benchmark's defaults: Gaussian kernel gamma 0.1, C 10, tol 1e-3, cache_size 500 MB,
shrinking on (LIBSVM's defaults otherwise). Prints fit seconds (best of --repeats), iterations, support vectors,
test accuracy and the share of test labels equal to psdkit's (svm-psdkit-decision-N.csv).
"""
import sys
import time

import numpy as np
from sklearn.svm import SVC


def load(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1)
    return a[:, :-1], a[:, -1]


def main():
    d = sys.argv[1]
    xt, yt = load(f"{d}/svm-test.csv")
    for n in map(int, sys.argv[2:]):
        x, y = load(f"{d}/svm-train-{n}.csv")
        best = float("inf")
        for _ in range(3 if n <= 10000 else 1):
            clf = SVC(C=10.0, kernel="rbf", gamma=0.1, tol=1e-3, cache_size=500)
            t0 = time.perf_counter()
            clf.fit(x, y)
            best = min(best, time.perf_counter() - t0)
        pred = clf.predict(xt)
        ps = np.loadtxt(f"{d}/svm-psdkit-decision-{n}.csv", delimiter=",", skiprows=1)
        agree = np.mean(pred == ps[:, 0])
        dec = clf.decision_function(xt)
        # sklearn's decision is positive for classes_[1] (= +1); psdkit's column is in its predicted label's sign
        ours = np.where(ps[:, 0] > 0, 1.0, -1.0) * np.abs(ps[:, 1])
        print(f"n={n}: sklearn {best:.3f} s, iterations {clf.n_iter_[0]}, SVs {clf.n_support_.sum()}, "
              f"test accuracy {np.mean(pred == yt):.4f}, labels equal to psdkit {agree:.4f}, "
              f"max |f_sklearn - f_psdkit| {np.max(np.abs(dec - ours)):.2e}")


if __name__ == "__main__":
    main()
