package org.psdkit.optim.sdp;

import java.util.ArrayList;

/**
 * One sparse constraint term of a block in the double-double iteration ({@link DdSdpSolver}): constraint
 * {@code cons}, its expanded entries (ep, eq, ea), its support, and its cross decomposition when it has a cheap one.
 *
 * @param cons    the constraint index i of A_i
 * @param ep      row of each expanded entry
 * @param eq      column of each expanded entry
 * @param ea      value of each expanded entry
 * @param support the indices of the rows and columns with an entry
 * @param cross   the cross decomposition ({@link #crossOf}), or null
 */
record DdTerm(int cons, int[] ep, int[] eq, double[] ea, int[] support, Cross cross) {

    /**
     * A = Σ_k (e_k v_kᵀ + v_k e_kᵀ) over a few centres k (control's constraints: full rows and columns 1 and k of a
     * block), v_k sparse (indices idx[k], values val[k]). Then G = X A Z⁻¹ = Σ_k (X e_k)(Z⁻¹ v_k)ᵀ + (X v_k)(Z⁻¹ e_k)ᵀ,
     * 2|K| products per entry of G instead of |supp A| (the low-rank route of SDPA's F1/F2 choice, Fujisawa, Kojima
     * &amp; Nakata 1997, §3, for a rank-2|K| coefficient).
     */
    record Cross(int[] centre, int[][] idx, double[][] val) {
    }

    /** At most 4 centres (control's constraints have 1 or 2; a coefficient needing more is left to the support route). */
    static final int MAX_CROSS_CENTRES = 4;
    /**
     * The cross route is taken when it needs 8× fewer products per G entry than the support route (2|K| against
     * |supp|): control's 50-blocks (|supp| = 50, |K| ≤ 2) qualify; hinf's one cross term per 8–18 block does not, where
     * the route gained nothing measurable but its different rounding changed hinf15's trajectory (164 → 171
     * iterations, ill-posed either way).
     */
    static final int CROSS_GAIN = 8;

    /**
     * The cross decomposition of a symmetric sparse coefficient (expanded entries), or null when it needs more than
     * {@link #MAX_CROSS_CENTRES} centres or is not {@link #CROSS_GAIN}× cheaper than the support route. Centres are
     * chosen greedily (the index on most uncovered entries first); an entry (p, q) is put on the first centre it
     * touches, a diagonal entry as half on each side (exact in binary).
     */
    static Cross crossOf(int[] ep, int[] eq, double[] ea, int supportSize) {
        java.util.List<int[]> pairs = new ArrayList<>();
        for (int e = 0; e < ea.length; e++) {
            if (ep[e] <= eq[e] && ea[e] != 0) {
                pairs.add(new int[] {ep[e], eq[e], e});
            }
        }
        java.util.List<Integer> centres = new ArrayList<>();
        boolean[] covered = new boolean[pairs.size()];
        int left = pairs.size();
        while (left > 0) {
            if (centres.size() == MAX_CROSS_CENTRES) {
                return null;
            }
            java.util.Map<Integer, Integer> count = new java.util.HashMap<>();
            for (int k = 0; k < pairs.size(); k++) {
                if (!covered[k]) {
                    count.merge(pairs.get(k)[0], 1, Integer::sum);
                    if (pairs.get(k)[1] != pairs.get(k)[0]) {
                        count.merge(pairs.get(k)[1], 1, Integer::sum);
                    }
                }
            }
            int best = -1;
            int bestCount = 0;
            for (var en : count.entrySet()) {
                if (en.getValue() > bestCount || en.getValue() == bestCount && en.getKey() < best) {
                    best = en.getKey();
                    bestCount = en.getValue();
                }
            }
            centres.add(best);
            for (int k = 0; k < pairs.size(); k++) {
                if (!covered[k] && (pairs.get(k)[0] == best || pairs.get(k)[1] == best)) {
                    covered[k] = true;
                    left--;
                }
            }
        }
        if (CROSS_GAIN * 2 * centres.size() > supportSize) {
            return null;
        }
        int nc = centres.size();
        java.util.List<java.util.Map<Integer, Double>> v = new ArrayList<>();
        for (int c = 0; c < nc; c++) {
            v.add(new java.util.TreeMap<>());
        }
        for (int[] pq : pairs) {
            int p = pq[0];
            int q = pq[1];
            double a = ea[pq[2]];
            for (int c = 0; c < nc; c++) {
                int k = centres.get(c);
                if (p == k || q == k) {
                    if (p == q) {
                        v.get(c).merge(k, 0.5 * a, Double::sum);
                    } else {
                        v.get(c).merge(p == k ? q : p, a, Double::sum);
                    }
                    break;
                }
            }
        }
        int[] centre = new int[nc];
        int[][] idx = new int[nc][];
        double[][] val = new double[nc][];
        for (int c = 0; c < nc; c++) {
            centre[c] = centres.get(c);
            idx[c] = v.get(c).keySet().stream().mapToInt(Integer::intValue).toArray();
            val[c] = v.get(c).values().stream().mapToDouble(Double::doubleValue).toArray();
        }
        return new Cross(centre, idx, val);
    }
}
