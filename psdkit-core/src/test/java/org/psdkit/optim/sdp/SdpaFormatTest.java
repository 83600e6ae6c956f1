package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class SdpaFormatTest {

    /** The worked example of SDPLIB's README: optimum 30 at x = (1, 1). */
    static final String EXAMPLE = """
            "A sample problem.
            2 =mdim
            2 =nblocks
            {2, 2}
            10.0 20.0
            0 1 1 1 1.0
            0 1 2 2 2.0
            0 2 1 1 3.0
            0 2 2 2 4.0
            1 1 1 1 1.0
            1 1 2 2 1.0
            2 1 2 2 1.0
            2 2 1 1 5.0
            2 2 1 2 2.0
            2 2 2 2 6.0
            """;

    static SdpProblem parse(String text) throws IOException {
        return SdpaFormat.read(new StringReader(text), "test.dat-s");
    }

    @Test
    void readsTheReadmeExampleWithItsSignConvention() throws IOException {
        SdpProblem p = parse(EXAMPLE);
        assertEquals(2, p.constraints());
        assertEquals(2, p.blocks());
        assertEquals(10.0, p.b()[0]);
        assertEquals(20.0, p.b()[1]);
        // C = −F0
        assertEquals(-4.0, p.c(1).toDense().get(1, 1));
        // A_2 block 2 has the off-diagonal 2 in both triangles
        assertEquals(2.0, p.a(1, 1).toDense().get(0, 1));
        assertEquals(2.0, p.a(1, 1).toDense().get(1, 0));
        assertNull(p.a(0, 1));
    }

    @Test
    void writeThenReadGivesTheSameProblem() throws IOException {
        SdpProblem p = parse(EXAMPLE);
        StringWriter w = new StringWriter();
        SdpaFormat.write(p, w);
        SdpProblem q = parse(w.toString());
        assertEquals(p.constraints(), q.constraints());
        for (int b = 0; b < p.blocks(); b++) {
            assertEquals(p.blockSize(b), q.blockSize(b));
            assertEquals(0, p.c(b).toDense().minus(q.c(b).toDense()).maxAbs());
            for (int i = 0; i < p.constraints(); i++) {
                if (p.a(i, b) == null) {
                    assertNull(q.a(i, b));
                } else {
                    assertEquals(0, p.a(i, b).toDense().minus(q.a(i, b).toDense()).maxAbs());
                }
            }
        }
    }

    @Test
    void acceptsPunctuationSignsAndLowerTriangleEntries() throws IOException {
        SdpProblem p = parse("1\n1\n(-2)\n{+1.5}\n0 1 1 1 -0.0\n1 1 2 2 +3e0\n");
        assertTrue(p.isDiagonal(0));
        assertEquals(1.5, p.b()[0]);
        SdpProblem q = parse("1\n1\n2\n1\n1 1 2 1 4\n");
        assertEquals(4.0, q.a(0, 0).toDense().get(0, 1));
    }

    @Test
    void malformedFilesAreRejectedWithTheLineNumber() {
        assertMessage("test.dat-s:6: expected a number for value, found 'x'", "1\n1\n2\n1\n1 1 1 1 1\n1 1 2 2 x\n");
        assertMessage("test.dat-s:5: an entry needs 5 fields", "1\n1\n2\n1\n1 1 1\n");
        assertMessage("test.dat-s:5: matno 3 outside 0..1", "1\n1\n2\n1\n3 1 1 1 1\n");
        assertMessage("test.dat-s:5: entry (3,3) outside block 1 of size 2", "1\n1\n2\n1\n1 1 3 3 1\n");
        assertMessage("test.dat-s:5: block 1 is diagonal", "1\n1\n-2\n1\n1 1 1 2 1\n");
        assertMessage("test.dat-s:6: duplicate entry", "1\n1\n2\n1\n1 1 1 2 1\n1 1 2 1 1\n");
        assertMessage("test.dat-s:4: the line of the vector c holds 1 value, expected 2 (m = 2", "2\n1\n2\n1\n");
        // a short c line must not take the next entry line's numbers as c (issue 17)
        assertMessage("test.dat-s:4: the line of the vector c holds 2 values, expected 3",
                "3\n1\n2\n1 2\n0 1 1 1 1\n1 1 1 1 1\n");
        assertMessage("test.dat-s:3: the line of the block sizes holds 1 value, expected 2 (the number of blocks = 2",
                "1\n2\n2\n1\n1 1 1 1 1\n");
        assertMessage("test.dat-s:4: the line of the vector c holds 2 values, expected 1", "1\n1\n2\n1 2\n");
        assertMessage("test.dat-s:3: unexpected end of file while reading the vector c", "1\n1\n2\n");
        assertMessage("test.dat-s:5: an entry needs 5 fields 'matno blkno i j value', found 6",
                "1\n1\n2\n1\n1 1 1 1 1 7\n");
        assertMessage("test.dat-s:5: blkno 2 outside 1..1", "1\n1\n2\n1 =c\n1 2 1 1 1\n");
        assertMessage("test.dat-s:1: expected an integer for number of constraint matrices m", "m\n");
        assertMessage("test.dat-s: empty file", "\"only a comment\n");
    }

    private static void assertMessage(String expectedStart, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(text));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
