package org.psdkit.experiments;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Number formatting of the experiments' figure titles and tables. */
public final class Numbers {

    private Numbers() {
    }

    /** 6 significant digits, no exponent for moderate magnitudes, integers without a decimal point. */
    public static String fmt(double d) {
        if (!Double.isFinite(d)) {
            return Double.toString(d);
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e9) {
            return Long.toString((long) d);
        }
        double a = Math.abs(d);
        if (a != 0 && (a < 1e-3 || a >= 1e7)) {
            String t = String.format(Locale.ROOT, "%.5e", d);
            int e = t.indexOf('e');
            String mant = t.substring(0, e).replaceAll("0+$", "").replaceAll("\\.$", "");
            return mant + "e" + Integer.parseInt(t.substring(e + 1));
        }
        return new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
