package org.psdkit.optim;

/**
 * A convex data-fit term L: ℝⁿ → ℝ ∪ {+∞} of a dual method, described by its value, the value of its Fenchel
 * conjugate L*(α) = sup_z ⟨α, z⟩ − L(z), and the proximal operator of the conjugate. Dual solvers (PSD models,
 * Thm 2 / Thm 8 of Marteau-Ferey, Bach and Rudi 2020) only need {@link #conjugate} and {@link #proxConjugate};
 * {@link #value} gives the primal objective and hence the duality gap.
 *
 * <p>The interface is over the whole vector z (not one coordinate), so that losses coupling several outputs of one
 * point (e.g. a Gaussian negative log-likelihood on mean and variance) can implement it as well.
 */
public interface ConjugateLoss {

    /** Dimension n of z. */
    int size();

    /** L(z), +∞ outside its domain. */
    double value(double[] z);

    /** L*(α), +∞ outside its domain. */
    double conjugate(double[] alpha);

    /** prox_{t L*}(v) written to {@code out} (which may be {@code v}). */
    void proxConjugate(double t, double[] v, double[] out);

    /** L* as a {@link ProxFunction}, the non-smooth part of a dual problem min_α h(α) + L*(α). */
    default ProxFunction conjugateAsProx() {
        ConjugateLoss self = this;
        return new ProxFunction() {
            @Override
            public double value(double[] x) {
                return self.conjugate(x);
            }

            @Override
            public void prox(double t, double[] v, double[] out) {
                self.proxConjugate(t, v, out);
            }
        };
    }
}
