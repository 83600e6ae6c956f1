package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KernelParserTest {

    private static final double[] X = {0.3, -1.2, 0.5};
    private static final double[] T = {1.1, 0.4, -0.7};

    @Test
    void gaussianPlusNuggetHasTheSeedValues() {
        Kernel k = Kernels.parse("gaussian(sigma=0.5) + 0.01*delta");
        double r2 = 0.8 * 0.8 + 1.6 * 1.6 + 1.2 * 1.2;
        assertEquals(Math.exp(-r2 / (2 * 0.25)), k.eval(X, T), 1e-15);
        assertEquals(1.01, k.eval(X, X), 1e-15);
        assertEquals("gaussian(sigma=0.5) + 0.01*delta", k.spec());
    }

    @Test
    void polynomialWithOffsetMatchesClosedForm() {
        Kernel k = Kernels.parse("polynomial(degree=3, offset=1)");
        double dot = 0.33 - 0.48 - 0.35;
        assertEquals(Math.pow(1 + dot, 3), k.eval(X, T), 1e-14);
        assertEquals(new PolynomialKernel(3, 1), k);
    }

    @Test
    void precedenceParenthesesAndWeights() {
        Kernel k = Kernels.parse("2*laplacian(sigma=1) * (linear + 1) + 3");
        double r = Math.sqrt(0.64 + 2.56 + 1.44);
        double dot = 0.33 - 0.48 - 0.35;
        assertEquals(2 * Math.exp(-r) * (dot + 1) + 3, k.eval(X, T), 1e-14);
    }

    @Test
    void gammaAndBetaAreScikitLearnsParameterisation() {
        Kernel byGamma = Kernels.parse("rbf(gamma=2)");
        Kernel byBeta = Kernels.parse("gaussian(beta=2)");
        assertEquals(0.5, ((GaussianKernel) byGamma).sigma(), 1e-15);
        assertEquals(byGamma, byBeta);
        double r2 = 0.64 + 2.56 + 1.44;
        assertEquals(Math.exp(-2 * r2), byGamma.eval(X, T), 1e-15);
    }

    @Test
    void generalLinearKernelRoundTrips() {
        Kernel k = Kernels.parse("linear(A=[[2, 1, 0], [1, 2, 0], [0, 0, 0.5]])");
        double at0 = 2 * 1.1 + 0.4;
        double at1 = 1.1 + 2 * 0.4;
        double at2 = 0.5 * -0.7;
        assertEquals(0.3 * at0 - 1.2 * at1 + 0.5 * at2, k.eval(X, T), 1e-14);
        assertEquals(k, Kernels.parse(k.spec()));
    }

    @Test
    void exponentialWithDegreeIsTheTruncatedSeries() {
        Kernel k = Kernels.parse("exponential(a=0.5, degree=3)");
        double s = 0.33 - 0.48 - 0.35;
        double a = 0.5;
        assertEquals(1 + a * s + a * a * s * s / 2 + a * a * a * s * s * s / 6, k.eval(X, T), 1e-15);
        assertInstanceOf(ExponentialSeriesKernel.class, k);
        assertInstanceOf(ExponentialKernel.class, Kernels.parse("exponential(a=0.5)"));
    }

    @Test
    void specRoundTripsStructure() {
        for (String s : List.of("gaussian(sigma=0.5) + 0.01*delta", "polynomial(degree=3, offset=1)",
                "2*laplacian(sigma=1) * (linear + 1*constant)", "anova * min", "(gaussian(sigma=1) + linear) * delta",
                "0.5*(gaussian(sigma=1) + linear)", "linear + (anova + min)", "exponential(a=0.25)")) {
            Kernel k = Kernels.parse(s);
            assertEquals(k, Kernels.parse(k.spec()), s);
        }
    }

    @Test
    void withParameterByBareAndQualifiedName() {
        Kernel k = Kernels.parse("gaussian(sigma=1) + 0.01*delta");
        assertEquals(Kernels.parse("gaussian(sigma=0.3) + 0.01*delta"), k.withParameter("sigma", 0.3));
        assertEquals(Kernels.parse("gaussian(sigma=1) + 0.1*delta"), k.withParameter("scaled.weight", 0.1));
        assertEquals(List.of("gaussian.sigma", "scaled.weight"),
                k.parameters().stream().map(KernelParameter::name).toList());
        Kernel two = Kernels.parse("gaussian(sigma=1) * gaussian(sigma=2)");
        IllegalArgumentException amb = assertThrows(IllegalArgumentException.class,
                () -> two.withParameter("sigma", 3));
        assertTrue(amb.getMessage().contains("gaussian#1.sigma"), amb.getMessage());
        assertEquals(Kernels.parse("gaussian(sigma=1) * gaussian(sigma=3)"), two.withParameter("gaussian#2.sigma", 3));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> k.withParameter("sigma", -1));
        assertTrue(bad.getMessage().contains("sigma must be > 0"), bad.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> k.withParameter("degree", 2));
        assertTrue(unknown.getMessage().contains("unknown kernel parameter 'degree'"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Kernels.parse("polynomial(degree=2)").withParameter("degree", 2.5));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "gausian(sigma=1)|column 1: unknown kernel 'gausian'",
        "gaussian(sigma=0)|sigma must be > 0",
        "gaussian(sigma=-1)|sigma must be > 0",
        "gaussian(sigma=1e-300)|sigma = 1.0E-300 is too small: 1/(2 sigma^2) overflows",
        "laplacian(sigma=4e-309)|sigma = 4.0E-309 is too small: 1/sigma overflows",
        "gaussian(sgma=1)|column 10: unknown parameter 'sgma' for gaussian",
        "gaussian(sigma=1|column 17: missing ')'",
        "(gaussian(sigma=1) + delta|missing ')' to close the '(' at column 1",
        "gaussian(sigma=1))|column 18: unmatched ')'",
        "gaussian(sigma=1) - delta|column 19: '-' is not allowed",
        "-1*delta|column 1: negative weights",
        "gaussian|gaussian needs exactly one of sigma, gamma, beta",
        "polynomial(degree=2.5)|degree must be an integer",
        "polynomial(degree=0)|degree must be an integer >= 1",
        "polynomial(degree=2, offset=-1)|offset must be >= 0",
        "gaussian(sigma=1) +|missing kernel at the end",
        "gaussian(sigma=abc)|expected a number",
        "linear(A=[[1, 2], [0, 1]])|not symmetric",
        "linear(A=[[1, 0], [0, -1]])|not positive semidefinite",
        "delta(x=1)|unknown parameter 'x' for delta",
        "gaussian(sigma=1, sigma=2)|given twice",
        "gaussian(sigma=1) $ delta|unexpected '$'",
    })
    void parseErrorsNameTheColumnAndProblem(String spec, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kernels.parse(spec));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith("kernel \"" + spec + "\""), e.getMessage());
    }

    @Test
    void emptyStringIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Kernels.parse(" "));
    }
}
