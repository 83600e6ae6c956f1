#!/usr/bin/env python3
# One KernelRidge.fit on cal5000.csv (z-scored, rbf gamma 0.5 = sigma 1, alpha 0.01), as `psdkit fit krr` does it.
import sys, time
import numpy as np
from sklearn.kernel_ridge import KernelRidge
a = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
x, y = a[:, :-1], a[:, -1]
x = (x - x.mean(axis=0)) / x.std(axis=0)
t0 = time.perf_counter()
KernelRidge(alpha=0.01, kernel="rbf", gamma=0.5).fit(x, y)
print(f"KernelRidge.fit {time.perf_counter() - t0:.3f} s", file=sys.stderr)
