package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Model files are read with Jackson's fast double parser ({@link ModelFile#JSON}): every number must come back as
 * the double {@link Double#parseDouble} gives for its text, bit for bit, for the shortest texts that psdkit writes
 * and for longer ones a user may write.
 */
class ModelFileNumbersTest {

    @Test
    void numbersReadAsDoubleParseDouble() throws Exception {
        Random r = new Random(33);
        StringBuilder json = new StringBuilder("[");
        int count = 0;
        for (int i = 0; i < 60_000; i++) {
            double v = i % 3 == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextGaussian() * Math.pow(10, r.nextInt(60) - 30);
            if (!Double.isFinite(v)) {
                continue;
            }
            String text = i % 5 == 4 ? new java.math.BigDecimal(v).toString().replace("E+", "E") : Double.toString(v);
            json.append(count++ == 0 ? "" : ",").append(text);
        }
        json.append("]");
        JsonNode a = ModelFile.JSON.readTree(json.toString());
        String[] texts = json.substring(1, json.length() - 1).split(",");
        assertEquals(count, a.size());
        for (int i = 0; i < count; i++) {
            double want = Double.parseDouble(texts[i]);
            int k = i;
            assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(a.get(i).asDouble()),
                    () -> "number " + texts[k] + ": " + want + " expected, got " + a.get(k).asDouble());
        }
    }
}
