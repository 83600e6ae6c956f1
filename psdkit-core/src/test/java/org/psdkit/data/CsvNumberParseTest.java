package org.psdkit.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CsvReader#parsed} (one parse per field, by Jackson's FastDoubleParser) against the rule it replaces: a field
 * of the characters {@code 0-9 . + - e E} is a number exactly when {@link Double#parseDouble} accepts it, and its
 * value is that double, bit for bit.
 */
class CsvNumberParseTest {

    /** The previous rule: the character check, then {@link Double#parseDouble} (NaN: not a number). */
    private static double reference(String s) {
        if (s.isEmpty()) {
            return Double.NaN;
        }
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
                return Double.NaN;
            }
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static void same(String s) {
        assertEquals(Double.doubleToRawLongBits(reference(s)), Double.doubleToRawLongBits(CsvReader.parsed(s)),
                () -> "field '" + s + "': " + reference(s) + " expected, got " + CsvReader.parsed(s));
    }

    @Test
    void edgeCasesAgreeWithDoubleParseDouble() {
        String[] fields = {"", "0", "-0", "+0", "0.0", "-0.0", ".5", "5.", ".", "-", "+", "e", "E5", "1e", "1e+",
            "1e-", "1E5", "1e+5", "1e-5", "1.e5", ".e5", "-.5e-3", "+.5E+3", "--1", "+-1", "1-2", "1e5.5", "1..2",
            "1e5e5", "00001.2500", "1e309", "-1e309", "1e-324", "2e-324", "3e-324", "4.9e-324", "2.4703282292062328e-324",
            "2.4703282292062327e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "9007199254740993", "9007199254740992.5",
            "0.1", "0.30000000000000004", "123456789012345678901234567890", "1e-400", "1e400", "0e999999999",
            "1e2147483648", "1e-2147483649", "5e-324", "-5e-324", "7.2057594037927933e16",
            "0." + "0".repeat(400) + "1", "1" + "0".repeat(400), "1." + "9".repeat(800) + "e-300"};
        for (String f : fields) {
            same(f);
        }
    }

    @Test
    void writtenDoublesAndRandomDecimalsAgree() {
        Random r = new Random(20261129);
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            double v = Double.longBitsToDouble(r.nextLong());
            if (Double.isFinite(v)) {
                fields.add(Double.toString(v)); // every exponent, subnormals included
            }
            fields.add(Double.toString(r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20)));
            StringBuilder b = new StringBuilder();
            if (r.nextBoolean()) {
                b.append(r.nextBoolean() ? '-' : '+');
            }
            int digits = 1 + r.nextInt(30);
            int point = r.nextInt(digits + 1);
            for (int k = 0; k < digits; k++) {
                if (k == point) {
                    b.append('.');
                }
                b.append((char) ('0' + r.nextInt(10)));
            }
            if (r.nextBoolean()) {
                b.append(r.nextBoolean() ? 'e' : 'E').append(r.nextInt(700) - 350);
            }
            fields.add(b.toString());
        }
        for (String f : fields) {
            same(f);
        }
    }
}
