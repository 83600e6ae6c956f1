package org.psdkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 29: Model.evaluate and Model.hyperParameters are typed; their maps keep the report's keys and order. */
class TypedResultsTest {

    @Test
    void regressionMetricsAreTheReportsInItsOrder() {
        double[] y = {1, 2, 3, 4};
        double[] p = {1.1, 1.9, 3.2, 3.7};
        Evaluation.Regression r = Evaluation.Regression.of(y, p);
        assertEquals(Metrics.rmse(y, p), r.rmse());
        assertEquals(Metrics.mae(y, p), r.mae());
        assertEquals(Metrics.r2(y, p), r.r2());
        Map<String, Object> legacy = new LinkedHashMap<>(Metrics.regression(y, p));
        assertEquals(legacy, r.toMap());
        assertEquals(List.copyOf(legacy.keySet()), List.copyOf(r.toMap().keySet()));
        assertEquals(r.rmse(), r.get("rmse"));
    }

    @Test
    void hyperParametersKeepTheFilesOptions() {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("lambda1", "0.01");
        options.put("C", 2.5);
        options.put("method", "psd");
        HyperParameters h = HyperParameters.of(options);
        assertEquals(options, h.toMap());
        assertEquals(List.of("lambda1", "C", "method"), List.copyOf(h.toMap().keySet()));
        assertEquals(0.01, h.number("lambda1"));
        assertEquals(2.5, h.number("C"));
        assertThrows(IllegalArgumentException.class, () -> h.number("method"));
        assertThrows(UnsupportedOperationException.class, () -> h.toMap().put("x", 1));
        assertEquals(options.toString(), h.toString());
    }
}
