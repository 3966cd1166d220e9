package io.github.aclnn4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.demo.TrainingStepExample;
import io.github.aclnn4j.testing.Examples;
import io.github.aclnn4j.testing.TestDevice;
import io.github.aclnn4j.testing.TrainingStepGolden;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The training-step demo's losses and gradients against PyTorch autograd: every value the example
 * prints must be the one in golden/training_step.txt, written by tools/golden/training_step.py from
 * the same network and numbers in float64.
 */
class TrainingStepTest {
    private static final Pattern PRINTED = Pattern.compile("(\\w+)\\[(\\d+)\\] is: (-?\\d+\\.\\d{6})");

    /**
     * The demo computes in FLOAT through about ten dependent operators on values of magnitude at most
     * about 4; a relative 1e-5 (some 80 fp32 ulps) covers the rounding of that chain. The absolute
     * part is 5e-7 for {@code %f}'s rounding to six decimals, plus 5e-7 for what fp32 leaves of
     * sums that cancel to near zero (GroupNorm's dx, terms of magnitude up to about 4 at 6e-8 each).
     */
    private static final double RELATIVE = 1e-5;
    private static final double ABSOLUTE = 5e-7 + 5e-7;

    /** The example is a whole program with its own aclInit/aclFinalize, so the shared runtime must be down. */
    @BeforeEach
    void releaseSharedRuntime() {
        Acl.finalizeAcl();
    }

    /** Other test classes expect the runtime initialised, as TestDevice leaves it. */
    @AfterEach
    void restoreSharedRuntime() {
        TestDevice.init();
    }

    @Test
    void lossesAndGradientsAreTorchAutograds() throws IOException {
        Map<String, Double> golden = TrainingStepGolden.values();
        Map<String, Double> printed = new LinkedHashMap<>();
        List<String> lines = run();
        for (String line : lines) {
            Matcher m = PRINTED.matcher(line);
            assertTrue(m.matches(), () -> "not a printed value: '" + line + "' in\n" + String.join("\n", lines));
            printed.put(m.group(1) + "[" + m.group(2) + "]", Double.parseDouble(m.group(3)));
        }
        // every value once, in the golden's order: the losses, then head 1's and head 2's gradients
        assertEquals(List.copyOf(golden.keySet()), List.copyOf(printed.keySet()));
        List<String> wrong = new ArrayList<>();
        golden.forEach((name, want) -> {
            double got = printed.get(name);
            if (!(Math.abs(got - want) <= ABSOLUTE + RELATIVE * Math.abs(want))) {
                wrong.add(name + ": printed " + got + ", torch " + want);
            }
        });
        assertTrue(wrong.isEmpty(),
                () -> "differ from PyTorch autograd beyond the tolerance:\n" + String.join("\n", wrong));
    }

    /** Runs the example with System.out captured; it must return 0. Returns the printed lines. */
    private static List<String> run() {
        return Examples.printedLines(TrainingStepExample::run);
    }
}
