package org.psdkit.cone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Model;
import org.psdkit.model.OldPath;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/** The cone trainers' options records: validation, defaults, fits and cross-validation equal to the old path. */
class ConeTrainerOptionsTest {
    private static final Kernel K = new GaussianKernel(0.8);
    private static final ConeDualSolver.Options SOLVER = ConeDualSolver.Options.defaults().withGapTolerance(1e-3);

    @TempDir
    Path dir;

    private static void names(String parameter, Executable build) {
        ParameterException e = assertThrows(ParameterException.class, build);
        assertEquals(parameter, e.parameter(), e.getMessage());
        assertTrue(e.getMessage().startsWith(parameter + " "), e.getMessage());
    }

    private static HeteroscedasticRegression.Options hetero() {
        return new HeteroscedasticRegression.Options(K, 1e-2, 0.05, HeteroscedasticRegression.Method.PSD, 1, 0L,
                SOLVER);
    }

    private static QuantileRegression.Options quantile() {
        return new QuantileRegression.Options(new double[] {0.2, 0.5, 0.8}, K, 1e-2, 0.05,
                QuantileRegression.Method.PSD, false, 1, 0L, SOLVER);
    }

    @Test
    void everyInvalidValueNamesItsParameter() {
        HeteroscedasticRegression.Method psd = HeteroscedasticRegression.Method.PSD;
        names("kernel", () -> new HeteroscedasticRegression.Options(null, 1, 0.05, psd, 1, 0L, SOLVER));
        names("lambda", () -> new HeteroscedasticRegression.Options(K, 0, 0.05, psd, 1, 0L, SOLVER));
        names("frobeniusWeight", () -> new HeteroscedasticRegression.Options(K, 1, 0, psd, 1, 0L, SOLVER));
        names("restarts", () -> new HeteroscedasticRegression.Options(K, 1, 0.05, psd, 0, 0L, SOLVER));
        names("solver", () -> new HeteroscedasticRegression.Options(K, 1, 0.05, psd, 1, 0L, null));
        names("method", () -> new HeteroscedasticRegression.Options(K, 1, 0.05, null, 1, 0L, SOLVER));
        names("anchors", () -> new HeteroscedasticRegression.Options(K, 1, 0.05, HeteroscedasticRegression.Method.NCM,
                1, 0L, SOLVER, Nystrom.of(5, Anchors.Method.UNIFORM, 1L)));
        names("options", () -> new HeteroTrainer(null));
        names("grid", () -> new HeteroTrainer(hetero()).crossValidated(null));

        QuantileRegression.Method qpsd = QuantileRegression.Method.PSD;
        names("taus", () -> new QuantileRegression.Options(new double[0], K, 1, 0.05, qpsd, false, 1, 0L, SOLVER));
        names("taus", () -> new QuantileRegression.Options(new double[] {0.5, 1}, K, 1, 0.05, qpsd, false, 1, 0L,
                SOLVER));
        names("taus", () -> new QuantileRegression.Options(new double[] {0.5, 0.2}, K, 1, 0.05, qpsd, false, 1, 0L,
                SOLVER));
        names("lambda", () -> new QuantileRegression.Options(new double[] {0.5}, K, -1, 0.05, qpsd, false, 1, 0L,
                SOLVER));
        names("method", () -> new QuantileRegression.Options(new double[] {0.5}, K, 1, 0.05, null, false, 1, 0L,
                SOLVER));
        names("options", () -> new QuantileTrainer(null));
        names("kernels", () -> new ConeGrid(List.of(), null, 3, 1L));
        names("lambdas", () -> new ConeGrid(null, new double[] {1, -1}, 3, 1L));
        names("folds", () -> new ConeGrid(null, null, 1, 1L));
        names("grid", () -> new QuantileTrainer(quantile()).crossValidated(null));
    }

    @Test
    void defaultsAreTodays() {
        assertEquals(Scaler.Kind.NONE, hetero().scale());
        assertEquals(Nystrom.exact(), hetero().nystrom());
        assertEquals(hetero(), new HeteroscedasticRegression.Options(K, 1e-2, 0.05,
                HeteroscedasticRegression.Method.PSD, 1, 0L, SOLVER, null, null));
        assertEquals(Scaler.Kind.NONE, quantile().scale());
        assertEquals(Nystrom.exact(), quantile().nystrom());
        assertEquals(Scaler.Kind.ZSCORE, quantile().withScale(Scaler.Kind.ZSCORE).scale());
    }

    private static String table(ConeGrid.Outcome o) {
        StringBuilder t = new StringBuilder();
        for (ConeGrid.Point p : o.table()) {
            t.append(p.kernel()).append('/').append(p.lambda()).append('/').append(Double.toHexString(p.score()))
                    .append('/').append(Double.toHexString(p.sd())).append(';');
        }
        return t.toString();
    }

