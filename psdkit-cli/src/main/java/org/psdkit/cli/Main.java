package org.psdkit.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.psdkit.cli.bench.BenchCommand;
import org.psdkit.cli.cv.CvCommand;
import org.psdkit.cli.demo.DemoCommand;
import org.psdkit.cli.fit.FitCommand;
import org.psdkit.cli.fit.FitCommands;
import org.psdkit.cli.reproduce.ReproduceCommand;
import org.psdkit.cli.sdp.SdpCommand;
import org.psdkit.cli.use.EvalCommand;
import org.psdkit.cli.use.ExportCommand;
import org.psdkit.cli.use.PredictCommand;
import org.psdkit.cli.use.SampleCommand;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.MemoryBudget;
import org.psdkit.linalg.Threads;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code psdkit} command line. Exit status: 0 success, 2 bad input or options (one-line message naming the
 * file, line, column or option), 1 internal failure (with diagnostics).
 */
@Command(name = "psdkit", mixinStandardHelpOptions = true, version = Main.VERSION,
        description = "Kernel methods where positive semidefinite matrices carry the structure.")
public final class Main implements Runnable {

    /**
     * The top-level subcommands, in the order of the usage text. They are added in {@link #commandLine()} rather
     * than listed in {@code @Command(subcommands = …)} so that a run can build only the one it names
     * ({@link #commandLine(String...)}).
     */
    private static final List<Class<?>> SUBCOMMANDS = List.of(
            FitCommand.class,
            SampleCommand.class,
            PredictCommand.class,
            EvalCommand.class,
            ExportCommand.class,
            CvCommand.class,
            DemoCommand.class,
            ReproduceCommand.class,
            BenchCommand.class,
            SdpCommand.class,
            CommandLine.HelpCommand.class);

    public static final int EXIT_OK = 0;
    public static final int EXIT_INTERNAL = 1;
    public static final int EXIT_BAD_INPUT = 2;

    /** What {@code psdkit --version} prints. */
    public static final String VERSION = "psdkit 0.1.0";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * {@code --threads N} on every command (an inherited option): the library's one thread setting
     * ({@link Threads#set(int)}: OpenBLAS and kernel matrices).
     */
    @CommandLine.Option(names = "--threads", paramLabel = "N", scope = CommandLine.ScopeType.INHERIT,
            description = "Threads for BLAS/LAPACK and kernel matrices (default: all cores; 1 on a busy shared "
                    + "machine, where a second BLAS thread waiting for a busy core can be much slower).")
    void setThreads(int n) {
        if (n < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be >= 1, got " + n);
        }
        Threads.set(n);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /**
     * The whole command tree: the annotated subcommands plus what comes from the model registry
     * ({@link FitCommands}): the subcommands of {@code fit} and the model types listed by {@code cv --help}.
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        for (Class<?> c : SUBCOMMANDS) {
            cl.addSubcommand(c);
        }
        FitCommands.addTo(cl.getSubcommands().get("fit"));
        CvCommand.listModelTypes(cl.getSubcommands().get("cv"));
        return cl;
    }

    /**
     * The part of the command tree that {@code args} runs: when {@code args[0]} names a subcommand (other than
     * {@code help}), only that subcommand, and for {@code fit <model>} only that model's command; otherwise (no
     * arguments, an option or an unknown word first, {@code help}, {@code fit} without a known model) the whole
     * tree of {@link #commandLine()}, whose usage texts and error messages list every subcommand. Building a
     * subcommand reads its options by reflection, so a run that builds one instead of all of them starts sooner.
     */
    public static CommandLine commandLine(String... args) {
        Class<?> only = args.length == 0 ? null : named(SUBCOMMANDS, args[0]);
        if (only == null || only == CommandLine.HelpCommand.class) {
            return commandLine();
        }
        Class<?> model = null;
        if (only == FitCommand.class) {
            List<Class<?>> fits = new ArrayList<>();
            for (FitCommands.Entry e : FitCommands.all()) {
                fits.add(e.command());
            }
            model = args.length < 2 ? null : named(fits, args[1]);
            if (model == null) {
                return commandLine();
            }
        }
        CommandLine cl = new CommandLine(new Main());
        cl.addSubcommand(only);
        CommandLine sub = cl.getSubcommands().values().iterator().next();
        if (model != null) {
            sub.addSubcommand(model);
        } else if (only == CvCommand.class) {
            CvCommand.listModelTypes(sub);
        }
        return cl;
    }

    /** The class among {@code commands} whose {@code @Command} name or alias is {@code word}, or null. */
    private static Class<?> named(List<Class<?>> commands, String word) {
        for (Class<?> c : commands) {
            Command a = c.getAnnotation(Command.class);
            if (a == null) {
                continue;
            }
            if (a.name().equals(word) || Arrays.asList(a.aliases()).contains(word)) {
                return c;
            }
        }
        return null;
    }

    /** Runs the CLI and returns the exit status (used by tests; {@link #main} exits with it). */
    public static int execute(String... args) {
        if (args.length == 1 && ("--version".equals(args[0]) || "-V".equals(args[0]))) {
            // the same line picocli's version help prints, without building the command tree (every subcommand
            // class and the model registry) first
            System.out.println(VERSION);
            System.out.flush();
            return EXIT_OK;
        }
        PredictCommand.Direct direct = PredictCommand.direct(args);
        if (direct != null) {
            return runDirect(direct);
        }
        return executeWithPicocli(args);
    }

    /** {@link #execute} without the direct path of a plain predict line (for tests comparing the two). */
    static int executeWithPicocli(String... args) {
        boolean blas = loadsBlas(args);
        if (blas) {
            Threads.loadBlasInBackground();
        }
        CommandLine cl = commandLine(args);
        addHelpOptions(cl);
        if (blas) {
            // the command runs once the load has finished (predict waits itself, after reading its data file)
            cl.setExecutionStrategy(pr -> {
                if (!(leaf(pr).commandSpec().userObject() instanceof PredictCommand)) {
                    Threads.awaitBackgroundLoad();
                }
                return new CommandLine.RunLast().execute(pr);
            });
        }
        cl.setExecutionExceptionHandler(Main::handleExecutionException);
        cl.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("psdkit: error: " + ex.getMessage());
            err.flush();
            return EXIT_BAD_INPUT;
        });
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            // picocli hands only Exceptions to the handler; an Error must not escape as a trace either
            return reportError(e, cl.getErr());
        }
    }

