package org.psdkit.linalg;

import java.io.File;
import java.net.URL;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;

/**
 * OpenBLAS's BLAS libraries loaded by their file names, without JavaCPP's library search: for a short command (the
 * command line's {@code predict}), where that search is most of the load's cost.
 *
 * <p>JavaCPP's {@code Loader.load} reads each preset's {@code @Platform} annotations (made into proxy classes at
 * run time), merges the class properties of the presets they inherit and looks for nine library names in the class
 * path and the cache before it loads the files (measured in docs/benchmarks/cold.md, "OpenBLAS loaded by its file
 * names"). Here the six files of the running Linux platform are named: the libraries {@code jniopenblas_nolapack}
 * links (gcc_s, quadmath, gfortran and OpenBLAS, in the order the presets preload them, {@link #DEPENDENCIES}), then
 * the JNI libraries {@code jnijavacpp} and {@code jniopenblas_nolapack}. Each goes through
 * {@code Loader.cacheResource}, JavaCPP's own extraction into its cache (it compares the cached file's size and time
 * with the jar entry's and extracts it again when they differ, so a first run or a damaged cache is handled as
 * JavaCPP handles it), and then {@link System#load} by full path; the JNI libraries' {@code JNI_OnLoad} initialises
 * JavaCPP's {@code Loader} and pointer classes. JavaCPP's property {@code org.bytedeco.javacpp.loadlibraries} is
 * false while this runs, so that the {@code Loader.load()} calls of the classes initialised meanwhile
 * ({@link #INITIALISED}) return at once; hence this runs only when asked for ({@value #PROPERTY} = {@code direct},
 * set by the command line, which loads nothing else through JavaCPP at that moment), under {@link Threads}'s lock,
 * and never when the user steers JavaCPP ({@code org.bytedeco.openblas.load}, {@code org.bytedeco.javacpp.platform},
 * {@code pathsfirst} or {@code loadlibraries} set).
 *
 * <p>Anything unexpected — another platform or presets version (a file name not in the jar), another class loader,
 * a file that does not load, a library without {@code openblas_set_num_threads} — makes {@link #load} return null,
 * and {@link Threads#loadBlas} then takes JavaCPP's own way, as without this class. LAPACK (the presets'
 * {@code openblas} class, another file) is always loaded by JavaCPP, when a solver first needs it. The libraries are
 * the same files either way, so every result is the same bit for bit.
 */
final class OpenBlasFiles {

    /** The system property that asks for this load: {@code direct}. */
    static final String PROPERTY = "psdkit.blas.load";

    private static final String LOAD_LIBRARIES = "org.bytedeco.javacpp.loadlibraries";

    /**
     * The shared libraries {@code jniopenblas_nolapack} links, in the order of the presets' preloads
     * ({@code org.bytedeco.openblas.presets.openblas_nolapack}'s {@code @Platform(preload = ...)}, then its link
     * {@code openblas_nolapack@.0#openblas@.0}: the jar's {@code libopenblas.so.0} extracted under the name
     * {@code libopenblas_nolapack.so.0}, which a URL's fragment asks of {@code Loader.cacheResource}); loaded by full
     * path before it, so that the dynamic linker takes these files and not others from its search path.
     */
    private static final String[] DEPENDENCIES = {
        "libgcc_s.so.1", "libquadmath.so.0", "libgfortran.so.5", "libopenblas.so.0#libopenblas_nolapack.so.0"
    };

    /**
     * The classes initialised while JavaCPP's loading is off, each of whose initialisers calls {@code Loader.load()}:
     * the presets' class of BLAS, the function-pointer type {@link Threads} keeps the thread setter in, and the
     * pointer types psdkit uses (JavaCPP's {@code Loader$Helper}, the first of them, is initialised by
     * {@code Loader.cacheResource}).
     */
    private static final String[] INITIALISED = {
        "org.bytedeco.openblas.global.openblas_nolapack",
        "org.bytedeco.openblas.presets.openblas_nolapack$SetNumThreads",
        "org.bytedeco.javacpp.DoublePointer", "org.bytedeco.javacpp.FloatPointer", "org.bytedeco.javacpp.IntPointer"
    };

    private OpenBlasFiles() {
    }

    /** Whether {@link #load} is asked for and JavaCPP's own settings leave it free to run. */
    static boolean wanted() {
        return "direct".equals(System.getProperty(PROPERTY))
                && System.getProperty("org.bytedeco.openblas.load") == null
                && System.getProperty("org.bytedeco.javacpp.platform") == null
                && System.getProperty("org.bytedeco.javacpp.pathsfirst") == null
                && System.getProperty(LOAD_LIBRARIES) == null
                && System.getProperty("org.bytedeco.javacpp.loadLibraries") == null;
    }

    /**
     * Loads the BLAS libraries as the class comment says and returns the address of OpenBLAS's
     * {@code openblas_set_num_threads}, or null when it did not (the caller then loads through JavaCPP).
     */
    static Pointer load() {
        ClassLoader cl = OpenBlasFiles.class.getClassLoader();
        if (cl == null || Loader.class.getClassLoader() != cl) {
            return null; // System.load registers a library with the caller's class loader only
        }
        System.setProperty(LOAD_LIBRARIES, "false");
        try {
            String platform = Loader.getPlatform();
            if (!platform.startsWith("linux-")) {
                return null; // elsewhere a library finds its dependencies by other rules than its $ORIGIN
            }
            String dir = "org/bytedeco/openblas/" + platform + "/";
            String[] names = new String[DEPENDENCIES.length + 2];
            for (int i = 0; i < DEPENDENCIES.length; i++) {
                names[i] = dir + DEPENDENCIES[i];
            }
            names[DEPENDENCIES.length] = "org/bytedeco/javacpp/" + platform + "/libjnijavacpp.so";
            names[DEPENDENCIES.length + 1] = dir + "libjniopenblas_nolapack.so";
            URL[] urls = new URL[names.length];
            for (int i = 0; i < names.length; i++) {
                int ref = names[i].indexOf('#');
                URL u = cl.getResource(ref < 0 ? names[i] : names[i].substring(0, ref));
                if (u == null) {
                    return null; // another presets version: JavaCPP knows its files
                }
                urls[i] = ref < 0 ? u : new URL(u.toExternalForm() + names[i].substring(ref));
            }
            for (URL u : urls) {
                System.load(Loader.cacheResource(u).getPath());
            }
            for (String name : INITIALISED) {
                if (Class.forName(name, true, cl).getClassLoader() != cl) {
                    return null;
                }
            }
            // a native method of the presets' class, linked now: a library registered with another class loader
            // would fail here rather than at a solver's first call
            double[] one = {1.0};
            if (org.bytedeco.openblas.global.openblas_nolapack.cblas_ddot(1, one, 1, one, 1) != 1.0) {
                return null;
            }
            Pointer setter = Loader.addressof("openblas_set_num_threads");
            return setter == null || setter.isNull() ? null : setter;
        } catch (java.io.IOException | RuntimeException | UnsatisfiedLinkError | ClassNotFoundException
                 | ExceptionInInitializerError e) {
            return null;
        } finally {
            System.clearProperty(LOAD_LIBRARIES);
        }
    }
}
