package org.psdkit.cli.cv;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameter grids written {@code name=v1,v2,...;name2=w1,w2}. Values are split at commas outside parentheses, so a
 * kernel string such as {@code kernel=polynomial(degree=2, offset=1),gaussian(sigma=1)} is two values.
 */
public final class Grid {
    private Grid() {
    }

    /** Parses a grid; an empty or null text is the one-point grid {@code {}}. Errors name {@code option}. */
    public static LinkedHashMap<String, List<String>> parse(String text, String option) {
        LinkedHashMap<String, List<String>> g = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return g;
        }
        for (String part : splitTopLevel(text, ';')) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(option + " '" + text + "': '" + part.strip()
                        + "' is not name=value1,value2,...");
            }
            String name = part.substring(0, eq).strip();
            List<String> vals = new ArrayList<>();
            for (String v : splitTopLevel(part.substring(eq + 1), ',')) {
                if (v.isBlank()) {
                    throw new IllegalArgumentException(option + " '" + text + "': empty value for " + name);
                }
                vals.add(v.strip());
            }
            if (g.put(name, vals) != null) {
                throw new IllegalArgumentException(option + " '" + text + "': parameter " + name + " given twice");
            }
        }
        return g;
    }

    /** All combinations, the last parameter varying fastest. */
    public static List<Map<String, String>> points(LinkedHashMap<String, List<String>> grid) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> e : grid.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> p : out) {
                for (String v : e.getValue()) {
                    Map<String, String> q = new LinkedHashMap<>(p);
                    q.put(e.getKey(), v);
                    next.add(q);
                }
            }
            out = next;
        }
        return out;
    }

    static List<String> splitTopLevel(String s, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == sep && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
