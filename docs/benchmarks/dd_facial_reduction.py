#!/usr/bin/python3
"""Partial facial reduction with the diagonally dominant cone (Permenter & Parrilo 2018) on a one-block SDPLIB
problem (issue 16, sdp.md "Session 12"). Not part of the test suite; needs numpy and scipy.

SDPA's names: dual max <F_0,Y> s.t. <F_i,Y> = c_i, Y >= 0. A reducing certificate is W = sum y_i F_i >= 0, W != 0,
with c'y = 0: every dual-feasible Y then has <W, Y> = 0. Replacing W >= 0 by "W diagonally dominant" (W_aa >=
sum_b |W_ab|, a sufficient condition) makes the search a linear program:
    max tr(W)  s.t.  W diagonally dominant,  tr(W) <= 1,  c'y = 0.
An optimum of 0 means that no diagonally dominant W exposes a face: this cheap presolve finds nothing.

Usage: dd_facial_reduction.py PROBLEM [DATA_DIR]
"""
import os
import sys

import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdplib_check import read_sdpa, dense
from scipy.optimize import linprog
from scipy.sparse import lil_matrix
p = sys.argv[1]
data = sys.argv[2] if len(sys.argv) > 2 else '/work/shared/data/sdplib'
m, sizes, c, F = read_sdpa(os.path.join(data, p + '.dat-s'))
if len(sizes) != 1 or sizes[0] < 0:
    sys.exit(p + ': one semidefinite block expected, found block sizes ' + str(sizes))
n = sizes[0]
# W entries as linear maps of y: W_ab = sum_i y_i F_i[ab]
pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
pidx = {pr: k for k, pr in enumerate(pairs)}
nv = m + len(pairs)  # y, then t_ab >= |W_ab|
Wd = np.zeros((n, m)); Wo = np.zeros((len(pairs), m))
for i in range(1, m + 1):
    for (a, b), v in F[i][0].items():
        if a == b: Wd[a, i - 1] += v
        else: Wo[pidx[(a, b)], i - 1] += v
A = lil_matrix((2 * len(pairs) + n + 1, nv))
r = 0
for k in range(len(pairs)):
    A[r, :m] = Wo[k]; A[r, m + k] = -1; r += 1      # W_ab - t_ab <= 0
    A[r, :m] = -Wo[k]; A[r, m + k] = -1; r += 1     # -W_ab - t_ab <= 0
for a in range(n):                                   # sum_b t_ab - W_aa <= 0
    A[r, :m] = -Wd[a]
    for b in range(n):
        if b != a: A[r, m + pidx[(min(a, b), max(a, b))]] = 1
    r += 1
A[r, :m] = Wd.sum(0); r += 1                          # tr W <= 1
b_ub = np.zeros(r); b_ub[-1] = 1
Aeq = np.zeros((1, nv)); Aeq[0, :m] = c
obj = np.zeros(nv); obj[:m] = -Wd.sum(0)
res = linprog(obj, A_ub=A.tocsr(), b_ub=b_ub, A_eq=Aeq, b_eq=[0], bounds=[(None, None)] * m + [(0, None)] * len(pairs), method='highs')
print(p, 'n', n, 'm', m, res.status, 'max tr(W) over DD exposing matrices:', '%.3g' % max(0.0, -res.fun))
if -res.fun > 1e-9:
    y = res.x[:m]; W = dense(F[1][0], n) * 0
    for i in range(1, m + 1): W += y[i - 1] * dense(F[i][0], n)
    ev = np.linalg.eigvalsh(W); print('rank of W', int((ev > 1e-9 * ev.max()).sum()))
