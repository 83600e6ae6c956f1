package org.psdkit.cli;

import java.util.Map;
import org.psdkit.model.ParameterException;

/**
 * The command line's name of each library parameter that {@link ParameterException} names: the one table from
 * which a library message becomes a message about the flag the user typed ({@code lambda must be >= 0} →
 * {@code --lambda must be >= 0}). A parameter without an entry is shown as {@code --} followed by its name with
 * camel case turned into dashes ({@code maxIterations} → {@code --max-iterations}).
 */
public final class Flags {
    private Flags() {
    }

    /** Library names whose flag is not the dashed form of the name. */
    private static final Map<String, String> DIFFERENT = Map.ofEntries(
            Map.entry("targetName", "--target"),
            Map.entry("tolerance", "--tol"),
            Map.entry("maxIterations", "--max-iter"),
            Map.entry("anchorMethod", "--anchor-method"),
            Map.entry("cacheMb", "--cache-mb"),
            Map.entry("cGrid", "--c-grid"),
            Map.entry("epsilonGrid", "--epsilon-grid"),
            Map.entry("rankThreshold", "--rank-threshold"),
            Map.entry("relativeThreshold", "--rank-threshold"),
            Map.entry("timeLimitSeconds", "--time-limit"),
            Map.entry("c", "-C"));

    /** The flag that sets library parameter {@code parameter}. */
    public static String of(String parameter) {
        String f = DIFFERENT.get(parameter);
        if (f != null) {
            return f;
        }
        StringBuilder b = new StringBuilder("--");
        for (int i = 0; i < parameter.length(); i++) {
            char ch = parameter.charAt(i);
            if (Character.isUpperCase(ch)) {
                b.append('-').append(Character.toLowerCase(ch));
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    /**
     * Builds a command's options, naming a bad parameter by the flag in {@code local} where that command spells it
     * differently from the table (the SMO families' {@code --tolerance}, where other families have {@code --tol}).
     */
    public static <T> T checked(java.util.function.Supplier<T> options, Map<String, String> local) {
        try {
            return options.get();
        } catch (ParameterException e) {
            String flag = local.get(e.parameter());
            if (flag == null) {
                throw e;
            }
            throw new IllegalArgumentException(flag + " " + e.problem(), e);
        }
    }

    /** The message of {@code e} with its parameter named by its flag. */
    public static String message(org.psdkit.data.InputException e) {
        return e.describe(Flags::of);
    }
}
