package org.psdkit.regression.nystrom;

import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * Everything a Nyström KRR fit ({@link NystromKrrTrainer}) needs: the kernel, the feature scaling, the anchors
 * ({@link Nystrom}: count m ≥ 1, method, seed), the ridge λ of {@code (K_nmᵀK_nm + λK_mm)α = K_nmᵀy}, centring,
 * and the CG settings. Validated here; a bad value throws {@link ParameterException} naming the parameter.
 *
 * <pre>{@code
 * NystromKrrOptions o = NystromKrrOptions.of(Kernels.parse("gaussian(sigma=3)"), 0.01, 2000, 42)
 *         .withScale(Scaler.Kind.ZSCORE).withCenter(true);
 * Pipeline<KernelRidge> m = new NystromKrrTrainer(o).fit(train);
 * }</pre>
 *
 * @param kernel        the kernel
 * @param scale         the feature scaling fitted on the training data (null: none)
 * @param nystrom       the anchors: m = {@code nystrom.anchors()} ≥ 1 (capped at n when fitting), method, seed
 *                      (its rank threshold is not used: the solve works on the coefficients)
 * @param lambda        ridge λ ≥ 0 (the λ of {@code (K + λI)α = y})
 * @param center        subtract the training mean of y and add it back
 * @param tolerance     relative residual at which CG stops, in (0, 1)
 * @param maxIterations cap on CG iterations, ≥ 1
 * @param storage       where K_nm lives between iterations (null: {@link Storage#AUTO})
 */
public record NystromKrrOptions(Kernel kernel, Scaler.Kind scale, Nystrom nystrom, double lambda, boolean center,
                                double tolerance, int maxIterations, Storage storage) {

    public NystromKrrOptions {
        ParameterException.required("kernel", kernel);
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        ParameterException.required("nystrom", nystrom);
        ParameterException.atLeast("anchors", nystrom.anchors(), 1);
        ParameterException.nonNegative("lambda", lambda);
        ParameterException.unitOpen("tolerance", tolerance);
        ParameterException.atLeast("maxIterations", maxIterations, 1);
        if (storage == null) {
            storage = Storage.AUTO;
        }
    }

    /** m uniform anchors with {@code seed}, no scaling, no centring, default CG settings. */
    public static NystromKrrOptions of(Kernel kernel, double lambda, int anchors, long seed) {
        return new NystromKrrOptions(kernel, Scaler.Kind.NONE, Nystrom.of(anchors, Anchors.Method.UNIFORM, seed),
                lambda, false, NystromKrr.DEFAULT_TOLERANCE, NystromKrr.DEFAULT_MAX_ITERATIONS, Storage.AUTO);
    }

    /** The number m of anchors. */
    public int anchors() {
        return nystrom.anchors();
    }

    /** How the anchors are chosen. */
    public Anchors.Method method() {
        return nystrom.method();
    }

    /** The seed of the anchor choice. */
    public long seed() {
        return nystrom.seed();
    }

    public NystromKrrOptions withKernel(Kernel k) {
        return new NystromKrrOptions(k, scale, nystrom, lambda, center, tolerance, maxIterations, storage);
    }

    public NystromKrrOptions withScale(Scaler.Kind s) {
        return new NystromKrrOptions(kernel, s, nystrom, lambda, center, tolerance, maxIterations, storage);
    }

    public NystromKrrOptions withNystrom(Nystrom n) {
        return new NystromKrrOptions(kernel, scale, n, lambda, center, tolerance, maxIterations, storage);
    }

    public NystromKrrOptions withLambda(double l) {
        return new NystromKrrOptions(kernel, scale, nystrom, l, center, tolerance, maxIterations, storage);
    }

    public NystromKrrOptions withCenter(boolean c) {
        return new NystromKrrOptions(kernel, scale, nystrom, lambda, c, tolerance, maxIterations, storage);
    }

    public NystromKrrOptions withTolerance(double t) {
        return new NystromKrrOptions(kernel, scale, nystrom, lambda, center, t, maxIterations, storage);
    }

    public NystromKrrOptions withMaxIterations(int it) {
        return new NystromKrrOptions(kernel, scale, nystrom, lambda, center, tolerance, it, storage);
    }

    public NystromKrrOptions withStorage(Storage s) {
        return new NystromKrrOptions(kernel, scale, nystrom, lambda, center, tolerance, maxIterations, s);
    }
}
