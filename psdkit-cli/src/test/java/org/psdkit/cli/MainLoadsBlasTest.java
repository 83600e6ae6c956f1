package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which runs start OpenBLAS's load on a second thread before their options are parsed ({@link Main#loadsBlas}):
 * the computing commands, never a help or version request or a command that calls no BLAS.
 */
class MainLoadsBlasTest {

    @Test
    void computingCommandsLoadBlasEarlyAndHelpDoesNot() {
        assertTrue(Main.loadsBlas("fit", "krr", "--train", "a.csv", "--out", "m.json"));
        assertTrue(Main.loadsBlas("predict", "--model", "m.json", "--data", "a.csv", "--out", "p.csv"));
        assertTrue(Main.loadsBlas("eval", "--model", "m.json", "--data", "a.csv"));
        assertTrue(Main.loadsBlas("cv", "krr", "--train", "a.csv"));
        assertFalse(Main.loadsBlas("fit", "krr", "--help"));
        assertFalse(Main.loadsBlas("predict", "-h"));
        assertFalse(Main.loadsBlas("fit", "-V"));
        assertFalse(Main.loadsBlas("fit"));
        assertFalse(Main.loadsBlas("--version"));
        assertFalse(Main.loadsBlas("help", "fit"));
        assertFalse(Main.loadsBlas("bench", "cold", "--cases", "version"));
        assertFalse(Main.loadsBlas("sample", "--model", "m.json", "--n", "3"));
        assertFalse(Main.loadsBlas());
    }
}
