package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.Main;
import org.psdkit.io.ModelIO;
import picocli.CommandLine;

class FitCommandsTest {

    @Test
    void registryKeysAreTheLibraryTypesInTheirOrder() {
        List<String> types = new ArrayList<>();
        for (FitCommands.Entry e : FitCommands.all()) {
            types.add(e.type());
            assertNotNull(e.command().getAnnotation(CommandLine.Command.class), e.type());
            assertEquals(ModelIO.codec(e.type()).description(), e.description());
        }
        assertEquals(ModelIO.types(), types);
    }

    @Test
    void fitHasOneSubcommandPerModelTypeInRegistryOrder() {
        CommandLine fit = Main.commandLine().getSubcommands().get("fit");
        List<Class<?>> commands = new ArrayList<>();
        for (CommandLine sub : fit.getSubcommands().values()) {
            commands.add(sub.getCommand().getClass());
        }
        List<Class<?>> expected = new ArrayList<>();
        for (FitCommands.Entry e : FitCommands.all()) {
            expected.add(e.command());
        }
        assertEquals(expected, commands);
    }

    @Test
    void helpListsEveryFitCommandAndCvListsItsTypes() {
        CliRun fit = CliRun.run("fit", "--help");
        assertEquals(0, fit.status(), fit.err());
        for (String name : Main.commandLine().getSubcommands().get("fit").getSubcommands().keySet()) {
            assertTrue(fit.out().contains("  " + name + " "), name + " missing from:\n" + fit.out());
        }
        CliRun cv = CliRun.run("cv", "--help");
        assertEquals(0, cv.status(), cv.err());
        for (FitCommands.Entry e : FitCommands.withCv()) {
            assertTrue(cv.out().contains("  " + e.type() + " "), e.type() + " missing from:\n" + cv.out());
            String flat = cv.out().replaceAll("\\s+", ""); // the help wraps long descriptions
            assertTrue(flat.contains(e.description().replaceAll("\\s+", "")), e.description() + " missing from:\n"
                    + cv.out());
        }
        assertTrue(FitCommands.withCv().stream().anyMatch(e -> e.type().equals("krr")));
        assertTrue(FitCommands.withCv().stream().anyMatch(e -> e.type().equals("kde")));
        assertTrue(FitCommands.withCv().stream().noneMatch(e -> e.type().equals("tk-svm")));
    }

    @Test
    void cvSupportIsNewForEveryRun() {
        FitCommands.Entry krr = FitCommands.get("krr");
        assertTrue(krr.cv().get() != krr.cv().get(), "the krr cv support caches Gram matrices per run");
    }

    /**
     * The work announced for a tk-svm fit names its driver and the options that cut it: on 200 rows of 300 features
     * (a fit that ran for over 12 minutes without a line), 120 CV fits on 160 rows and the final fit, each at least
     * one Frank-Wolfe iteration of ~6 m^2 n^2 + 9 (2q)^3 operations.
     */
    @Test
    void theWorkOfAWideTkSvmFitIsEstimatedWithItsRemedies() {
        FitSvmCommands.Work w = FitSvmCommands.tkWork(200, 300, 1, 120, 5);
        double perIteration = 6.0 * 160 * 160 * 300 * 300 + 6.0 * 160 * 160 * 300 + 9 * Math.pow(1202, 3)
                + 10.0 * 160 * 160 * 300;
        double full = org.psdkit.classify.mkl.TkLearner.iterationFlops(200, 300, 1);
        assertEquals((120 * perIteration + full) / FitSvmCommands.FLOPS_PER_SECOND, w.leastSeconds(),
                1e-9 * w.leastSeconds());
        assertEquals(61 * w.leastSeconds(), w.mostSeconds(), 1e-9 * w.mostSeconds());
        assertTrue(w.leastSeconds() > 10 * 60, "at least " + w.leastSeconds() + " s");
        String m = w.message();
        assertTrue(m.startsWith("tk-svm: expected work: one Frank-Wolfe iteration on 160 rows x 300 features (degree "
                + "1) costs ~3e+10 floating-point operations, ~15 s (its gradient grows as rows^2 x features^2, its "
                + "eigen-decomposition as (2q)^3, 2q = 1202); 120 CV fits and the final fit take 1 to 61 iterations "
                + "each: at least ~"), m);
        assertTrue(m.contains("tk-svm: faster: fewer features (the cost per iteration grows as their square), "
                + "--degree 0 (rows^2 x features), -C and --epsilon (no CV: 1 fit instead of 121)"), m);
        // without the CV and at degree 0, the remedies are those left
        String given = FitSvmCommands.tkWork(200, 300, 0, 0, 5).message();
        assertTrue(given.contains("on 200 rows x 300 features (degree 0)") && given.contains("the fit takes 1 to 61 "
                + "iterations:") && !given.contains("--degree 0") && !given.contains("-C and --epsilon"), given);
    }
}
