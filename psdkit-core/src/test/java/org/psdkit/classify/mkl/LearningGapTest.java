package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * A kernel-learning fit says converged only when its relative duality gap — the SVM primal objective J at the
 * returned kernel minus the learning problem's dual value at the returned α (Rakotomamonjy et al. 2008's DualGap),
 * over |J| — is within the tolerance; the gap is recomputed here from the returned solution alone and checked against
 * a brute-force minimum over the weights of a three-kernel library.
 */
class LearningGapTest {

    /** Three unit-trace Gram matrices of the 16 rows: linear, Gaussian σ = 0.3, Gaussian σ = 1. */
    static final class DenseLibrary implements KernelLibrary {
        final Matrix[] grams;

        DenseLibrary(Matrix x) {
            int m = x.rows();
            grams = new Matrix[3];
            for (int k = 0; k < 3; k++) {
                Matrix g = Matrix.zeros(m, m);
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < m; j++) {
                        double dot = 0;
                        double d2 = 0;
                        for (int t = 0; t < x.cols(); t++) {
                            dot += x.get(i, t) * x.get(j, t);
                            double d = x.get(i, t) - x.get(j, t);
                            d2 += d * d;
                        }
                        double sigma = k == 1 ? 0.3 : 1.0;
                        g.set(i, j, k == 0 ? dot : Math.exp(-d2 / (2 * sigma * sigma)));
                    }
                }
                g.scaleInPlace(1 / g.trace());
                grams[k] = g;
            }
        }

        @Override
        public int size() {
            return grams.length;
        }

        @Override
        public int points() {
            return grams[0].rows();
        }

        @Override
        public String describe(int k) {
            return "k" + k;
        }

        @Override
        public double[] quadForms(double[] beta) {
            double[] q = new double[grams.length];
            for (int k = 0; k < q.length; k++) {
                q[k] = TkLearner.quad(grams[k], beta);
            }
            return q;
        }

        @Override
        public void addCombination(double[] w, double[] out) {
            for (int k = 0; k < grams.length; k++) {
                double[] g = grams[k].data();
                for (int i = 0; i < out.length; i++) {
                    out[i] += w[k] * g[i];
                }
            }
        }

        @Override
        public Kernel combined(double[] w) {
            return null;
        }

        Matrix combination(double[] w) {
            int m = points();
            double[] out = new double[m * m];
            addCombination(w, out);
            return Matrix.wrap(m, m, out);
        }
    }

    /** J = ½βᵀKβ + C Σ max(0, 1 − y_i((Kβ)_i + b)), computed from the solution alone. */
    static double svmPrimal(Matrix k, double[] y, double c, Smo.Result sv) {
        int m = y.length;
        double[] beta = beta(y, sv);
        double quad = 0;
        double hinge = 0;
        for (int i = 0; i < m; i++) {
            double f = 0;
            for (int j = 0; j < m; j++) {
                f += k.get(i, j) * beta[j];
            }
            quad += beta[i] * f;
            hinge += Math.max(0, 1 - y[i] * (f + sv.bias()));
        }
        return 0.5 * quad + c * hinge;
    }

    static double[] beta(double[] y, Smo.Result sv) {
        double[] b = new double[y.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = sv.alpha()[i] * y[i];
        }
        return b;
    }

    static double sum(double[] v) {
        double s = 0;
        for (double e : v) {
            s += e;
        }
        return s;
    }

    /**
     * On the 16 rows with a three-kernel library: for every C and tolerance the reported gap is J − (Σα − ½ max_k
     * βᵀK_kβ) recomputed from the returned α, b and μ, converged holds exactly when that gap is within the tolerance
     * of J, and (brute force over a 1/100 grid of the simplex, each SVM solved to 1e-10) J at the returned weights
     * exceeds the least J found by at most the gap, while the dual value at α stays below it. Before, converged was
     * decided on ½(max_k βᵀK_kβ − βᵀK(μ)β) alone, which leaves out the SVM's own gap at SMO's tolerance: with C = 100
     * and a tolerance of 1e-4 it said converged at a true relative gap above the tolerance.
     */
    @Test
    void simpleMklIsConvergedExactlyWhenTheDualityGapIsWithinTheTolerance() {
        Matrix x = LearnerGapTest.x();
        double[] y = LearnerGapTest.y();
        DenseLibrary lib = new DenseLibrary(x);
        for (double c : new double[] {1, 10, 100, 1000}) {
            double best = Double.POSITIVE_INFINITY;
            int steps = 100;
            for (int a = 0; a <= steps; a++) {
                for (int b = 0; a + b <= steps; b++) {
                    double[] w = {a / (double) steps, b / (double) steps, (steps - a - b) / (double) steps};
                    best = Math.min(best, Smo.solve(KernelRows.dense(lib.combination(w)), y, c, 1e-10, null).dual());
                }
            }
            for (double tol : new double[] {1e-2, 1e-4, 1e-6}) {
                SimpleMkl.Result r = SimpleMkl.fit(lib, y, new SimpleMkl.Options(c, tol, 200, Smo.DEFAULT_TOLERANCE));
                Matrix k = lib.combination(r.mu());
                double j = svmPrimal(k, y, c, r.svm());
                double maxQuad = java.util.Arrays.stream(lib.quadForms(beta(y, r.svm()))).max().getAsDouble();
                double dual = sum(r.svm().alpha()) - 0.5 * maxQuad;
                double gap = j - dual;
                String at = "C " + c + ", tolerance " + tol + ": gap " + gap + ", J " + j + ", reported " + r.gap()
                        + ", converged " + r.converged();
                assertEquals(gap, r.gap(), 1e-9 * Math.abs(j), at);
                assertEquals(r.converged(), gap <= tol * Math.abs(j), at);
                assertTrue(dual <= best + 1e-9 * Math.abs(best), at + ", brute-force minimum " + best);
                assertTrue(j - best <= r.gap() + 1e-9 * Math.abs(j), at + ", brute-force minimum " + best);
            }
        }
    }

    /**
     * The tessellated-kernel learner: the reported gap is J(P) − (Σα − ½ τ λ_max(H(β))) recomputed from the returned
     * kernel, α and b; converged exactly when it is within the tolerance of J(P). λ_max(H) is checked by brute force:
     * no rank-one P = s sᵀ (random unit s) gives βᵀK(P)β above it, and the top eigenvector reaches it.
     */
    @Test
    void tkIsConvergedExactlyWhenTheDualityGapIsWithinTheTolerance() {
        Matrix x = LearnerGapTest.x();
        double[] y = LearnerGapTest.y();
        TkGram eng = new TkGram(x, 1, -0.1, 1.1, Orthant.LOWER);
        Random rnd = new Random(7);
        for (double c : new double[] {1, 10, 100}) {
            for (double tol : new double[] {1e-2, 1e-4, 1e-6}) {
                TkLearner.Result r = TkLearner.fit(x, y, new TkLearner.Options(1, 0.1, Orthant.LOWER, c, 1.0, tol,
                        TkLearner.DEFAULT_MAX_ITERATIONS, Smo.DEFAULT_TOLERANCE));
                Matrix k = r.kernel().gram(x);
                double j = svmPrimal(k, y, c, r.svm());
                double[] beta = beta(y, r.svm());
                Matrix h = eng.gradient(beta);
                double lam = Linalg.eigh(h).max();
                double dual = sum(r.svm().alpha()) - 0.5 * lam;
                double gap = j - dual;
                String at = "C " + c + ", tolerance " + tol + ": gap " + gap + ", J " + j + ", reported " + r.gap()
                        + ", converged " + r.converged();
                assertEquals(gap, r.gap(), 1e-7 * Math.abs(j), at);
                assertEquals(r.converged(), gap <= tol * Math.abs(j), at);
                int dim = h.rows();
                double top = TkLearner.quad(eng.rankOne(Linalg.eigh(h).vectors().col(dim - 1)), beta);
                assertEquals(lam, top, 1e-9 * Math.abs(lam), at);
                for (int t = 0; t < 200; t++) {
                    double[] s = new double[dim];
                    double n2 = 0;
                    for (int i = 0; i < dim; i++) {
                        s[i] = rnd.nextGaussian();
                        n2 += s[i] * s[i];
                    }
                    for (int i = 0; i < dim; i++) {
                        s[i] /= Math.sqrt(n2);
                    }
                    assertTrue(TkLearner.quad(eng.rankOne(s), beta) <= lam * (1 + 1e-9), at);
                }
            }
        }
    }

    static Dataset sixteenRows() {
        return Dataset.of(LearnerGapTest.x(), LearnerGapTest.y());
    }

    /**
     * The model's diagnostics say why the learning stopped: the relative gap compared with the gap option and the
     * stop reason beside converged; a fit asked for a gap of 1e-12 does not reach it in SimpleMKL's 40 iterations
     * and says so (max-iterations or stalled, with its relative gap), where it said converged before at a relative
     * gap of the size of SMO's tolerance.
     */
    @Test
    void theDiagnosticsSayWhyTheLearningStopped(@TempDir Path dir) throws Exception {
        for (double tol : new double[] {1e-2, KernelLearning.MIN_GAP_TOLERANCE}) {
            for (SvmClassifier m : new SvmClassifier[] {
                new TkSvmTrainer(TkSvmTrainer.Options.of(10, 0.1, 1).withGap(tol)).fit(sixteenRows()),
                new SimpleMklTrainer(SimpleMklTrainer.Options.builder(KernelLearning.Method.SIMPLEMKL).c(100)
                        .gaussScaling(KernelLearning.GaussScaling.MINMAX).gap(tol).seed(1).build()).fit(sixteenRows())}) {
                LearnedKernelFit fit = assertInstanceOf(LearnedKernelFit.class, m.diagnostics());
                String at = m.type() + " at gap " + tol + ": " + fit;
                assertEquals(List.of("iterations", "gap", "relativeGap", "converged", "stopReason", "smoIterations",
                        "seconds", "fitSeconds"), List.copyOf(fit.toMap().keySet()), at);
                assertEquals(fit.converged(), fit.relativeGap() <= tol, at);
                assertEquals(fit.converged(), fit.stop() == LearningStop.CONVERGED, at);
                assertEquals(fit.stop().label(), fit.toMap().get("stopReason"), at);
                assertTrue(fit.relativeGap() >= 0 && fit.gap() >= 0, at);
                if (tol == KernelLearning.MIN_GAP_TOLERANCE) {
                    assertTrue(!fit.converged() && fit.relativeGap() > tol, at);
                } else {
                    assertTrue(fit.converged(), at);
                }
                Path f = dir.resolve(m.type() + ".json");
                ModelIO.save(m, f);
                assertEquals(fit, ModelIO.load(f).diagnostics());
            }
        }
    }

    /**
     * A model file written before the relative gap and the stop reason were recorded reads back as the typed record
     * (NaN, null) and writes the same keys it had.
     */
    @Test
    void anOlderModelFileKeepsItsDiagnostics() throws Exception {
        Path f = Files.createTempFile("tk-svm-v1", ".json");
        try (InputStream in = LearningGapTest.class.getResourceAsStream("/golden/tk-svm-v1.json")) {
            Files.copy(in, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        try {
            LearnedKernelFit fit = assertInstanceOf(LearnedKernelFit.class, ModelIO.load(f).diagnostics());
            assertTrue(Double.isNaN(fit.relativeGap()), fit.toString());
            assertNull(fit.stop());
            assertEquals(List.of("iterations", "gap", "converged", "smoIterations", "seconds", "fitSeconds"),
                    List.copyOf(fit.toMap().keySet()));
        } finally {
            Files.delete(f);
        }
    }
}
