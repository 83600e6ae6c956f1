#!/usr/bin/env python3
"""Records scikit-learn's kernel ridge and ridge predictions on a small problem, for psdkit's tests.

Usage: /usr/bin/python3 psdkit-bench/scripts/krr_sklearn_reference.py OUT_DIR
(OUT_DIR = psdkit-core/src/test/resources/sklearn). Debian's python3-sklearn; the tests never call Python, they read
the files written here:

  krr-train.csv  x1,x2,x3,w,y1,y2,y3   40 rows: features, a sample weight, three targets
  krr-test.csv   x1,x2,x3,<prediction columns>   15 rows: test features and scikit-learn's predictions:
    krr_w      KernelRidge(alpha=0.1, kernel="rbf", gamma=0.5).fit(X, y1, sample_weight=w)
    krr_y1..3  KernelRidge(alpha=0.1, kernel="rbf", gamma=0.5).fit(X, [y1, y2, y3])   (one multi-output fit)
    krrw_y1..3 the same 3-column fit with sample_weight=w
    ridge_w    Ridge(alpha=1.0).fit(X, y1, sample_weight=w)   (fit_intercept=True)
    ridge_y1..3 Ridge(alpha=1.0).fit(X, [y1, y2, y3])
gamma 0.5 is psdkit's gaussian(sigma=1) (gamma = 1 / (2 sigma^2)). Numbers are written with repr (17 digits).
"""
import os
import sys

import numpy as np
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(31)
    n, m, d = 40, 15, 3
    x = rng.uniform(-2, 2, size=(n + m, d))
    y1 = np.sin(x[:, 0]) + 0.5 * x[:, 1] * x[:, 2] + 0.1 * rng.standard_normal(n + m)
    y2 = np.cos(x[:, 1]) - x[:, 0] + 0.1 * rng.standard_normal(n + m)
    y3 = x[:, 2] ** 2 + 0.1 * rng.standard_normal(n + m)
    w = rng.uniform(0, 3, size=n)
    w[3] = 0.0  # a zero weight: the row is left out of the loss
    w[7] = 2.0  # an integer weight: the row counts twice
    xt, xs = x[:n], x[n:]
    yt = np.column_stack([y1, y2, y3])[:n]
    cols = {}
    cols["krr_w"] = KernelRidge(alpha=0.1, kernel="rbf", gamma=0.5).fit(xt, yt[:, 0], sample_weight=w).predict(xs)
    p = KernelRidge(alpha=0.1, kernel="rbf", gamma=0.5).fit(xt, yt).predict(xs)
    pw = KernelRidge(alpha=0.1, kernel="rbf", gamma=0.5).fit(xt, yt, sample_weight=w).predict(xs)
    for k in range(3):
        cols[f"krr_y{k + 1}"] = p[:, k]
    for k in range(3):
        cols[f"krrw_y{k + 1}"] = pw[:, k]
    cols["ridge_w"] = Ridge(alpha=1.0).fit(xt, yt[:, 0], sample_weight=w).predict(xs)
    pr = Ridge(alpha=1.0).fit(xt, yt).predict(xs)
    for k in range(3):
        cols[f"ridge_y{k + 1}"] = pr[:, k]
    with open(os.path.join(out, "krr-train.csv"), "w") as f:
        f.write("x1,x2,x3,w,y1,y2,y3\n")
        for i in range(n):
            f.write(",".join(repr(float(v)) for v in [*xt[i], w[i], *yt[i]]) + "\n")
    with open(os.path.join(out, "krr-test.csv"), "w") as f:
        f.write(",".join(["x1", "x2", "x3", *cols]) + "\n")
        for i in range(m):
            f.write(",".join(repr(float(v)) for v in [*xs[i], *(c[i] for c in cols.values())]) + "\n")


if __name__ == "__main__":
    main()
