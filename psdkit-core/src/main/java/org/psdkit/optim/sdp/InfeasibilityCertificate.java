package org.psdkit.optim.sdp;

/**
 * The infeasibility certificates of the double-precision iteration, as in SDPT3 (Toh, Todd &amp; Tütüncü 1999): a
 * dual ray y proves (P) infeasible, a primal ray X proves (D) infeasible. The double-double and Kernel SoS iterations
 * have none: the restart runs only after a double run that found none, and the Kernel SoS SDP is always feasible.
 */
final class InfeasibilityCertificate {

    private InfeasibilityCertificate() {
    }

    /**
     * The certificate of an iterate with R_d = C − Z − Σ y_i A_i = {@code rd} and A(X) = {@code ax}, or null: (P)
     * infeasible when bᵀy &gt; 0 and ‖Σ y_i A_i + Z‖ / bᵀy is below the tolerance, (D) when ⟨C,X⟩ &lt; 0 and
     * ‖A(X)‖ / |⟨C,X⟩| is.
     */
    static StopReason of(double[][] c, double[][] rd, double[] ax, double pobj, double dobj, double tolerance) {
        if (dobj > 0) {
            double[][] aty = SdpSolver.copy(c); // Σ y_i A_i + Z = C − R_d
            for (int b = 0; b < aty.length; b++) {
                for (int k = 0; k < aty[b].length; k++) {
                    aty[b][k] -= rd[b][k];
                }
            }
            if (SdpSolver.norm(aty) / dobj < tolerance) {
                return new StopReason(SdpStatus.PRIMAL_INFEASIBLE, "certificate y: b'y = " + dobj
                        + " > 0 with ||A'y + Z|| / b'y = " + SdpSolver.norm(aty) / dobj);
            }
        }
        if (pobj < 0) {
            double r = SdpSolver.norm(ax) / -pobj;
            if (r < tolerance) {
                return new StopReason(SdpStatus.DUAL_INFEASIBLE, "certificate X: <C,X> = " + pobj
                        + " < 0 with ||A(X)|| / |<C,X>| = " + r);
            }
        }
        return null;
    }
}
