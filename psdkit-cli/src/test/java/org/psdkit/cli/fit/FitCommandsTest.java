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
        assertTrue(FitCommands.withCv().stream().noneMatch(e -> e.type().equals("kde")));
    }

    @Test
    void cvSupportIsNewForEveryRun() {
        FitCommands.Entry krr = FitCommands.get("krr");
        assertTrue(krr.cv().get() != krr.cv().get(), "the krr cv support caches Gram matrices per run");
    }
}
