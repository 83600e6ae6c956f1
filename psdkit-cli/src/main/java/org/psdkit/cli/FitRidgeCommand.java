package org.psdkit.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.RidgeRegression;
import org.psdkit.select.Metrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit ridge}: linear ridge regression, primal or dual. */
@Command(name = "ridge", description = "Linear ridge regression (primal w = (X^T X + lambda I)^-1 X^T y, or dual).")
public final class FitRidgeCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;

    @Option(names = "--lambda", defaultValue = "1", paramLabel = "X", description = "Regularisation lambda >= 0 (default: ${DEFAULT-VALUE}).")
    String lambda;

    @Option(names = "--form", defaultValue = "primal", paramLabel = "primal|dual",
            description = "primal: d x d system; dual: n x n system (K + lambda I) alpha = y with the linear kernel, "
                    + "stored as w = X^T alpha (default: ${DEFAULT-VALUE}).")
    String form;

    @Option(names = "--features", paramLabel = "SPEC",
            description = "Ridge in the explicit feature space of this kernel, e.g. 'polynomial(degree=2, offset=1)' "
                    + "(default: the raw features, i.e. the linear kernel).")
    String features;

    @Option(names = "--no-intercept", description = "No intercept (default: an unpenalised intercept by centring).")
    boolean noIntercept;

    /** The linear kernel xᵀt (the kernel of the identity feature map). */
    static final Kernel LINEAR = Kernels.linear();

    @Override
    public Integer call() {
        Map<String, String> pm = RidgeKind.defaultParams();
        pm.put("lambda", lambda);
        pm.put("intercept", Boolean.toString(!noIntercept));
        Params params = new Params(pm);
        double lam = RidgeKind.lambda(params);
        if (!form.equals("primal") && !form.equals("dual")) {
            throw new IllegalArgumentException("--form: '" + form + "' is not primal or dual");
        }
        Kernel kernel = features == null ? LINEAR : KernelSpecs.parse(features);
        common.checkOutWritable();
        Dataset raw = common.loadSupervised(false);
        UnaryOperator<Matrix> phi = features == null ? UnaryOperator.identity()
                : RidgeKind.featureMap(kernel, raw.d());
        Scaler scaler = common.fitScaler(raw);
        Dataset train = scaler.apply(raw);
        boolean intercept = !noIntercept;
        long t0 = System.nanoTime();
        double[] w;
        double bias;
        double[] fitted;
        if (form.equals("primal")) {
            RidgeRegression m = RidgeRegression.fitPrimal(phi, train.x(), train.y(), lam, intercept);
            w = m.weights();
            bias = m.bias();
            fitted = m.predictVector(train.x());
        } else {
            // dual with the kernel of φ; then w = Φcᵀ α (Φc: Φ with centred columns when fitting an intercept)
            RidgeRegression.Dual d = RidgeRegression.fitDual(kernel, train.x(), train.y(), lam, intercept);
            Matrix f = phi.apply(train.x());
            int n = f.rows();
            double[] mu = new double[f.cols()];
            if (intercept) {
                for (int j = 0; j < f.cols(); j++) {
                    double s = 0;
                    for (int i = 0; i < n; i++) {
                        s += f.get(i, j);
                    }
                    mu[j] = s / n;
                }
            }
            double[] a = d.alpha();
            w = new double[f.cols()];
            for (int j = 0; j < f.cols(); j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += (f.get(i, j) - mu[j]) * a[i];
                }
                w[j] = s;
            }
            double ybar = 0;
            if (intercept) {
                for (double v : train.y()) {
                    ybar += v;
                }
                ybar /= n;
            }
            bias = ybar - Linalg.dot(mu, w);
            fitted = d.predictVector(train.x());
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        ObjectNode doc = common.newModelDocument(RidgeKind.TYPE, raw, scaler, features == null ? null : kernel.spec());
        RidgeKind.store(doc, w, bias, lam, !noIntercept, form);
        common.save(doc);
        Map<String, Object> rep = common.baseReport(RidgeKind.TYPE, raw, secs);
        rep.put("lambda", lam);
        rep.put("form", form);
        rep.put("featureDimension", w.length);
        rep.putAll(Metrics.regression(raw.y(), fitted));
        if (!common.json) {
            System.err.println("psdkit fit ridge: wrote " + common.out + " (training-set metrics below)");
        }
        common.report(rep);
        return Main.EXIT_OK;
    }
}
