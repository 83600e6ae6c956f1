package org.psdkit.model;

/**
 * A bad value of a named parameter (an option of a trainer, a kernel, a solver): the one exception type that every
 * options record throws from its constructor. {@link #parameter()} is the library's name of the parameter
 * ({@code lambda}, {@code anchors}, {@code c}, …), so that a front end can name its own spelling of it (the command
 * line maps it to its flag) without parsing the message.
 *
 * <pre>{@code
 * if (!(lambda >= 0)) {
 *     throw new ParameterException("lambda", "must be >= 0, got " + lambda);
 * }
 * }</pre>
 */
public class ParameterException extends org.psdkit.data.InputException {
    private static final long serialVersionUID = 1L;

    /**
     * @param parameter the library's name of the parameter (not null)
     * @param problem   what is wrong with its value, read after the name ("must be >= 0, got -1")
     */
    public ParameterException(String parameter, String problem) {
        super("", parameter, problem, null);
    }

    /**
     * A bad parameter found while reading something: the message is {@code context} followed by the parameter's
     * name and the problem.
     *
     * @param context what was read, ending in its own separator ({@code "a.csv: "}), or empty
     */
    public ParameterException(String context, String parameter, String problem) {
        super(context, parameter, problem, null);
    }

    /** Throws unless {@code value} is finite and {@code >= 0}. */
    public static double nonNegative(String parameter, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new ParameterException(parameter, "must be >= 0 and finite, got " + value);
        }
        return value;
    }

    /** Throws unless {@code value} is finite and {@code > 0}. */
    public static double positive(String parameter, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new ParameterException(parameter, "must be > 0 and finite, got " + value);
        }
        return value;
    }

    /** Throws unless {@code value} lies in the open interval (0, 1). */
    public static double unitOpen(String parameter, double value) {
        if (!(value > 0 && value < 1)) {
            throw new ParameterException(parameter, "must be in (0, 1), got " + value);
        }
        return value;
    }

    /** Throws unless {@code value} lies in (0, 1] (a fraction that may be all: ν of the ν-SVMs). */
    public static double unitHalfOpen(String parameter, double value) {
        if (!(value > 0 && value <= 1)) {
            throw new ParameterException(parameter, "must be in (0, 1], got " + value);
        }
        return value;
    }

    /** Throws unless {@code value >= min}. */
    public static int atLeast(String parameter, int value, int min) {
        if (value < min) {
            throw new ParameterException(parameter, "must be >= " + min + ", got " + value);
        }
        return value;
    }

    /** Throws if {@code value} is null. */
    public static <T> T required(String parameter, T value) {
        if (value == null) {
            throw new ParameterException(parameter, "must be given");
        }
        return value;
    }
}
