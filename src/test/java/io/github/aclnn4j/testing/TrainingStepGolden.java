package io.github.aclnn4j.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PyTorch autograd's values for the demo's training step, golden/training_step.txt (written by
 * tools/golden/training_step.py in float64): NAME INDEX VALUE lines, '#' comments.
 */
public final class TrainingStepGolden {
    private TrainingStepGolden() {}

    /** The values by {@code NAME[INDEX]}, in the file's order. */
    public static Map<String, Double> values() throws IOException {
        Map<String, Double> values = new LinkedHashMap<>();
        try (InputStream in = TrainingStepGolden.class.getResourceAsStream("/golden/training_step.txt")) {
            assertNotNull(in,
                    "golden/training_step.txt is missing: run /usr/bin/python3 tools/golden/training_step.py");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.trim().split(" ");
                assertEquals(3, f.length, () -> "bad golden line: " + line);
                values.put(f[0] + "[" + f[1] + "]", Double.parseDouble(f[2]));
            }
        }
        return values;
    }
}
