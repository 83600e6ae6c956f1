package org.psdkit.optim.sdp;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An affine expression Σ c_v v + c₀ in the scalar variables of one {@link SdpModel}. Mutable builder style:
 * {@code LinExpr.of(t).plus(2.0, x).plus(-1.0)}; every method returns {@code this}.
 */
public final class LinExpr {
    final Map<Integer, Double> coef = new LinkedHashMap<>();
    double constant;

    public LinExpr() {
    }

    /** The expression 1·v. */
    public static LinExpr of(SdpModel.Var v) {
        return new LinExpr().plus(1.0, v);
    }

    /** The expression c·v. */
    public static LinExpr of(double c, SdpModel.Var v) {
        return new LinExpr().plus(c, v);
    }

    /** The constant expression c. */
    public static LinExpr constant(double c) {
        return new LinExpr().plus(c);
    }

    /** Adds c·v. */
    public LinExpr plus(double c, SdpModel.Var v) {
        if (!Double.isFinite(c)) {
            throw new IllegalArgumentException("coefficient of " + v.name() + " is not finite: " + c);
        }
        coef.merge(v.index(), c, Double::sum);
        return this;
    }

    /** Adds 1·v. */
    public LinExpr plus(SdpModel.Var v) {
        return plus(1.0, v);
    }

    /** Adds a constant. */
    public LinExpr plus(double c) {
        if (!Double.isFinite(c)) {
            throw new IllegalArgumentException("constant is not finite: " + c);
        }
        constant += c;
        return this;
    }

    /** Adds c·e. */
    public LinExpr plus(double c, LinExpr e) {
        for (var x : e.coef.entrySet()) {
            coef.merge(x.getKey(), c * x.getValue(), Double::sum);
        }
        constant += c * e.constant;
        return this;
    }

    public double constantTerm() {
        return constant;
    }

    /** Value at a point given by the model's solution vector (indexed by variable index). */
    double evaluate(double[] values) {
        double s = constant;
        for (var x : coef.entrySet()) {
            s += x.getValue() * values[x.getKey()];
        }
        return s;
    }
}
