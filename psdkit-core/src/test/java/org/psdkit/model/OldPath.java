package org.psdkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * The data and probe points on which the trainers' options records were checked against the fits of the trainers'
 * constructors they replaced: predictions recorded (as hexadecimal doubles) from the old constructors, before the
 * change, must come out bit for bit.
 */
public final class OldPath {
    private OldPath() {
    }

    /** 40 rows of 2 features, N(j, 9) in feature j, and y = |x₀| + heteroscedastic noise. */
    public static Dataset data() {
        Random r = new Random(11);
        double[][] x = new double[40][2];
        double[] y = new double[40];
        for (int i = 0; i < 40; i++) {
            for (int j = 0; j < 2; j++) {
                x[i][j] = 3 * r.nextGaussian() + j;
            }
            y[i] = Math.abs(x[i][0]) + (0.1 + 0.05 * Math.abs(x[i][0])) * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    /** Asserts that {@code m} predicts at the three probe points exactly the recorded values (row-major). */
    public static void assertPredicts(String recorded, Model m) {
        Matrix probe = Matrix.of(new double[][] {{0.1, 0.7}, {1.5, -2}, {-3, 4}});
        double[] got = m.predict(probe).data();
        String[] want = recorded.split(",");
        assertEquals(want.length, got.length, m.type());
        StringBuilder all = new StringBuilder();
        for (double v : got) {
            all.append(all.length() == 0 ? "" : ",").append(Double.toHexString(v));
        }
        for (int i = 0; i < got.length; i++) {
            assertEquals(want[i], Double.toHexString(got[i]), m.type() + " output " + i + " (all: " + all + ")");
        }
    }
}
