package org.psdkit.cli.fit;

import org.psdkit.cli.Flags;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.PsdOptions;
import picocli.CommandLine.Option;

/**
 * The feature-space options every PSD fit shares ({@code fit psd-regression}, {@code density}, {@code hetero},
 * {@code quantile}): Nyström anchors and the eigenvalue threshold of the empirical feature map (Marteau-Ferey, Bach &amp;
 * Rudi 2020, App. B.4). Use it as {@code @Mixin FeatureSpaceOptions space;}; the anchors are seeded by {@code --seed}.
 */
public final class FeatureSpaceOptions {

    @Option(names = "--anchors", defaultValue = "0", paramLabel = "M",
            description = "Nystrom: expand the model on M training points, the loss still on all (0 = all, the exact "
                    + "model; default: ${DEFAULT-VALUE}).")
    int anchors;

    @Option(names = "--anchor-method", defaultValue = "uniform",
            paramLabel = "uniform|kmeans++|kmeans++-input|rls|rpcholesky",
            description = "How the --anchors are chosen, seeded by --seed: uniform at random, k-means++ seeding in "
                    + "the kernel's feature space or in input space, pilot ridge leverage scores, or randomly pivoted "
                    + "Cholesky; docs/scale.md compares them ('leverage', deprecated, is rpcholesky; default: "
                    + "${DEFAULT-VALUE}).")
    String anchorMethod;

    @Option(names = "--rank-threshold", paramLabel = "X",
            description = "Keep the eigen-directions of the expansion points' kernel matrix above X·lambda_max; "
                    + "the objective and gap are those of the problem restricted to them (default 1e-8; a "
                    + "warning below 1e-12, where double precision no longer resolves them).")
    Double rankThreshold;

    /** {@code --anchors}, checked to be ≥ 0 (0: every training point). */
    public int anchors() {
        if (anchors < 0) {
            throw new IllegalArgumentException("--anchors must be >= 0, got " + anchors);
        }
        return anchors;
    }

    /**
     * {@code --anchor-method}; errors name the option. A deprecated name ({@code leverage}) keeps the PSD families'
     * old meaning, with a one-line note on stderr.
     */
    public Anchors.Method anchorMethod() {
        return anchorMethod(anchorMethod, Anchors.Family.PSD);
    }

    /** {@code --anchor-method} {@code name} with {@code family}'s meaning of the old names, noted once on stderr. */
    static Anchors.Method anchorMethod(String name, Anchors.Family family) {
        Anchors.Method m;
        try {
            m = Anchors.Method.parseLegacy(name, family);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--anchor-method " + (e instanceof ParameterException pe
                    ? pe.problem() : e.getMessage()), e);
        }
        String note = Anchors.Method.deprecation(name, family, Flags::of);
        if (note != null && NOTED.add(note)) {
            System.err.println("psdkit: note: " + note);
        }
        return m;
    }

    /** The deprecation notes printed so far (each once per run: cross-validation parses a name per grid point). */
    private static final java.util.Set<String> NOTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** True if {@code --rank-threshold} was given. */
    public boolean rankThresholdGiven() {
        return rankThreshold != null;
    }

    /**
     * {@code --rank-threshold} (the default {@link PsdOptions#DEFAULT_RANK_THRESHOLD} when absent), checked to lie in
     * (0, 1); below {@link PsdOptions#RANK_THRESHOLD_WARNING} a warning naming {@code command} goes to stderr, with
     * {@code consequence} appended (empty, or what else may go wrong for this model).
     */
    public double rankThreshold(String command, String consequence) {
        double rt = rankThreshold == null ? PsdOptions.DEFAULT_RANK_THRESHOLD : rankThreshold;
        if (!(rt > 0 && rt < 1)) {
            throw new IllegalArgumentException("--rank-threshold must be in (0, 1), got " + rankThreshold);
        }
        if (rt < PsdOptions.RANK_THRESHOLD_WARNING) {
            System.err.println("psdkit fit " + command + ": warning: --rank-threshold " + rt + " is below "
                    + PsdOptions.RANK_THRESHOLD_WARNING + ": directions beneath double-precision resolution of the "
                    + "kernel matrix are kept" + consequence);
        }
        return rt;
    }
}
