#!/usr/bin/env python3
"""Peers of `psdkit bench cold`: one scikit-learn command per process, on the CSV files the benchmark wrote.

Each call is what a user of scikit-learn runs from the terminal in place of one psdkit command: start Python, import
scikit-learn, read the CSV, fit (or load the pickled model and predict), write the model (pickle) or the predictions
(CSV). `psdkit bench cold` times the whole process (start to exit), as it times psdkit's.

Usage (/usr/bin/python3, Debian's scikit-learn 1.2.1):
  cold_peers.py svm-fit TRAIN.csv MODEL.pkl C GAMMA          SVC(kernel="rbf", tol=1e-3, cache_size=500)
  cold_peers.py krr-fit TRAIN.csv MODEL.pkl ALPHA GAMMA      KernelRidge(kernel="rbf")
  cold_peers.py nystroem-fit TRAIN.csv MODEL.pkl ALPHA GAMMA M SEED
                                                            Nystroem(n_components=M) + Ridge(fit_intercept=False)
  cold_peers.py ocsvm-fit TRAIN.csv MODEL.pkl NU GAMMA       OneClassSVM(kernel="rbf")
  cold_peers.py predict MODEL.pkl DATA.csv OUT.csv           the pickled model's predict on DATA's features
TRAIN.csv: a header line, the features, the target in the last column (ocsvm-fit: features only). DATA.csv of
predict: the features, with the target last when the model was fitted with one (it is dropped).
"""
import pickle
import sys

import numpy as np


def load(path, target=True):
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return (a[:, :-1], a[:, -1]) if target else (a, None)


def save(model, path, d):
    with open(path, "wb") as f:
        pickle.dump({"model": model, "features": d}, f)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "svm-fit":
        from sklearn.svm import SVC
        x, y = load(args[0])
        m = SVC(C=float(args[2]), kernel="rbf", gamma=float(args[3]), tol=1e-3, cache_size=500).fit(x, y)
        save(m, args[1], x.shape[1])
    elif cmd == "krr-fit":
        from sklearn.kernel_ridge import KernelRidge
        x, y = load(args[0])
        m = KernelRidge(alpha=float(args[2]), kernel="rbf", gamma=float(args[3])).fit(x, y)
        save(m, args[1], x.shape[1])
    elif cmd == "nystroem-fit":
        from sklearn.kernel_approximation import Nystroem
        from sklearn.linear_model import Ridge
        from sklearn.pipeline import make_pipeline
        x, y = load(args[0])
        m = make_pipeline(Nystroem(kernel="rbf", gamma=float(args[3]), n_components=int(args[4]),
                                   random_state=int(args[5])),
                          Ridge(alpha=float(args[2]), fit_intercept=False)).fit(x, y)
        save(m, args[1], x.shape[1])
    elif cmd == "ocsvm-fit":
        from sklearn.svm import OneClassSVM
        x, _ = load(args[0], target=False)
        m = OneClassSVM(kernel="rbf", nu=float(args[2]), gamma=float(args[3])).fit(x)
        save(m, args[1], x.shape[1])
    elif cmd == "predict":
        with open(args[0], "rb") as f:
            saved = pickle.load(f)
        a = np.loadtxt(args[1], delimiter=",", skiprows=1, ndmin=2)
        p = saved["model"].predict(a[:, :saved["features"]])
        np.savetxt(args[2], p, delimiter=",", header="prediction", comments="")
    else:
        sys.exit("cold_peers.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
