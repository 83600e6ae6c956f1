package org.psdkit.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.psdkit.optim.ProgressListener;

/**
 * Progress of a long run on stderr: {@code task: 12/40 (30%) 3.1 s, ~7.2 s left}. Updates are throttled
 * ({@link #MIN_INTERVAL_NANOS}); on a terminal one line is rewritten, otherwise a new line is printed at most every
 * {@link #PIPE_INTERVAL_NANOS}. Hand {@link #listener()} to any library computation, e.g.
 * {@code trainer.fit(data, progress.listener())}. Nothing goes to stdout.
 */
public final class Progress implements AutoCloseable {
    /** Terminal refresh interval: 0.2 s is smooth to the eye without flooding the terminal. */
    public static final long MIN_INTERVAL_NANOS = 200_000_000L;
    /** Refresh interval when stderr is a file or pipe: 5 s keeps logs short. */
    public static final long PIPE_INTERVAL_NANOS = 5_000_000_000L;

    /**
     * Runs that can take this many seconds or more (by an estimate of their work) are announced with the estimate
     * before they start ({@link #announces}).
     */
    public static final double ANNOUNCE_SECONDS = 600;

    private static volatile boolean quiet = System.getenv("PSDKIT_QUIET") != null;
    /** Test knob: every update drawn at once and every estimate announced ({@link #setEager}). */
    private static volatile boolean eager;

    private final String task;
    private long total;
    /** The total is an iteration budget of a solver that stops on a tolerance: no percentage, no time left. */
    private final boolean budget;
    private final long start = System.nanoTime();
    private final boolean tty = System.console() != null;
    private final PrintStream err = System.err;
    private long done;
    private long lastPrint;
    private boolean printedInline;
    private boolean drawn;
    /** Set by {@link #abandon}: the run failed, {@link #close} prints no "done" line. */
    private boolean abandoned;

    private Progress(String task, long total, boolean budget) {
        this.task = task;
        this.total = total;
        this.budget = budget;
        this.lastPrint = start;
    }

    /** Silences every progress display (tests, or PSDKIT_QUIET set in the environment). */
    public static void setQuiet(boolean q) {
        quiet = q;
    }

    /** Whether the displays are silenced. */
    static boolean quiet() {
        return quiet;
    }

    /**
     * Tests: with {@code true} every display draws every update (no throttling) and {@link #announces} holds for
     * any estimate, so that a run of milliseconds shows what a long one does; {@code false} restores the defaults.
     */
    static void setEager(boolean e) {
        eager = e;
    }

    /**
     * Whether a run that can take up to {@code seconds} (by an estimate of its work) is to be announced on stderr
     * before it starts: at least {@link #ANNOUNCE_SECONDS}, and the displays not silenced.
     */
    public static boolean announces(double seconds) {
        return !quiet && (eager || seconds >= ANNOUNCE_SECONDS);
    }

    /** The least time between two draws. */
    private long interval() {
        return eager ? 0 : tty ? MIN_INTERVAL_NANOS : PIPE_INTERVAL_NANOS;
    }

    /** Starts a progress display for {@code total} steps (0 or less: unknown total). */
    public static Progress start(String task, long total) {
        return new Progress(task, total, false);
    }

    /**
     * Starts a progress display for an iterative solver that stops on a tolerance, {@code maxIterations} being only
     * its budget: the line shows the iteration, the budget and the measure ({@code density: iteration 120 of at most
     * 20000, 3.1 s, gap 2.1e-5}), never a percentage or a time left computed from the budget, which would be
     * meaningless (a fit that converges in 200 iterations would announce hours).
     */
    public static Progress startSolver(String task, long maxIterations) {
        return new Progress(task, maxIterations, true);
    }

    /** One line of information on stderr (not throttled). */
    public static void info(String message) {
        if (!quiet) {
            System.err.println(message);
        }
    }

    public synchronized void step() {
        set(done + 1);
    }

    /** Sets the number of finished steps and maybe redraws. */
    public synchronized void set(long finished) {
        done = finished;
        long now = System.nanoTime();
        if (now - lastPrint >= interval()) {
            lastPrint = now;
            draw(now, null);
        }
    }

