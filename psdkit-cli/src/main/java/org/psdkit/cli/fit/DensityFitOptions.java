package org.psdkit.cli.fit;

import org.psdkit.density.BaseMeasure;
import picocli.CommandLine.Option;

/** Options shared by the {@code fit *-density} commands. */
public class DensityFitOptions {
    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
            description = "Kernel string (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.001", paramLabel = "X",
            description = "Regularisation lambda > 0 (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--base", defaultValue = "lebesgue", paramLabel = "MEASURE",
            description = "Base measure nu, p = f·nu: lebesgue | gaussian(mu=M,sigma2=V) (variance) | "
                    + "gaussian(mu=M,sd=S) (standard deviation) | box(a=A,b=B) (uniform probability); in scaled "
                    + "coordinates when --scale is used (default: ${DEFAULT-VALUE}).")
    String base;

    @Option(names = "--tol", defaultValue = "1e-6", paramLabel = "X",
            description = "Stop at this relative duality gap (default: ${DEFAULT-VALUE}).")
    double tol;

    @Option(names = "--max-iter", defaultValue = "20000", paramLabel = "N",
            description = "Iteration budget (default: ${DEFAULT-VALUE}).")
    int maxIter;

    /**
     * {@code --lambda}: the density command maps it to lambda1 and lambda2 = C·lambda, so it is checked here under
     * its own name; the baselines' options and the solver's tolerance and budget are checked by the library's
     * records, whose {@link org.psdkit.model.ParameterException} names the flag.
     */
    void check() {
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("--lambda must be > 0, got " + lambda);
        }
    }

    BaseMeasure base(int d) {
        return BaseMeasure.parse(base, d);
    }
}
