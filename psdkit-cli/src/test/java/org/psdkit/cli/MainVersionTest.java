package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code psdkit --version} skips the command tree; it must print what picocli's version help prints. */
class MainVersionTest {

    @Test
    void versionShortcutPrintsPicoclisVersionHelp() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PrintStream p = new PrintStream(b, true, StandardCharsets.UTF_8)) {
            Main.commandLine().printVersionHelp(p);
        }
        String picocli = b.toString(StandardCharsets.UTF_8);
        for (String flag : new String[] {"--version", "-V"}) {
            CliRun r = CliRun.run(flag);
            assertEquals(new CliRun(0, picocli, ""), r, flag);
        }
    }
}
