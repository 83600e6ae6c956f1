package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OpenBlasFiles}: OpenBLAS loaded from JavaCPP's cache without JavaCPP's search, in a child JVM (a load is
 * once per process) with a cache directory of its own. Asked for, it loads directly from an empty cache (extracting
 * the files as JavaCPP would) and from a filled one, also after a cached file was damaged (JavaCPP's size and time
 * check extracts it again); BLAS products, a LAPACK factorisation (loaded later by JavaCPP itself) and every thread
 * setting then work as after JavaCPP's own load. Not asked for, or with a JavaCPP setting given, JavaCPP loads.
 */
class OpenBlasFilesTest {

    @TempDir
    Path cache;

    /** The child: loads, computes, sets threads and prints what it saw. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Threads.set(2);
            Matrix a = Matrix.zeros(3, 3);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    a.set(i, j, (i == j ? 4 : 0) + 1.0 / (1 + i + j));
                }
            }
            double g = Linalg.gemm(1.0, a, false, a, true).get(1, 2);
            double l = Linalg.cholesky(a).lower().get(2, 2);
            int two = openblasThreads();
            int capped = Threads.blasCapped(1, OpenBlasFilesTest.Child::openblasThreads);
            Threads.set(1);
            int one = openblasThreads();
            Threads.set(2);
            System.out.println("MARK direct=" + Threads.loadedDirectly() + " gemm=" + g + " chol=" + l
                    + " threads=" + two + "," + capped + "," + one + "," + openblasThreads());
        }

        /** OpenBLAS's own count, as ThreadsCapTest reads it. */
        static int openblasThreads() {
            org.bytedeco.javacpp.Pointer f = org.bytedeco.javacpp.Loader.addressof("openblas_get_num_threads");
            IntGetter g = new IntGetter();
            g.put(f);
            return g.call(0);
        }

        private static final class IntGetter
                extends org.bytedeco.openblas.presets.openblas_nolapack.MklSetNumThreadsLocal {
        }
    }

    private String run(String... props) throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        String mp = System.getProperty("jdk.module.path");
        String cp = (mp == null || mp.isEmpty() ? "" : mp + java.io.File.pathSeparator)
                + System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString(), "-Xmx256m",
                "-Dorg.bytedeco.javacpp.cachedir=" + cache));
        for (String p : props) {
            cmd.add("-D" + p);
        }
        cmd.addAll(List.of("-cp", cp, Child.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(true);
        pb.environment().put("OPENBLAS_NUM_THREADS", "4");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child timed out");
        String log = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), log);
        return log.lines().filter(s -> s.startsWith("MARK")).findFirst().orElse(log);
    }

    private static String expected(boolean direct, String values) {
        return "MARK direct=" + direct + values + " threads=2,1,1,2";
    }

    @Test
    void loadsDirectlyFromAnEmptyAndAFilledCacheAndAfterDamage() throws Exception {
        String javacpp = run();
        assertTrue(javacpp.startsWith("MARK direct=false "), javacpp);
        String values = javacpp.substring("MARK direct=false".length(), javacpp.indexOf(" threads="));
        assertEquals(expected(false, values), javacpp);
        // a fresh cache: the files extracted by the direct load itself
        Path fresh = Files.createDirectory(cache.resolve("fresh"));
        cache = fresh;
        assertEquals(expected(true, values), run("psdkit.blas.load=direct"));
        assertEquals(expected(true, values), run("psdkit.blas.load=direct"));
        // a damaged JNI library and a damaged dependency: extracted again (their size differs from the jar's)
        try (var files = Files.walk(fresh)) {
            for (Path f : files.filter(q -> q.getFileName().toString().startsWith("libjniopenblas_nolapack.so")
                    || q.getFileName().toString().startsWith("libgfortran.so.5")).toList()) {
                Files.write(f, new byte[] {1, 2, 3});
            }
        }
        assertEquals(expected(true, values), run("psdkit.blas.load=direct"));
        // a JavaCPP setting given by the user: JavaCPP loads
        assertEquals(expected(false, values), run("psdkit.blas.load=direct",
                "org.bytedeco.javacpp.pathsfirst=false"));
    }
}
