package org.psdkit.classify.mkl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.WeightedSumKernel;

/** The concatenation of two libraries (Colbert &amp; Peet's "combined": Gaussian/polynomial plus random TK). */
public final class CombinedLibrary implements KernelLibrary {

    private final KernelLibrary first;
    private final KernelLibrary second;

    public CombinedLibrary(KernelLibrary first, KernelLibrary second) {
        if (first.points() != second.points()) {
            throw new IllegalArgumentException("libraries on different training sets");
        }
        this.first = first;
        this.second = second;
    }

    @Override
    public int size() {
        return first.size() + second.size();
    }

    @Override
    public int points() {
        return first.points();
    }

    @Override
    public String describe(int k) {
        return k < first.size() ? first.describe(k) : second.describe(k - first.size());
    }

    @Override
    public double[] quadForms(double[] beta) {
        double[] a = first.quadForms(beta);
        double[] b = second.quadForms(beta);
        double[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Override
    public void addCombination(double[] w, double[] out) {
        first.addCombination(Arrays.copyOfRange(w, 0, first.size()), out);
        second.addCombination(Arrays.copyOfRange(w, first.size(), w.length), out);
    }

    @Override
    public Kernel combined(double[] w) {
        double[] a = Arrays.copyOfRange(w, 0, first.size());
        double[] b = Arrays.copyOfRange(w, first.size(), w.length);
        List<Kernel> parts = new ArrayList<>();
        List<Double> ws = new ArrayList<>();
        if (Arrays.stream(a).anyMatch(v -> v != 0)) {
            parts.add(first.combined(a));
            ws.add(1.0);
        }
        if (Arrays.stream(b).anyMatch(v -> v != 0)) {
            parts.add(second.combined(b));
            ws.add(1.0);
        }
        return new WeightedSumKernel(parts, ws.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
