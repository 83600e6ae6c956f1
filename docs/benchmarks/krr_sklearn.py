#!/usr/bin/env python3
"""Peer for `psdkit bench krr`: scikit-learn KernelRidge on z-scored subsamples of California housing.

Usage: OPENBLAS_CORETYPE=Cooperlake /usr/bin/python3 docs/benchmarks/krr_sklearn.py CSV THREADS N [N ...]
Same settings as the benchmark's defaults: Gaussian kernel sigma 1 (gamma 0.5), alpha (lambda) 0.01; the subsample
is the first N rows of a numpy permutation with seed 1, z-scored. THREADS = BLAS threads (threadpoolctl; 0 = the
library's default). Prints the best fit seconds of 3 (1 for N > 10000). Debian's OpenBLAS 0.3.21 needs
OPENBLAS_CORETYPE=Cooperlake on this VM (it detects "Prescott" otherwise: no AVX kernels).
"""
import sys
import time

import numpy as np
from sklearn.kernel_ridge import KernelRidge
from threadpoolctl import threadpool_info, threadpool_limits


def main():
    a = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
    threads = int(sys.argv[2])
    x_all, y_all = a[:, :-1], a[:, -1]
    perm = np.random.default_rng(1).permutation(len(a))
    for n in map(int, sys.argv[3:]):
        x = x_all[perm[:n]]
        y = y_all[perm[:n]]
        x = (x - x.mean(axis=0)) / x.std(axis=0)
        best = float("inf")
        with threadpool_limits(limits=threads if threads > 0 else None):
            blas = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
            for _ in range(3 if n <= 10000 else 1):
                m = KernelRidge(alpha=0.01, kernel="rbf", gamma=0.5)
                t0 = time.perf_counter()
                m.fit(x, y)
                best = min(best, time.perf_counter() - t0)
        print(f"sklearn n={n} blas_threads={blas} fit_seconds={best:.3f}", flush=True)


if __name__ == "__main__":
    main()
