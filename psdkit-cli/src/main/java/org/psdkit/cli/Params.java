package org.psdkit.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.kernel.Kernel;

/**
 * Named model parameters as text (one grid point of {@code cv}, or the options of {@code fit}); typed getters check
 * the value and name the parameter in errors.
 */
public final class Params {
    private final Map<String, String> values;

    public Params(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Map<String, String> asMap() {
        return values;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public String get(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("parameter '" + name + "' is not set");
        }
        return v;
    }

    /** A finite number. */
    public double getDouble(String name) {
        String v = get(name);
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter " + name + "=" + v + " is not a number");
        }
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("parameter " + name + "=" + v + " is not finite");
        }
        return d;
    }

    /** A number ≥ 0. */
    public double getNonNegative(String name) {
        double d = getDouble(name);
        if (d < 0) {
            throw new IllegalArgumentException("parameter " + name + " must be >= 0, got " + get(name));
        }
        return d;
    }

    /** A number > 0. */
    public double getPositive(String name) {
        double d = getDouble(name);
        if (!(d > 0)) {
            throw new IllegalArgumentException("parameter " + name + " must be > 0, got " + get(name));
        }
        return d;
    }

    public int getInt(String name) {
        try {
            return Integer.parseInt(get(name).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter " + name + "=" + get(name) + " is not an integer");
        }
    }

    /**
     * The {@code kernel} parameter with every other parameter that names one of its hyper-parameters (simple name
     * such as {@code sigma}, or qualified such as {@code gaussian#2.sigma}) set to this parameter set's value: with
     * {@code kernel=gaussian(sigma=1) + 0.01*delta} and {@code sigma=0.3} the result is
     * {@code gaussian(sigma=0.3) + 0.01*delta}. This is how a grid over {@code sigma} reaches the kernel.
     */
    public Kernel kernel() {
        Kernel k = KernelSpecs.parse(get("kernel"));
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (!e.getKey().equals("kernel") && KernelSpecs.hasParameter(k, e.getKey())) {
                k = KernelSpecs.withParameter(k, e.getKey(), e.getValue());
            }
        }
        return k;
    }

    /** The kernel string of {@link #kernel()}. */
    public String kernelSpec() {
        return kernel().spec();
    }

    /** True if {@code name} is a hyper-parameter of the kernel string {@code kernelSpec}. */
    public static boolean isKernelParameter(String kernelSpec, String name) {
        return kernelSpec != null && KernelSpecs.hasParameter(KernelSpecs.parse(kernelSpec), name);
    }

    /** A copy with some values replaced or added. */
    public Params with(Map<String, String> overrides) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.putAll(overrides);
        return new Params(m);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