    /**
     * This display as the library's {@link ProgressListener}: every event sets the finished steps, the total when
     * the event knows it (else the total given at {@link #start}) and the status {@code measure value}, drawn as
     * {@code task: 12/40 (30%) 3.1 s, ~7.2 s left, gap 1.23e-05} (throttled as {@link #set(long)}).
     */
    public ProgressListener listener() {
        return e -> {
            synchronized (this) {
                if (e.total() > 0) {
                    total = e.total();
                }
                done = e.step();
                long now = System.nanoTime();
                if (now - lastPrint >= interval()) {
                    lastPrint = now;
                    draw(now, status(e));
                }
            }
        };
    }

    /** {@code measure value} of an event, or null when it has none. */
    public static String status(ProgressListener.Event e) {
        if (e.measure() == null || Double.isNaN(e.value())) {
            return null;
        }
        return e.measure() + " " + String.format(Locale.ROOT, "%.3g", e.value());
    }

    /** Sets progress with a short status (e.g. {@code gap 1.2e-5}). */
    public synchronized void set(long finished, String status) {
        done = finished;
        long now = System.nanoTime();
        if (now - lastPrint >= interval()) {
            lastPrint = now;
            draw(now, status);
        }
    }

    private void draw(long now, String status) {
        if (quiet) {
            return;
        }
        drawn = true;
        String text = budget ? solverLine(task, done, total, (now - start) * 1e-9, status)
                : line(task, done, total, (now - start) * 1e-9, status);
        if (tty) {
            err.print("\r" + text + "   ");
            printedInline = true;
        } else {
            err.println(text);
        }
        err.flush();
    }

    /** One display line: {@code task: 12/40 (30%) 3.1 s, ~7.2 s left, status} (total ≤ 0: unknown). */
    static String line(String task, long done, long total, double seconds, String status) {
        StringBuilder sb = new StringBuilder(task).append(": ").append(done);
        if (total > 0) {
            sb.append('/').append(total).append(String.format(Locale.ROOT, " (%d%%)", 100 * done / total));
        }
        sb.append(String.format(Locale.ROOT, " %.1f s", seconds));
        if (total > 0 && done > 0 && done < total) {
            sb.append(String.format(Locale.ROOT, ", ~%.1f s left", seconds * (total - done) / done));
        }
        if (status != null) {
            sb.append(", ").append(status);
        }
        return sb.toString();
    }

    /** One display line of a solver with an iteration budget: {@code task: iteration 12 of at most 400, 3.1 s, status}. */
    static String solverLine(String task, long done, long maxIterations, double seconds, String status) {
        StringBuilder sb = new StringBuilder(task).append(": iteration ").append(done);
        if (maxIterations > 0) {
            sb.append(" of at most ").append(maxIterations);
        }
        sb.append(String.format(Locale.ROOT, ", %.1f s", seconds));
        if (status != null) {
            sb.append(", ").append(status);
        }
        return sb.toString();
    }

    /** Finished steps so far. */
    synchronized long done() {
        return done;
    }

    /** The total number of steps (0 or less: unknown). */
    synchronized long total() {
        return total;
    }

    /** Seconds since start. */
    public double seconds() {
        return (System.nanoTime() - start) * 1e-9;
    }

    /** Whether this display has drawn a line. */
    public synchronized boolean drawn() {
        return drawn;
    }

    /**
     * Ends this display without its "done" line, for a run that failed: a line drawn in place on a terminal is
     * ended, so that the next message starts a line of its own.
     */
    public synchronized void abandon() {
        abandoned = true;
        if (!quiet && printedInline) {
            err.println();
            err.flush();
            printedInline = false;
        }
    }

    /**
     * Runs {@code body} under this display: if it throws, the display is {@linkplain #abandon abandoned}, so the
     * {@link #close} of a try-with-resources prints no "done" line for a run that failed (a memory estimate refused,
     * a bad option found by the library). Use as {@code try (Progress p = …) { m = p.run(() -> fit(…)); }}.
     */
    public <T> T run(java.util.function.Supplier<T> body) {
        try {
            return body.get();
        } catch (RuntimeException | Error e) {
            abandon();
            throw e;
        }
    }

    /** Prints {@code task: done in S s}, unless the display is silenced or was {@linkplain #abandon abandoned}. */
    @Override
    public synchronized void close() {
        if (quiet || abandoned) {
            return;
        }
        if (printedInline) {
            err.print("\r");
        }
        err.println(String.format(java.util.Locale.ROOT, "%s: done in %.2f s", task, seconds()));
        err.flush();
    }
}
