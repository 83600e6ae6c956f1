#!/usr/bin/python3
"""Independent certificate check of an SDPA-format solution (issue 16): reads the problem (.dat-s) and a solution
written by `psdkit sdp solve --solution S.json` (or CSDP's solution file, --csdp), and recomputes from the data, in
numpy, in SDPA's names (primal: min c'x s.t. S = sum x_i F_i - F_0 >= 0; dual: max <F_0,Y> s.t. <F_i,Y> = c_i,
Y >= 0):

  dual_res   ||(<F_i,Y> - c_i)_i||_2 / (1 + ||c||_2)
  y_psd      max(0, -lambda_min(Y)) / (1 + ||Y||_F)
  slack_psd  max(0, -lambda_min(sum x_i F_i - F_0)) / (1 + ||F_0||_F)      (slack recomputed from x)
  gap        |c'x - <F_0,Y>| / (1 + |c'x| + |<F_0,Y>|)

and prints one JSON line with these, their maximum and pass = (maximum <= 1e-6). Not part of the test suite.
Usage: sdplib_check.py PROBLEM.dat-s SOLUTION [--csdp]
"""
import json
import re
import sys

import numpy as np

TOL = 1e-6  # issue 16: every residual and the true gap <= 1e-6 relative


def read_sdpa(path):
    with open(path) as f:
        lines = [ln for ln in f if not ln.lstrip().startswith(('"', '*')) and ln.strip()]
    tok = lambda s: [t for t in re.split(r'[\s,{}()]+', s.strip()) if t]
    m = int(tok(lines[0])[0])
    nb = int(tok(lines[1])[0])
    sizes = [int(float(t)) for t in tok(lines[2])[:nb]]
    rest = []
    k = 3
    while len(rest) < m:
        rest += [float(t) for t in tok(lines[k])]
        k += 1
    c = np.array(rest[:m])
    F = [[None] * nb for _ in range(m + 1)]
    for b, s in enumerate(sizes):
        for i in range(m + 1):
            F[i][b] = {}
    for ln in lines[k:]:
        t = tok(ln)
        if len(t) < 5:
            continue
        mat, blk, i, j, v = int(t[0]), int(t[1]) - 1, int(t[2]) - 1, int(t[3]) - 1, float(t[4])
        if i > j:
            i, j = j, i
        F[mat][blk][(i, j)] = F[mat][blk].get((i, j), 0.0) + v
    return m, sizes, c, F


def dense(entries, s):
    n = abs(s)
    A = np.zeros((n, n))
    for (i, j), v in entries.items():
        A[i, j] = v
        A[j, i] = v
    return A


def read_psdkit(path, sizes):
    with open(path) as f:
        d = json.load(f)
    x = np.array(d['x'], dtype=float)
    Y = []
    for b, s in enumerate(sizes):
        blk = d['Y'][b]
        Y.append(np.diag(np.array(blk, dtype=float)) if s < 0 else np.array(blk, dtype=float))
    return x, Y


def read_csdp(path, sizes, m):
    with open(path) as f:
        lines = f.read().split('\n')
    x = np.array([float(t) for t in lines[0].split()])
    Y = [np.zeros((abs(s), abs(s))) for s in sizes]
    for ln in lines[1:]:
        t = ln.split()
        if len(t) < 5 or int(t[0]) != 2:
            continue
        b, i, j, v = int(t[1]) - 1, int(t[2]) - 1, int(t[3]) - 1, float(t[4])
        Y[b][i, j] = v
        Y[b][j, i] = v
    return x, Y


def main():
    prob, sol = sys.argv[1], sys.argv[2]
    m, sizes, c, F = read_sdpa(prob)
    if len(sys.argv) > 3 and sys.argv[3] == '--csdp':
        x, Y = read_csdp(sol, sizes, m)
    else:
        x, Y = read_psdkit(sol, sizes)
    if not (np.all(np.isfinite(x)) and all(np.all(np.isfinite(y)) for y in Y)):
        print(json.dumps({'pass': False, 'note': 'non-finite solution'}))
        return
    nb = len(sizes)
    F0 = [dense(F[0][b], sizes[b]) for b in range(nb)]
    AY = np.zeros(m)
    S = [-F0[b] for b in range(nb)]
    for i in range(m):
        for b in range(nb):
            e = F[i + 1][b]
            if not e:
                continue
            acc = 0.0
            for (p, q), v in e.items():
                acc += v * Y[b][p, q] * (1 if p == q else 2)
                S[b][p, q] += x[i] * v
                if p != q:
                    S[b][q, p] += x[i] * v
            AY[i] += acc
    F0Y = sum(float(np.sum(F0[b] * Y[b])) for b in range(nb))
    cx = float(c @ x)
    nF0 = np.sqrt(sum(float(np.sum(F0[b] ** 2)) for b in range(nb)))
    nY = np.sqrt(sum(float(np.sum(Y[b] ** 2)) for b in range(nb)))
    lmY = min(float(np.linalg.eigvalsh(Y[b])[0]) if sizes[b] > 0 else float(np.min(np.diag(Y[b])))
              for b in range(nb))
    lmS = min(float(np.linalg.eigvalsh(S[b])[0]) if sizes[b] > 0 else float(np.min(np.diag(S[b])))
              for b in range(nb))
    out = {
        'dual_res': float(np.linalg.norm(AY - c) / (1 + np.linalg.norm(c))),
        'y_psd': max(0.0, -lmY) / (1 + nY),
        'slack_psd': max(0.0, -lmS) / (1 + nF0),
        'gap': abs(cx - F0Y) / (1 + abs(cx) + abs(F0Y)),
        'cx': cx,
        'F0Y': F0Y,
    }
    out['max'] = max(out['dual_res'], out['y_psd'], out['slack_psd'], out['gap'])
    out['pass'] = bool(out['max'] <= TOL)
    print(json.dumps(out))


if __name__ == '__main__':
    main()
