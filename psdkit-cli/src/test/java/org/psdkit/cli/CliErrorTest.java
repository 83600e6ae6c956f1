package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every bad-input class exits with status 2, a message naming the problem, and no output file. */
class CliErrorTest {
    @TempDir
    Path dir;
    Path good;
    Path out;

    @BeforeEach
    void setUp() {
        good = TestFiles.write(dir, "good.csv", "a,b,y\n0,1,1\n1,0,2\n2,2,3\n3,1,2\n");
        out = dir.resolve("out.json");
    }

    /** Runs, checks exit 2, that stderr contains every fragment, and that no file named out.* was left. */
    void bad(String[] fragments, String... args) throws IOException {
        CliRun r = CliRun.run(args);
        assertEquals(2, r.status(), "stderr: " + r.err());
        assertEquals("", r.out());
        for (String f : fragments) {
            assertTrue(r.err().contains(f), "expected '" + f + "' in: " + r.err());
        }
        assertEquals(1, r.err().strip().lines().count(), "one-line message expected: " + r.err());
        try (Stream<Path> s = Files.list(dir)) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith("out")
                    || p.getFileName().toString().startsWith(".out")), "an output file was left behind");
        }
    }

    String[] fit(Path train, String... extra) {
        String[] base = {"fit", "krr", "--train", train.toString(), "--out", out.toString()};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    @Test
    void missingFile() throws IOException {
        bad(new String[] {"missing.csv", "no such file"}, fit(dir.resolve("missing.csv")));
    }

    @Test
    void wrongColumn() throws IOException {
        bad(new String[] {"--target 'price' names no column"}, fit(good, "--target", "price"));
    }

    @Test
    void nanValue() throws IOException {
        Path p = TestFiles.write(dir, "nan.csv", "a,b,y\n0,1,1\n1,nan,2\n");
        bad(new String[] {"nan.csv, line 3, column 2 (b)", "not a finite number"}, fit(p));
    }

    @Test
    void emptyField() throws IOException {
        Path p = TestFiles.write(dir, "hole.csv", "a,b,y\n0,1,1\n1,,2\n");
        bad(new String[] {"line 3, column 2 (b): empty field"}, fit(p));
    }

    @Test
    void nonNumeric() throws IOException {
        Path p = TestFiles.write(dir, "txt.csv", "a,b,y\n0,1,1\n1,two,2\n");
        bad(new String[] {"line 3, column 2 (b)", "'two' is not a number"}, fit(p));
    }

    @Test
    void raggedRow() throws IOException {
        Path p = TestFiles.write(dir, "rag.csv", "a,b,y\n0,1,1\n1,2\n");
        bad(new String[] {"line 3", "2 fields"}, fit(p));
    }

    @Test
    void mismatchedDimensionsAtPrediction() throws IOException {
        CliRun r = CliRun.run(fit(good, "--kernel", "gaussian(sigma=1)"));
        assertEquals(0, r.status(), r.err());
        Path model = dir.resolve("model.json");
        Files.move(out, model);
        Path wrong = TestFiles.write(dir, "wrong.csv", "a,c\n1,2\n");
        bad(new String[] {"missing feature column 'b'"}, "predict", "--model", model.toString(), "--data",
                wrong.toString(), "--out", dir.resolve("out.csv").toString());
        bad(new String[] {"missing target column 'y'"}, "eval", "--model", model.toString(), "--data",
                TestFiles.write(dir, "notarget.csv", "a,b\n1,2\n").toString());
    }

    @Test
    void sigmaNotPositive() throws IOException {
        bad(new String[] {"--kernel", "sigma must be > 0"}, fit(good, "--kernel", "gaussian(sigma=0)"));
        bad(new String[] {"--kernel", "sigma must be > 0"}, fit(good, "--kernel", "gaussian(sigma=-2)"));
        bad(new String[] {"--kernel"}, fit(good, "--kernel", "gaussian(sigma=abc)"));
        bad(new String[] {"sigma must be > 0"}, "cv", "krr", "--train", good.toString(), "--folds", "2", "--grid",
                "sigma=1,0");
    }

    @Test
    void lambdaNegative() throws IOException {
        bad(new String[] {"--lambda must be >= 0"}, fit(good, "--lambda", "-0.5"));
        bad(new String[] {"--lambda must be >= 0"}, "fit", "ridge", "--train", good.toString(), "--out",
                out.toString(), "--lambda", "-1");
        bad(new String[] {"--lambda must be >= 0"}, "cv", "krr", "--train", good.toString(), "--folds", "2",
                "--grid", "lambda=0.1,-1");
    }

    @Test
    void emptyAndOneRowData() throws IOException {
        bad(new String[] {"empty file"}, fit(TestFiles.write(dir, "empty.csv", "")));
        bad(new String[] {"no data rows"}, fit(TestFiles.write(dir, "header.csv", "a,b,y\n")));
        bad(new String[] {"1 data row", "at least 2"}, fit(TestFiles.write(dir, "one.csv", "a,b,y\n1,2,3\n")));
    }

    @Test
    void corruptModelFiles() throws IOException {
        String[] docs = {
            "{not json",
            "{\"format\":\"other\"}",
            "{\"format\":\"psdkit-model\",\"formatVersion\":99,\"model\":\"krr\"}",
            "{\"format\":\"psdkit-model\",\"formatVersion\":1,\"model\":\"nosuchmodel\"}",
            "{\"format\":\"psdkit-model\",\"formatVersion\":1,\"model\":\"krr\",\"featureNames\":[\"a\",\"b\"]}",
        };
        String[] expect = {"not valid JSON", "not a psdkit model", "formatVersion 99", "unknown model type",
            "scaler"};
        for (int k = 0; k < docs.length; k++) {
            Path m = TestFiles.write(dir, "bad" + k + ".json", docs[k]);
            bad(new String[] {"bad" + k + ".json", expect[k]}, "predict", "--model", m.toString(), "--data",
                    good.toString(), "--out", dir.resolve("out.csv").toString());
        }
        // a valid model whose numbers were truncated
        CliRun r = CliRun.run(fit(good));
        assertEquals(0, r.status(), r.err());
        String text = Files.readString(out).replace("\"alpha\"", "\"alphaX\"");
        Files.delete(out);
        Path m = TestFiles.write(dir, "cut.json", text);
        bad(new String[] {"cut.json", "numbers.alpha"}, "eval", "--model", m.toString(), "--data", good.toString());
        bad(new String[] {"no such file"}, "eval", "--model", dir.resolve("nomodel.json").toString(), "--data",
                good.toString());
    }

    @Test
    void badOptions() throws IOException {
        bad(new String[] {"--scale"}, fit(good, "--scale", "robust"));
        bad(new String[] {"Missing required option"}, "fit", "krr", "--train", good.toString());
        bad(new String[] {"--out", "does not exist"}, "fit", "krr", "--train", good.toString(), "--out",
                dir.resolve("nofolder/out.json").toString());
        bad(new String[] {"unknown parameter 'gamma'"}, "cv", "krr", "--train", good.toString(), "--grid",
                "gamma=1,2");
        bad(new String[] {"--folds"}, "cv", "krr", "--train", good.toString(), "--folds", "9");
    }
}
