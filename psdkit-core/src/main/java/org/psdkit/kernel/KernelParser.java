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
 * arg    := NAME '=' ( ['+'|'-'] NUMBER | NAME | vector | matrix )
 * vector := '[' NUMBER (',' NUMBER)* ']'    matrix := '[' vector (',' vector)* ']'
 * atom   := 'weighted' '(' NUMBER '*' factor ('+' NUMBER '*' factor)* ')'   (a learned weighted sum)
 * </pre>
 *
 * <p>The string is first read into a {@link KernelSyntax} tree, then built into kernels.
 */
final class KernelParser {

    /** Kernel names the parser knows, for error messages. */
    static final List<String> KNOWN = List.of("gaussian", "rbf", "laplacian", "abel", "linear", "polynomial",
            "exponential", "anova", "min", "delta", "constant", "tessellated", "weighted");

    /**
     * Deepest nesting of parentheses and {@code weighted(...)} the parser accepts. Each level costs a few stack frames
     * here and in every later walk of the tree (build, spec, feature maps); 64 levels stay far below the default
     * thread stack, and no kernel anyone writes comes close (the deepest in psdkit's docs and tests has 3).
     */
    static final int MAX_NESTING = 64;

    private final String src;
    private int pos;
    private int depth;

    private KernelParser(String src) {
        this.src = src;
    }

    static Kernel parse(String spec) {
        KernelParser p = new KernelParser(spec);
        return p.build(p.syntaxTree());
    }

    static KernelSyntax syntax(String spec) {
        return new KernelParser(spec).syntaxTree();
    }

    private KernelSyntax syntaxTree() {
        String spec = src;
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("kernel string is empty");
        }
        KernelParser p = this;
        KernelSyntax k = p.expr();
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

    /** One more level of nesting, which opens at {@code at}. */
    private void enter(int at) {
        if (++depth > MAX_NESTING) {
            throw new IllegalArgumentException("kernel string nested too deeply (limit " + MAX_NESTING
                    + " levels of parentheses and weighted(...)), at column " + (at + 1));
        }
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

    private KernelSyntax expr() {
        skipSpace();
        int start = pos;
        List<KernelSyntax> terms = new ArrayList<>();
        terms.add(term());
        while (peek('+')) {
            pos++;
            terms.add(term());
        }
        return terms.size() == 1 ? terms.get(0) : new KernelSyntax.Sum(terms, start, src.substring(start, pos));
    }

    private KernelSyntax term() {
        skipSpace();
        int start = pos;
        double weight = 1;
        boolean sawNumber = false;
        List<KernelSyntax> factors = new ArrayList<>();
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
                factors.add(parenthesised());
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
        if (!sawNumber && factors.size() == 1) {
            return factors.get(0);
        }
        return new KernelSyntax.Product(weight, sawNumber, factors, start, src.substring(start, pos));
    }

    private KernelSyntax parenthesised() {
        int open = pos;
        enter(open);
        pos++;
        KernelSyntax inner = expr();
        depth--;
        skipSpace();
        if (pos >= src.length() || src.charAt(pos) != ')') {
            throw error(pos, "missing ')' to close the '(' at column " + (open + 1));
        }
        pos++;
        return inner;
    }

    /** Builds the kernel of a syntax tree; errors name the column of the offending node. */
    private Kernel build(KernelSyntax node) {
        if (node instanceof KernelSyntax.Sum s) {
            List<Kernel> terms = new ArrayList<>();
            for (KernelSyntax t : s.terms()) {
                terms.add(build(t));
            }
            return new SumKernel(terms);
        }
        if (node instanceof KernelSyntax.Product p) {
            Kernel body;
            if (p.factors().isEmpty()) {
                body = ConstantKernel.INSTANCE;
            } else if (p.factors().size() == 1) {
                body = build(p.factors().get(0));
            } else {
                List<Kernel> fs = new ArrayList<>();
                for (KernelSyntax f : p.factors()) {
                    fs.add(build(f));
                }
                body = new ProductKernel(fs);
            }
            return p.weighted() ? new ScaledKernel(p.weight(), body) : body;
        }
        if (node instanceof KernelSyntax.Weighted w) {
            List<Kernel> parts = new ArrayList<>();
            for (KernelSyntax k : w.parts()) {
                parts.add(build(k));
            }
            try {
                return new WeightedSumKernel(parts, w.weights());
            } catch (IllegalArgumentException e) {
                throw error(w.at(), e.getMessage());
            }
        }
        KernelSyntax.Call c = (KernelSyntax.Call) node;
        try {
            return build(c.name(), c.args(), c.at());
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("kernel \"")) {
                throw e;
            }
            throw error(c.at(), e.getMessage());
        }
    }

