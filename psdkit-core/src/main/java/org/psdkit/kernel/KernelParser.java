package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.psdkit.linalg.Matrix;

/**
 * Recursive-descent parser of kernel strings.
 *
 * <pre>
 * expr   := term ('+' term)*
 * term   := factor ('*' factor)*            numbers in a term multiply into one weight ≥ 0
 * factor := NUMBER | atom | '(' expr ')'
 * atom   := NAME [ '(' [ arg (',' arg)* ] ')' ]
 * arg    := NAME '=' ( ['+'|'-'] NUMBER | matrix )
 * matrix := '[' row (',' row)* ']'    row := '[' NUMBER (',' NUMBER)* ']'
 * </pre>
 */
final class KernelParser {

    /** Kernel names the parser knows, for error messages. */
    static final List<String> KNOWN = List.of("gaussian", "rbf", "laplacian", "abel", "linear", "polynomial",
            "exponential", "anova", "min", "delta", "constant");

    private final String src;
    private int pos;

    private KernelParser(String src) {
        this.src = src;
    }

    static Kernel parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("kernel string is empty");
        }
        KernelParser p = new KernelParser(spec);
        Kernel k = p.expr();
        p.skipSpace();
        if (p.pos < spec.length()) {
            char c = spec.charAt(p.pos);
            if (c == ')') {
                throw p.error(p.pos, "unmatched ')'");
            }
            if (c == '-') {
                throw p.error(p.pos, "'-' is not allowed: a difference of kernels need not be positive semidefinite");
            }
            throw p.error(p.pos, "unexpected '" + c + "' (expected '+', '*' or the end)");
        }
        return k;
    }

    private IllegalArgumentException error(int at, String problem) {
        return new IllegalArgumentException("kernel \"" + src + "\": column " + (at + 1) + ": " + problem);
    }

    private void skipSpace() {
        while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(char c) {
        skipSpace();
        return pos < src.length() && src.charAt(pos) == c;
    }

    private void expect(char c, String context) {
        skipSpace();
        if (pos >= src.length()) {
            throw error(pos, "missing '" + c + "' " + context);
        }
        if (src.charAt(pos) != c) {
            throw error(pos, "expected '" + c + "' " + context + " but found '" + src.charAt(pos) + "'");
        }
        pos++;
    }

    private Kernel expr() {
        List<Kernel> terms = new ArrayList<>();
        terms.add(term());
        while (peek('+')) {
            pos++;
            terms.add(term());
        }
        return terms.size() == 1 ? terms.get(0) : new SumKernel(terms);
    }

    private Kernel term() {
        double weight = 1;
        boolean sawNumber = false;
        List<Kernel> factors = new ArrayList<>();
        do {
            if (!factors.isEmpty() || sawNumber) {
                pos++; // the '*'
            }
            skipSpace();
            if (pos >= src.length()) {
                throw error(pos, "missing kernel at the end");
            }
            char c = src.charAt(pos);
            if (c == '(') {
                int open = pos;
                pos++;
                Kernel inner = expr();
                skipSpace();
                if (pos >= src.length() || src.charAt(pos) != ')') {
                    throw error(pos, "missing ')' to close the '(' at column " + (open + 1));
                }
                pos++;
                factors.add(inner);
            } else if (Character.isDigit(c) || c == '.') {
                weight *= number();
                sawNumber = true;
            } else if (Character.isLetter(c)) {
                factors.add(atom());
            } else if (c == '-') {
                throw error(pos, "negative weights and '-' are not allowed: the result need not be positive "
                        + "semidefinite");
            } else {
                throw error(pos, "expected a kernel name, a number or '(' but found '" + c + "'");
            }
        } while (peek('*'));
        Kernel body;
        if (factors.isEmpty()) {
            body = ConstantKernel.INSTANCE;
        } else if (factors.size() == 1) {
            body = factors.get(0);
        } else {
            body = new ProductKernel(factors);
        }
        return sawNumber ? new ScaledKernel(weight, body) : body;
    }

    private double number() {
        skipSpace();
        int start = pos;
        if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
            pos++;
        }
        while (pos < src.length() && (Character.isDigit(src.charAt(pos)) || src.charAt(pos) == '.')) {
            pos++;
        }
        if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
            int save = pos;
            pos++;
            if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                    pos++;
                }
            } else {
                pos = save;
            }
        }
        String text = src.substring(start, pos);
        try {
            double v = Double.parseDouble(text);
            if (!Double.isFinite(v)) {
                throw error(start, "number '" + text + "' is not finite");
            }
            return v;
        } catch (NumberFormatException e) {
            throw error(start, "expected a number but found '" + (text.isEmpty() ? rest(start) : text) + "'");
        }
    }

    private String rest(int from) {
        int end = Math.min(src.length(), from + 10);
        return from >= src.length() ? "the end" : src.substring(from, end);
    }

    private String name() {
        skipSpace();
        int start = pos;
        while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
            pos++;
        }
        return src.substring(start, pos);
    }

    /** One argument value: a number or a matrix. */
    private record Arg(int at, Double number, Matrix matrix) {
    }

    private Kernel atom() {
        int at = pos;
        String name = name().toLowerCase(java.util.Locale.ROOT);
        if (!KNOWN.contains(name)) {
            throw error(at, "unknown kernel '" + name + "'; known kernels: " + String.join(", ", KNOWN));
        }
        Map<String, Arg> args = new LinkedHashMap<>();
        if (peek('(')) {
            int open = pos;
            pos++;
            if (!peek(')')) {
                do {
                    if (peek(',')) {
                        pos++;
                    }
                    skipSpace();
                    int argAt = pos;
                    String key = name();
                    if (key.isEmpty()) {
                        throw error(pos, "expected a parameter name in " + name + "(...) but found '"
                                + rest(pos) + "'");
                    }
                    expect('=', "after parameter '" + key + "'");
                    skipSpace();
                    Arg value;
                    if (peek('[')) {
                        value = new Arg(argAt, null, matrix());
                    } else {
                        value = new Arg(argAt, number(), null);
                    }
                    if (args.put(key, value) != null) {
                        throw error(argAt, "parameter '" + key + "' given twice");
                    }
                } while (peek(','));
            }
            skipSpace();
            if (pos >= src.length() || src.charAt(pos) != ')') {
                throw error(pos, "missing ')' to close the '(' of " + name + " at column " + (open + 1));
            }
            pos++;
        }
        try {
            return build(name, args, at);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("kernel \"")) {
                throw e;
            }
            throw error(at, e.getMessage());
        }
    }

    private Matrix matrix() {
        int at = pos;
        expect('[', "to open a matrix");
        List<double[]> rows = new ArrayList<>();
        do {
            if (!rows.isEmpty()) {
                pos++; // ','
            }
            expect('[', "to open a matrix row");
            List<Double> row = new ArrayList<>();
            do {
                if (!row.isEmpty()) {
                    pos++;
                }
                row.add(number());
            } while (peek(','));
            expect(']', "to close a matrix row");
            rows.add(row.stream().mapToDouble(Double::doubleValue).toArray());
            if (rows.get(rows.size() - 1).length != rows.get(0).length) {
                throw error(at, "matrix rows have different lengths");
            }
        } while (peek(','));
        expect(']', "to close the matrix opened at column " + (at + 1));
        return Matrix.of(rows.toArray(new double[0][]));
    }

    private double num(String kernel, Map<String, Arg> args, String key) {
        Arg a = args.get(key);
        if (a.number == null) {
            throw error(a.at, kernel + ": parameter '" + key + "' takes a number, not a matrix");
        }
        return a.number;
    }

    private void allow(String kernel, Map<String, Arg> args, Set<String> allowed, String takes) {
        for (Map.Entry<String, Arg> e : args.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                throw error(e.getValue().at, "unknown parameter '" + e.getKey() + "' for " + kernel + "; "
                        + kernel + " takes " + takes);
            }
        }
    }

    private Kernel build(String name, Map<String, Arg> args, int at) {
        switch (name) {
            case "gaussian":
            case "rbf": {
                allow("gaussian", args, Set.of("sigma", "gamma", "beta"), "sigma (or gamma = beta = 1/(2 sigma^2))");
                if (args.size() != 1) {
                    throw error(at, "gaussian needs exactly one of sigma, gamma, beta");
                }
                if (args.containsKey("sigma")) {
                    return new GaussianKernel(num(name, args, "sigma"));
                }
                String key = args.containsKey("gamma") ? "gamma" : "beta";
                double v = num(name, args, key);
                if (!(v > 0) || Double.isInfinite(v)) {
                    throw error(args.get(key).at, "gaussian kernel: " + key + " must be > 0 and finite, got "
                            + KernelFormat.num(v));
                }
                return GaussianKernel.fromGamma(v);
            }
            case "laplacian":
            case "abel":
                allow("laplacian", args, Set.of("sigma"), "sigma");
                if (!args.containsKey("sigma")) {
                    throw error(at, "laplacian needs sigma, e.g. laplacian(sigma=1)");
                }
                return new LaplacianKernel(num(name, args, "sigma"));
            case "linear":
                if (args.isEmpty()) {
                    return LinearKernel.INSTANCE;
                }
                if (args.size() == 1 && (args.containsKey("A") || args.containsKey("a"))) {
                    Arg a = args.values().iterator().next();
                    if (a.matrix == null) {
                        throw error(a.at, "linear: A must be a matrix such as [[2,1],[1,2]]");
                    }
                    return new GeneralLinearKernel(a.matrix);
                }
                allow("linear", args, Set.of("A"), "no parameter, or A=[[...],...] (a PSD matrix)");
                throw error(at, "linear takes at most A");
            case "polynomial": {
                allow(name, args, Set.of("degree", "offset"), "degree and optionally offset");
                if (!args.containsKey("degree")) {
                    throw error(at, "polynomial needs degree, e.g. polynomial(degree=3, offset=1)");
                }
                int degree = Kernels.integerValue("polynomial", "degree", num(name, args, "degree"));
                double offset = args.containsKey("offset") ? num(name, args, "offset") : 0.0;
                return new PolynomialKernel(degree, offset);
            }
            case "exponential": {
                allow(name, args, Set.of("a", "degree"), "a and optionally degree (truncated series)");
                double a = args.containsKey("a") ? num(name, args, "a") : 1.0;
                if (args.containsKey("degree")) {
                    return new ExponentialSeriesKernel(a,
                            Kernels.integerValue("exponential", "degree", num(name, args, "degree")));
                }
                return new ExponentialKernel(a);
            }
            case "anova":
                allow(name, args, Set.of(), "no parameters");
                return AnovaKernel.INSTANCE;
            case "min":
                allow(name, args, Set.of(), "no parameters");
                return MinKernel.INSTANCE;
            case "delta":
                allow(name, args, Set.of(), "no parameters");
                return DeltaKernel.INSTANCE;
            case "constant":
                allow(name, args, Set.of(), "no parameters");
                return ConstantKernel.INSTANCE;
            default:
                throw error(at, "unknown kernel '" + name + "'");
        }
    }
}
