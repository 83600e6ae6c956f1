package org.psdkit.tribuo;

import java.util.List;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.psd.PsdRegressionTrainer;

/** Each regression family as a Tribuo trainer and the psdkit trainer of the same options. */
record Families(String name, PsdkitRegressionTrainer tribuo, Trainer<? extends Model> psdkit) {

    static final Kernel KERNEL = Kernels.parse("gaussian(sigma=1)");

    @Override
    public String toString() {
        return name;
    }

    static List<Families> all() {
        KrrTrainer.Options krr = KrrTrainer.Options.of(KERNEL, 1e-2).withScale(Scaler.Kind.ZSCORE);
        NystromKrrTrainer.Options nys = NystromKrrTrainer.Options.of(KERNEL, 1e-3, 25, 7)
                .withScale(Scaler.Kind.ZSCORE);
        PsdRegressionTrainer.Options psd = PsdRegressionTrainer.Options.of(KERNEL, PsdOptions.of(1e-3, 1e-3));
        PsdRegressionTrainer.Options psdNys = psd.withNystrom(Nystrom.of(20, Anchors.Method.UNIFORM, 3));
        // the cone families with a capped dual solver (both sides run the same iterations; the tests compare fits,
        // not optima)
        ConeDualSolver.Options solver = new ConeDualSolver.Options(1e-3, 1e-3, 1000, 10);
        HeteroscedasticRegression.Options het = HeteroscedasticRegression.Options.of(1.0, 1e-2,
                HeteroscedasticRegression.Method.PSD).withSolver(solver);
        QuantileRegression.Options qr = QuantileRegression.Options.of(new double[] {0.25, 0.75}, 1.0, 1e-2,
                QuantileRegression.Method.PSD).withSolver(solver);
        return List.of(
                new Families("krr", new PsdkitKrrTrainer(krr), new KrrTrainer(krr)),
                new Families("krr-nystrom", new PsdkitKrrTrainer(nys), new NystromKrrTrainer(nys)),
                new Families("psd-regression", new PsdkitPsdRegressionTrainer(psd), new PsdRegressionTrainer(psd)),
                new Families("psd-regression-nystrom", new PsdkitPsdRegressionTrainer(psdNys),
                        new PsdRegressionTrainer(psdNys)),
                new Families("hetero", new PsdkitHeteroTrainer(het), new HeteroTrainer(het)),
                new Families("quantile", new PsdkitQuantileTrainer(qr), new QuantileTrainer(qr)));
    }
}