    /** A number token: its value, and whether it was written as an integer (no '.', no exponent). */
    private record Num(double value, boolean integral) {
    }

    private double number() {
        return numberToken().value();
    }

    private Num numberToken() {
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
            boolean integral = text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0
                    && Math.abs(v) < 1e15;
            return new Num(v, integral);
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

    /** One argument value as the builder sees it: a number, a name, a vector or a matrix. */
    private record Arg(int at, Double number, Matrix matrix, String word, double[] vector) {
        static Arg of(KernelSyntax.Arg a) {
            Object v = a.value();
            if (v instanceof Long l) {
                return new Arg(a.at(), l.doubleValue(), null, null, null);
            }
            if (v instanceof Double d) {
                return new Arg(a.at(), d, null, null, null);
            }
            if (v instanceof Matrix m) {
                return new Arg(a.at(), null, m, null, null);
            }
            if (v instanceof String w) {
                return new Arg(a.at(), null, null, w, null);
            }
            return new Arg(a.at(), null, null, null, (double[]) v);
        }
    }

    private KernelSyntax atom() {
        skipSpace();
        int at = pos;
        String name = name().toLowerCase(java.util.Locale.ROOT);
        if (!KNOWN.contains(name)) {
            throw error(at, "unknown kernel '" + name + "'; known kernels: " + String.join(", ", KNOWN));
        }
        if (name.equals("weighted")) {
            return weighted(at);
        }
        Map<String, KernelSyntax.Arg> args = new LinkedHashMap<>();
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
                    Object value;
                    if (peek('[')) {
                        value = bracketed();
                    } else if (key.equals("orthant") && pos < src.length() && Character.isLetter(src.charAt(pos))) {
                        value = name();
                    } else {
                        Num n = numberToken();
                        value = n.integral() ? (Object) (long) n.value() : (Object) n.value();
                    }
                    if (args.put(key, new KernelSyntax.Arg(argAt, value)) != null) {
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
        return new KernelSyntax.Call(name, args, at, src.substring(at, pos));
    }

    /** {@code weighted(w1*k1 + w2*k2 + ...)}, the name already read. */
    private KernelSyntax weighted(int at) {
        enter(at);
        expect('(', "after weighted");
        List<Double> ws = new ArrayList<>();
        List<KernelSyntax> parts = new ArrayList<>();
        do {
            if (!parts.isEmpty()) {
                pos++; // '+'
            }
            skipSpace();
            if (pos >= src.length() || !(Character.isDigit(src.charAt(pos)) || src.charAt(pos) == '.')) {
                throw error(pos, "weighted(...) takes terms WEIGHT*KERNEL, e.g. weighted(0.3*gaussian(sigma=1))");
            }
            ws.add(number());
            expect('*', "after a weight in weighted(...)");
            skipSpace();
            if (peek('(')) {
                parts.add(parenthesised());
            } else {
                parts.add(atom());
            }
        } while (peek('+'));
        expect(')', "to close weighted(...) at column " + (at + 1));
        depth--;
        return new KernelSyntax.Weighted(ws.stream().mapToDouble(Double::doubleValue).toArray(), parts, at,
                src.substring(at, pos));
    }

    /** A vector {@code [1, 2]} (as double[]) or a matrix {@code [[1, 2], [3, 4]]}. */
    private Object bracketed() {
        int save = pos;
        expect('[', "to open a vector or matrix");
        boolean isMatrix = peek('[');
        pos = save;
        if (isMatrix) {
            return matrix();
        }
        expect('[', "to open a vector");
        List<Double> v = new ArrayList<>();
        do {
            if (!v.isEmpty()) {
                pos++;
            }
            v.add(number());
        } while (peek(','));
        expect(']', "to close a vector");
        return v.stream().mapToDouble(Double::doubleValue).toArray();
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
            throw error(a.at, kernel + ": parameter '" + key + "' takes a number, not a "
                    + (a.matrix != null ? "matrix" : a.word != null ? "name" : "vector"));
        }
        return a.number;
    }

    private double[] vec(String kernel, Map<String, Arg> args, String key) {
        Arg a = args.get(key);
        if (a.vector == null) {
            throw error(a.at, kernel + ": parameter '" + key + "' takes a vector such as [1, 2]");
        }
        return a.vector;
    }

    private void allow(String kernel, Map<String, Arg> args, Set<String> allowed, String takes) {
        for (Map.Entry<String, Arg> e : args.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                throw error(e.getValue().at, "unknown parameter '" + e.getKey() + "' for " + kernel + "; "
                        + kernel + " takes " + takes);
            }
        }
    }