    /**
     * Runs a plain predict line read without picocli ({@link PredictCommand#direct}) as picocli would run it: the
     * {@code --threads} setting, OpenBLAS's load started on a second thread, the command, and its failures reported
     * by {@link #handleExecutionException} on a writer made as picocli makes its error writer.
     */
    private static int runDirect(PredictCommand.Direct d) {
        PrintWriter err = stderrWriter();
        try {
            if (d.threads() > 0) {
                Threads.set(d.threads());
            }
            Threads.loadBlasInBackground();
            return d.command().call();
        } catch (OutOfMemoryError | StackOverflowError e) {
            return reportError(e, err);
        } catch (Exception ex) {
            return handleExecutionException(ex, err, null);
        }
    }

    /**
     * System.err as picocli's {@code CommandLine.getErr()} wraps it (picocli 4.7): the encoding of the
     * {@code sun.stderr.encoding} property (cp65001 read as UTF-8) or else the default charset, buffered, flushed
     * at each line.
     */
    private static PrintWriter stderrWriter() {
        String name = System.getProperty("sun.stderr.encoding");
        java.nio.charset.Charset cs = java.nio.charset.Charset.defaultCharset();
        if (name != null) {
            try {
                cs = java.nio.charset.Charset.forName("cp65001".equalsIgnoreCase(name) ? "UTF-8" : name);
            } catch (RuntimeException e) {
                // picocli falls back to the default charset as well
            }
        }
        return new PrintWriter(new java.io.BufferedWriter(new java.io.OutputStreamWriter(System.err, cs)), true);
    }

    /** The top-level commands whose runs call BLAS (every model family's fit and predict does). */
    private static final java.util.Set<String> BLAS_COMMANDS = java.util.Set.of("fit", "predict", "eval", "cv");

