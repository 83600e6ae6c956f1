package org.psdkit.data;

import java.util.function.UnaryOperator;

/**
 * Bad input that names the parameter it concerns: the folds of a split, the scaling kind, the target column of a
 * file. {@link #parameter()} is the library's name ({@code folds}, {@code scale}, {@code targetName}), so that a
 * front end spells it its own way ({@link #describe}; the command line names its flag) without parsing the
 * message. {@link org.psdkit.model.ParameterException}, which every options record throws, is one; it lives here,
 * in the lowest layer that reads input, so that the data readers and splits can throw it too.
 */
public class InputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String context;
    private final String parameter;
    private final String problem;
    /** The parameter that {@link #parameter} excludes ({@link #exclusive}), or null. */
    private final String other;

    /**
     * @param context   what was read, ending in its own separator ({@code "a.csv: "}), or empty
     * @param parameter the library's name of the parameter (not empty)
     * @param problem   what is wrong, read after the name ("must be >= 0, got -1")
     * @param other     a second parameter named at the end of {@code problem} (see {@link #exclusive}), or null
     */
    protected InputException(String context, String parameter, String problem, String other) {
        super(context + parameter + " " + problem);
        if (parameter == null || parameter.isEmpty()) {
            throw new IllegalArgumentException("parameter name must not be empty");
        }
        this.context = context;
        this.parameter = parameter;
        this.problem = problem;
        this.other = other;
    }

    /**
     * A bad parameter found while reading something, e.g. a file: the message is {@code context} followed by the
     * parameter's name and the problem ({@code "a.csv: targetName 'z' names no column; the header has x,y"}).
     */
    public InputException(String context, String parameter, String problem) {
        this(context, parameter, problem, null);
    }

    /**
     * Two parameters that were both set but exclude each other: {@code "targetName y and noTarget exclude each
     * other"}; {@link #parameter()} is the first, {@link #other()} the second.
     */
    public static InputException exclusive(String parameter, Object value, String other) {
        return new InputException("", parameter, value + " and " + other + " exclude each other", other);
    }

    /** The library's name of the parameter. */
    public String parameter() {
        return parameter;
    }

    /**
     * The message without the parameter's name (and without the context), for a front end that names the parameter
     * its own way.
     */
    public String problem() {
        return problem;
    }

    /** The parameter that {@link #parameter()} excludes (see {@link #exclusive}), or null. */
    public String other() {
        return other;
    }

    /**
     * The message with every parameter it names spelt by {@code name}: a front end passes its own spelling (the
     * command line's flags); {@code getMessage()} is {@code describe(p -> p)}.
     */
    public String describe(UnaryOperator<String> name) {
        String p = problem;
        if (other != null) {
            p = p.substring(0, p.length() - (other + " exclude each other").length()) + name.apply(other)
                    + " exclude each other";
        }
        return context + name.apply(parameter) + " " + p;
    }
}