    private Kernel build(String name, Map<String, KernelSyntax.Arg> syntaxArgs, int at) {
        Map<String, Arg> args = new LinkedHashMap<>();
        for (Map.Entry<String, KernelSyntax.Arg> e : syntaxArgs.entrySet()) {
            args.put(e.getKey(), Arg.of(e.getValue()));
        }
        if ((name.equals("gaussian") || name.equals("polynomial"))
                && (args.containsKey("feature") || args.containsKey("traceScale"))) {
            return libraryKernel(name, args, at);
        }
        switch (name) {
            case "tessellated":
                return tessellated(args, at);
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

    /** A member of the SimpleMKL library: {@code gaussian(sigma=, feature=, traceScale=[, center=, scale=])}. */
    private Kernel libraryKernel(String name, Map<String, Arg> args, int at) {
        boolean gauss = name.equals("gaussian");
        allow(name, args, Set.of(gauss ? "sigma" : "degree", "feature", "traceScale", "center", "scale"),
                (gauss ? "sigma" : "degree") + ", feature, traceScale and optionally center and scale");
        for (String key : List.of(gauss ? "sigma" : "degree", "feature", "traceScale")) {
            if (!args.containsKey(key)) {
                throw error(at, "library " + name + " kernel needs " + key);
            }
        }
        if (args.containsKey("center") != args.containsKey("scale")) {
            throw error(at, "library " + name + " kernel: center and scale go together");
        }
        LibraryKernel.Standardization std = args.containsKey("center")
                ? new LibraryKernel.Standardization(vec(name, args, "center"), vec(name, args, "scale")) : null;
        int feature = Kernels.integerValue(name, "feature", num(name, args, "feature"));
        double ts = num(name, args, "traceScale");
        if (gauss) {
            double sigma = num(name, args, "sigma");
            if (!(sigma > 0)) {
                throw error(args.get("sigma").at, "gaussian kernel: sigma must be > 0, got " + KernelFormat.num(sigma));
            }
            return new LibraryKernel(sigma, 0, feature, ts, std);
        }
        return new LibraryKernel(0, Kernels.integerValue(name, "degree", num(name, args, "degree")), feature, ts, std);
    }

    /** {@code tessellated(features=, degree=, a=, b=, orthant=lower|complement, P=[[...]])}. */
    private Kernel tessellated(Map<String, Arg> args, int at) {
        allow("tessellated", args, Set.of("features", "degree", "a", "b", "orthant", "P"),
                "features, degree, a, b, orthant and P");
        for (String key : List.of("features", "degree", "a", "b", "orthant", "P")) {
            if (!args.containsKey(key)) {
                throw error(at, "tessellated needs " + key + ", e.g. tessellated(features=1, degree=0, a=0, b=1, "
                        + "orthant=lower, P=[[1, 0], [0, 1]])");
            }
        }
        Arg o = args.get("orthant");
        TessellatedKernel.Orthant orth;
        try {
            orth = TessellatedKernel.Orthant.valueOf(String.valueOf(o.word).toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw error(o.at, "tessellated: orthant must be lower or complement");
        }
        Arg p = args.get("P");
        if (p.matrix == null) {
            throw error(p.at, "tessellated: P must be a matrix such as [[1, 0], [0, 1]]");
        }
        return new TessellatedKernel(Kernels.integerValue("tessellated", "features", num("tessellated", args,
                "features")), Kernels.integerValue("tessellated", "degree", num("tessellated", args, "degree")),
                num("tessellated", args, "a"), num("tessellated", args, "b"), p.matrix, orth);
    }
}
