package io.github.aclnn4j.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntSupplier;

/** Runs a calling example (a whole C-style program, see the demo package) and returns what it printed. */
public final class Examples {
    private Examples() {}

    /** The lines {@code example} prints to System.out; fails unless it returns 0. */
    public static List<String> printedLines(IntSupplier example) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int ret;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            ret = example.getAsInt();
        } finally {
            System.setOut(original);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, ret, () -> "the example returned " + ret + ", printing:\n" + output);
        return output.lines().toList();
    }
}
