#!/usr/bin/env python3
# One SVC.fit on svm-train-5000.csv (rbf gamma 0.1, C 10, tol 1e-3, cache 500 MB), as `psdkit fit svm` does it.
import sys, time
import numpy as np
from sklearn.svm import SVC
a = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
x, y = a[:, :-1], a[:, -1]
t0 = time.perf_counter()
SVC(C=10.0, kernel="rbf", gamma=0.1, tol=1e-3, cache_size=500).fit(x, y)
print(f"SVC.fit {time.perf_counter() - t0:.3f} s", file=sys.stderr)