    /**
     * Whether {@code args} run a command that will load OpenBLAS: then its load (JavaCPP, two native libraries, see
     * docs/benchmarks/startup.md) is started on a second thread before the command tree is built and the options
     * parsed ({@link Threads#loadBlasInBackground}). Not for help or version requests, which compute nothing.
     */
    static boolean loadsBlas(String... args) {
        if (args.length < 2 || !BLAS_COMMANDS.contains(args[0])) {
            return false;
        }
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version")) {
                return false;
            }
        }
        return true;
    }

    /**
     * One line for an {@link OutOfMemoryError} or {@link StackOverflowError} (anywhere in {@code ex}'s causes), exit 1;
     * {@code -1} if there is none.
     */
    static int reportError(Throwable ex, PrintWriter err) {
        Throwable e = ex;
        for (int depth = 0; e != null && depth < MAX_CAUSES; depth++, e = e.getCause()) {
            if (e instanceof OutOfMemoryError) {
                long max = Runtime.getRuntime().maxMemory();
                err.println("psdkit: out of memory: " + e.getMessage() + "; the JVM has "
                        + String.format(java.util.Locale.ROOT, "%.1f", max / GIB)
                        + " GB (set PSDKIT_JAVA_OPTS=-Xmx... to give it more, or use a smaller input)");
            } else if (e instanceof StackOverflowError) {
                err.println("psdkit: internal error: stack overflow (an input nested too deeply?)");
            } else {
                continue;
            }
            if (System.getenv("PSDKIT_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            err.flush();
            return EXIT_INTERNAL;
        }
        return -1;
    }

    /** How far down the cause chain {@link #reportError} looks (causes can form a cycle). */
    private static final int MAX_CAUSES = 16;

    private static final double GIB = 1024.0 * 1024.0 * 1024.0;

    /** Gives every subcommand {@code -h/--help} (and {@code -V/--version}) unless it declares its own. */
    static void addHelpOptions(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandLine.Model.CommandSpec spec = sub.getCommandSpec();
            java.util.Map<String, CommandLine.Model.OptionSpec> opts = spec.optionsMap();
            boolean free = !opts.containsKey("--help") && !opts.containsKey("-h") && !opts.containsKey("-V")
                    && !opts.containsKey("--version");
            if (free && !(sub.getCommand() instanceof CommandLine.HelpCommand)) {
                spec.mixinStandardHelpOptions(true);
            }
            addHelpOptions(sub);
        }
    }

    static int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult pr) {
        return handleExecutionException(ex, cl.getErr(), pr);
    }

    /** The message and exit status of a command's failure {@code ex} ({@code pr}: the parse, or null if none). */
    static int handleExecutionException(Exception ex, PrintWriter err, CommandLine.ParseResult pr) {
        if (ex instanceof MemoryBudget.InsufficientMemoryException m) {
            String xmx = m.suggestedXmx();
            // a command with --anchors can also ask for less: the Nyström fits' memory grows with the anchors, and
            // an exact fit's n×n kernel matrix becomes n×M with M anchors
            CommandLine.ParseResult leaf = pr == null ? null : leaf(pr);
            boolean anchors = leaf != null && leaf.commandSpec().findOption("--anchors") != null;
            String reduce = !anchors ? "" : leaf.hasMatchedOption("--anchors") ? ", or fewer --anchors"
                    : ", or --anchors M for a Nystrom fit";
            err.println("psdkit: error: " + m.getMessage().replace("(raise its -Xmx, e.g. " + xmx + ")",
                    "(set PSDKIT_JAVA_OPTS=" + xmx + reduce + ")").replace("(no heap size would do)",
                    "(no heap size would do" + reduce + ")"));
            err.flush();
            return EXIT_BAD_INPUT;
        }
        if (ex instanceof org.psdkit.data.InputException p) {
            err.println("psdkit: error: " + Flags.message(p));
            err.flush();
            return EXIT_BAD_INPUT;
        }
        if (ex instanceof IllegalArgumentException) {
            err.println("psdkit: error: " + ex.getMessage());
            err.flush();
            return EXIT_BAD_INPUT;
        }
        if (ex instanceof org.psdkit.engine.DistributedEngine.EngineFailure) {
            err.println("psdkit: error: " + ex.getMessage());
            if (System.getenv("PSDKIT_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            err.flush();
            return EXIT_INTERNAL;
        }
        int status = reportError(ex, err);
        if (status >= 0) {
            return status;
        }
        if (ex instanceof LinalgException || ex instanceof ArithmeticException || ex instanceof IllegalStateException) {
            err.println("psdkit: numerical failure: " + ex.getMessage());
        } else {
            err.println("psdkit: internal error: " + ex);
        }
        if (System.getenv("PSDKIT_DEBUG") != null) {
            ex.printStackTrace(err);
        }
        err.flush();
        return EXIT_INTERNAL;
    }

    /** The subcommand that ran (the innermost of the parse). */
    private static CommandLine.ParseResult leaf(CommandLine.ParseResult pr) {
        CommandLine.ParseResult p = pr;
        while (p.hasSubcommand()) {
            p = p.subcommand();
        }
        return p;
    }

    public static void main(String[] args) {
        // a command-line process loads nothing else through JavaCPP while OpenBLAS loads: it may take the libraries
        // from JavaCPP's cache without JavaCPP's search (org.psdkit.linalg.OpenBlasFiles); a value given is kept
        if (System.getProperty("psdkit.blas.load") == null) {
            System.setProperty("psdkit.blas.load", "direct");
        }
        System.exit(execute(args));
    }
}