    @Test
    void fitsAndCrossValidationEqualTheOldConstructorsBitForBit() {
        Dataset d = OldPath.data();
        // recorded from HeteroTrainer(options, grid, scale) and QuantileTrainer(options, grid, scale) before the
        // scale moved into the options and the grid into crossValidated
        String heteroFit = "0x1.88def7ad5fac6p-1,0x1.975d72dc58b02p0,0x1.69fafb75a4ffp1,0x1.346912ff7a8dbp0,"
                + "0x1.1a08407e0bc68p0,0x1.5432fef7d5587p0";
        HeteroTrainer h = new HeteroTrainer(hetero().withScale(Scaler.Kind.ZSCORE));
        OldPath.assertPredicts(heteroFit, h.fit(d));
        ConeGrid grid = new ConeGrid(List.of(new GaussianKernel(0.5), K), new double[] {1e-1, 1e-2}, 3, 7L);
        HeteroPipeline hcv = h.crossValidated(grid).fit(d);
        OldPath.assertPredicts(heteroFit, hcv);
        assertEquals("gaussian(sigma=0.5)/0.1/0x1.e96bbd472eeebp0/0x1.8f260700eb71cp-3;"
                + "gaussian(sigma=0.5)/0.01/0x1.977a4ee4246f9p0/0x1.685e8291d3a4ep-2;"
                + "gaussian(sigma=0.8)/0.1/0x1.d6a810ae657afp0/0x1.3524bbd0960bap-3;"
                + "gaussian(sigma=0.8)/0.01/0x1.5b0764e2587a1p0/0x1.b8c4482f5563p-3;", table(hcv.selection()));
        HeteroPipeline dflt = new HeteroTrainer(hetero().withScale(Scaler.Kind.MINMAX))
                .crossValidated(ConeGrid.defaults(2, 5L)).fit(d);
        OldPath.assertPredicts("0x1.deb4b8a5b5828p-1,0x1.845ad3c1292ecp0,0x1.619753193a998p1,0x1.20dab65aa6d76p0,"
                + "0x1.273229f8a9278p0,0x1.550b65890c803p0", dflt);
        assertEquals(12, dflt.selection().table().size());
        assertEquals("gaussian(sigma=0.2)", dflt.selection().kernel().spec());

        String quantileFit = "0x1.6e7e34578065p-3,0x1.6afc1b1b84beep0,0x1.63e24a79d045bp1,0x1.b767cbb43b538p-2,"
                + "0x1.76d8f9d9d7a5p0,0x1.65bf0f65aef2fp1,0x1.ccc73473b036p-2,0x1.7f6ead731becep0,"
                + "0x1.69569f7fb34cap1";
        QuantileTrainer q = new QuantileTrainer(quantile().withScale(Scaler.Kind.ZSCORE));
        OldPath.assertPredicts(quantileFit, q.fit(d));
        QuantilePipeline qcv = q.crossValidated(grid).fit(d);
        OldPath.assertPredicts(quantileFit, qcv);
        assertEquals("gaussian(sigma=0.5)/0.1/0x1.1b94f1964b84fp0/0x1.eede603251bf2p-2;"
                + "gaussian(sigma=0.5)/0.01/0x1.fe81ed3f133p-1/0x1.89196bd7d2c1ep-2;"
                + "gaussian(sigma=0.8)/0.1/0x1.fb89ad27170e3p-1/0x1.71f168ef3ee46p-2;"
                + "gaussian(sigma=0.8)/0.01/0x1.bbae9da3fd5f7p-1/0x1.5634e7f629f2ep-2;", table(qcv.selection()));
    }

    @Test
    void diagnosticsAreTypedAndReadBackTyped() throws Exception {
        Dataset d = OldPath.data();
        for (Model m : List.<Model>of(new HeteroTrainer(hetero()).fit(d), new QuantileTrainer(quantile()).fit(d))) {
            Diagnostics dg = assertInstanceOf(Diagnostics.class, m.diagnostics());
            assertEquals(Diagnostics.KEYS, List.copyOf(dg.toMap().keySet()));
            Path f = dir.resolve(m.type() + ".json");
            ModelIO.save(m, f);
            Model back = ModelIO.load(f);
            Diagnostics read = assertInstanceOf(Diagnostics.class, back.diagnostics());
            assertEquals(dg.iterations(), read.iterations());
            assertEquals(dg.converged(), read.converged());
            assertEquals(ModelIO.toJson(m).toString(), ModelIO.toJson(back).toString());
        }
    }
}
