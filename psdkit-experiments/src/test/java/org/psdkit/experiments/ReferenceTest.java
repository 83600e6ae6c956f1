package org.psdkit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.psdkit.classify.mkl.KernelLearning.Method;

class ReferenceTest {

    @Test
    void tableOneOfColbertAndPeetIsReadFromItsCsv() {
        List<Map<String, String>> rows = Reference.rows("colbert-peet-2020-table1");
        assertEquals(20, rows.size());
        assertEquals(List.of("dataset", "method", "accuracy", "sd", "seconds"), List.copyOf(rows.get(0).keySet()));
        TkTable1.Paper p = TkTable1.paper("pima", Method.TK);
        assertEquals(76.32, p.accuracy());
        assertEquals(3.10, p.sd());
        assertEquals(1211.66, p.seconds());
        assertEquals(87.65, TkTable1.paper("ionosphere", Method.SIMPLEMKL_TK).accuracy());
        for (String set : TkTable1.DATASETS) {
            for (Method m : Method.values()) {
                assertTrue(TkTable1.paper(set, m).accuracy() > 60, set + " " + m);
            }
        }
        assertTrue(Double.isNaN(TkTable1.paper("iris", Method.TK).accuracy()));
        assertThrows(IllegalStateException.class, () -> Reference.rows("no-such-table"));
    }

    @Test
    void methodNamesRoundTrip() {
        for (Method m : Method.values()) {
            assertEquals(m, TkTable1.method(TkTable1.methodName(m)));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TkTable1.method("svm"));
        assertTrue(e.getMessage().contains("svm"), e.getMessage());
    }
}
