package io.github.aclnn4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.demo.BinaryCrossEntropyBackwardExample;
import io.github.aclnn4j.demo.BinaryCrossEntropyExample;
import io.github.aclnn4j.demo.BinaryCrossEntropyWithLogitsBackwardExample;
import io.github.aclnn4j.demo.BinaryCrossEntropyWithLogitsExample;
import io.github.aclnn4j.demo.Demo;
import io.github.aclnn4j.demo.GroupNormBackwardExample;
import io.github.aclnn4j.demo.GroupNormExample;
import io.github.aclnn4j.demo.NllLossBackwardExample;
import io.github.aclnn4j.demo.NllLossExample;
import io.github.aclnn4j.demo.PreluBackwardExample;
import io.github.aclnn4j.demo.PreluExample;
import io.github.aclnn4j.testing.Examples;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo's calling examples print exactly what their C originals print. Expected values are worked
 * out here in double from the formulas of SPEC §5, then rounded to float (the outputs are FLOAT
 * tensors) and formatted like C's {@code %f}.
 */
class DemoTest {
    /** Each example is a whole program with its own aclInit/aclFinalize, so the shared runtime must be down. */
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
    void binaryCrossEntropyBackward() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            expected.add("result[" + i + "] is: -0.095238");
        }
        assertEquals(expected, run(BinaryCrossEntropyBackwardExample::run));
    }

    @Test
    void preluBackward() {
        List<String> expected = new ArrayList<>();
        float[] gradInput = {0.5f, 1, 1, 1, 1, 1, 1, 1};
        for (int i = 0; i < gradInput.length; i++) {
            expected.add(line("gradInput", i, gradInput[i]));
        }
        expected.add("gradWeight[0] is: 0.000000");
        expected.add("gradWeight[1] is: 0.000000");
        assertEquals(expected, run(PreluBackwardExample::run));
    }

    @Test
    void binaryCrossEntropyWithLogits() {
        double[] self = {0.5, -1.0, 2.0, -0.5};
        double[] target = {1, 0, 1, 0};
        double[] weight = {1, 1, 0.5, 0.5};
        double posWeight = 2;
        double sum = 0;
        for (int i = 0; i < 4; i++) {
            double x = self[i];
            double y = target[i];
            double sigmoid = 1 / (1 + Math.exp(-x));
            sum += -weight[i] * (posWeight * y * Math.log(sigmoid) + (1 - y) * Math.log(1 - sigmoid));
        }
        assertEquals(List.of(line("result", 0, sum / 4)), run(BinaryCrossEntropyWithLogitsExample::run));
    }

    @Test
    void groupNormBackward() {
        int n = 2;
        int c = 3;
        int hxw = 4;
        double[] mean = {6.5, 18.5};
        double rstd = 0.2896827f;
        double[] x = new double[n * c * hxw];
        for (int i = 0; i < x.length; i++) {
            x[i] = i + 1;
        }
        double[] dy = x;
        // group = 1 and gamma = 1: each sample is one group of M = C·HxW elements
        int m = c * hxw;
        double[] gradInput = new double[x.length];
        double[] gradGamma = new double[c];
        double[] gradBeta = new double[c];
        for (int s = 0; s < n; s++) {
            double s1 = 0;
            double s2 = 0;
            for (int ch = 0; ch < c; ch++) {
                double sdy = 0;
                double sdyx = 0;
                for (int k = 0; k < hxw; k++) {
                    int at = (s * c + ch) * hxw + k;
                    sdy += dy[at];
                    sdyx += dy[at] * x[at];
                }
                gradBeta[ch] += sdy;
                gradGamma[ch] += (sdyx - mean[s] * sdy) * rstd;
                s1 += sdy;
                s2 += sdyx;
            }
            double b = (s1 * mean[s] - s2) * rstd * rstd * rstd / m;
            double c0 = -b * mean[s] - s1 * rstd / m;
            for (int k = 0; k < m; k++) {
                int at = s * m + k;
                gradInput[at] = rstd * dy[at] + b * x[at] + c0;
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < gradInput.length; i++) {
            expected.add(line("gradInputResultData", i, gradInput[i]));
        }
        for (int i = 0; i < c; i++) {
            expected.add(line("gradGammaOutResultData", i, gradGamma[i]));
        }
        for (int i = 0; i < c; i++) {
            expected.add(line("gradBetaOutResultData", i, gradBeta[i]));
        }
        List<String> printed = run(GroupNormBackwardExample::run);
        assertTrue(printed.contains("gradGammaOutResultData[2] is: 155.849289"), () -> String.join("\n", printed));
        // gradInput cancels to |dx| < 5e-7, where the sign of the printed zero is rounding noise
        assertEquals(signlessZeros(expected), signlessZeros(printed));
    }

    @Test
    void nllLossBackward() {
        int rows = 2;
        int classes = 3;
        long[] target = {0, 2};
        double[] weight = {1, 1, 1};
        double gradOutput = 1;
        double totalWeight = 2;
        double[] out = new double[rows * classes];
        for (int i = 0; i < rows; i++) {
            int t = (int) target[i];
            out[i * classes + t] = -weight[t] * gradOutput / totalWeight;
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            expected.add(line("result", i, out[i]));
        }
        assertEquals(expected, run(NllLossBackwardExample::run));
    }

    @Test
    void prelu() {
        float[] self = {1.5f, -2, -0.5f, 4, -8, 3, 0, -1, 2.5f, -6, -3, 0.75f};
        float[] weight = {0.25f, 0.5f, 2};
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < self.length; i++) {
            float w = weight[(i / 2) % 3]; // self [2, 3, 2]: the channel is the middle index
            expected.add(line("out", i, self[i] > 0 ? self[i] : (double) w * self[i]));
        }
        assertEquals(expected, run(PreluExample::run));
    }

    @Test
    void binaryCrossEntropy() {
        double[] self = {0.9f, 0.2f, 0.6f, 0.05f, 0.7f, 0.5f};
        double[] target = {1, 0, 1, 0, 1, 0.5};
        double[] weight = {1, 2, 0.5};
        double sum = 0;
        for (int i = 0; i < self.length; i++) {
            double x = self[i];
            double y = target[i];
            sum += -weight[i % 3] * (y * Math.log(x) + (1 - y) * Math.log1p(-x));
        }
        assertEquals(List.of(line("out", 0, sum / self.length)), run(BinaryCrossEntropyExample::run));
    }

    @Test
    void binaryCrossEntropyWithLogitsBackward() {
        double[] self = {0.5, -1, 2, -0.25, 3, 0};
        double[] target = {1, 0, 1, 0, 1, 0.5};
        double[] posWeight = {2, 1, 0.5};
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < self.length; i++) {
            double sigmoid = 1 / (1 + Math.exp(-self[i]));
            double pt = posWeight[i % 3] * target[i];
            expected.add(line("out", i, ((pt + 1 - target[i]) * sigmoid - pt) / self.length));
        }
        assertEquals(expected, run(BinaryCrossEntropyWithLogitsBackwardExample::run));
    }

    @Test
    void nllLoss() {
        int classes = 5;
        double[] self = {-1.5, -0.5, -2, -3, -1, -0.25, -2.5, -1.25, -0.75, -4, -2, -1, -0.5, -3.5, -1.5};
        long[] target = {1, -100, 3};
        double[] weight = {1, 2, 0.5, 1.5, 1};
        long ignoreIndex = -100;
        double sum = 0;
        double totalWeight = 0;
        for (int i = 0; i < target.length; i++) {
            if (target[i] == ignoreIndex) {
                continue;
            }
            int t = (int) target[i];
            sum += -weight[t] * self[i * classes + t];
            totalWeight += weight[t];
        }
        assertEquals(List.of(line("out", 0, sum / totalWeight), line("totalWeight", 0, totalWeight)),
                run(NllLossExample::run));
    }

    @Test
    void groupNorm() {
        int n = 2;
        int c = 4;
        int hxw = 2;
        int group = 2;
        double[] x = {1, 3, 2, 6, -1, 0, 4, 5, 0.5, -0.5, 2, 2.5, 3, -3, 1, 1.5};
        double[] gamma = {1, 0.5, 2, -1};
        double[] beta = {0, 0.5, -1, 0.25};
        double eps = (float) 1e-5; // CANN hands eps to its kernel as float32
        // in contiguous [N, C, HxW] memory the (n, g) groups are consecutive runs of C/group·HxW elements
        int m = c / group * hxw;
        double[] out = new double[x.length];
        double[] mean = new double[n * group];
        double[] rstd = new double[n * group];
        for (int s = 0; s < n * group; s++) {
            double sum = 0;
            for (int k = 0; k < m; k++) {
                sum += x[s * m + k];
            }
            mean[s] = sum / m;
            double squares = 0;
            for (int k = 0; k < m; k++) {
                double d = x[s * m + k] - mean[s];
                squares += d * d;
            }
            rstd[s] = 1 / Math.sqrt(squares / m + eps);
            for (int k = 0; k < m; k++) {
                int at = s * m + k;
                int ch = at / hxw % c;
                out[at] = (x[at] - mean[s]) * rstd[s] * gamma[ch] + beta[ch];
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            expected.add(line("out", i, out[i]));
        }
        for (int i = 0; i < mean.length; i++) {
            expected.add(line("meanOut", i, mean[i]));
        }
        for (int i = 0; i < rstd.length; i++) {
            expected.add(line("rstdOut", i, rstd[i]));
        }
        assertEquals(expected, run(GroupNormExample::run));
    }

    /** They run in one JVM, each initialising and finalising the runtime in turn. */
    @Test
    void demoRunsEveryExampleInSequence() {
        List<String> printed = run(Demo::run);
        List<String> headers = printed.stream().filter(l -> l.startsWith("== ")).toList();
        assertEquals(List.of("== aclnnBinaryCrossEntropyBackward ==", "== aclnnPreluBackward ==",
                "== aclnnBinaryCrossEntropyWithLogits ==", "== aclnnGroupNormBackward ==",
                "== aclnnNLLLossBackward ==", "== aclnnPrelu ==", "== aclnnBinaryCrossEntropy ==",
                "== aclnnBinaryCrossEntropyWithLogitsBackward ==", "== aclnnNLLLoss ==", "== aclnnGroupNorm ==",
                "== training step: GroupNorm -> PReLU -> BCE-with-logits / NLLLoss, and back =="),
                headers);
        // the headers, then each example's lines; the training step prints 2 losses and 2 × (24 + 3 × 4) gradients
        assertEquals(11 + 4 + 10 + 1 + 30 + 6 + 12 + 1 + 6 + 2 + 24 + 74, printed.size(),
                () -> String.join("\n", printed));
    }

    /** How the C examples print a value of a float output: {@code LOG_PRINT("name[%ld] is: %f\n", i, v)}. */
    private static String line(String name, int index, double value) {
        return String.format(Locale.ROOT, "%s[%d] is: %f", name, index, (float) value);
    }

    private static List<String> signlessZeros(List<String> lines) {
        return lines.stream().map(l -> l.replace(" -0.000000", " 0.000000")).toList();
    }

    /** Runs an example with System.out captured; it must return 0. Returns the printed lines. */
    private static List<String> run(IntSupplier example) {
        return Examples.printedLines(example);
    }
}
