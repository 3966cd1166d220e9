package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.testing.TrainingStepGolden;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The training step of {@code demo/TrainingStepExample} (x [2, 4, 3] → GroupNorm with 2 groups →
 * PReLU → a BCE-with-logits head and an NLLLoss head, each differentiated back to x, gamma, beta
 * and the PReLU weight) written with layer 2: every loss and gradient is PyTorch autograd's value
 * from golden/training_step.txt (tools/golden/training_step.py, float64), within TrainingStepTest's
 * tolerances. y is seen as [N, C·L] for NLLLoss, and its gradient as [N, C, L] again, through
 * {@link Tensor#view}: the same memory, as the demo's second aclTensor.
 */
class LayerTwoTrainingStepTest {
    /** As TrainingStepTest: relative 1e-5, absolute 5e-7 for %f's rounding plus 5e-7 for cancellation. */
    private static final double RELATIVE = 1e-5;
    private static final double ABSOLUTE = 5e-7 + 5e-7;

    @Test
    void lossesAndGradientsAreTorchAutograds() throws IOException {
        Map<String, float[]> got = run();
        Map<String, Double> golden = TrainingStepGolden.values();
        List<String> names = new ArrayList<>();
        got.forEach((name, values) -> {
            for (int i = 0; i < values.length; i++) {
                names.add(name + "[" + i + "]");
            }
        });
        assertEquals(List.copyOf(golden.keySet()), names, "the same values, in the golden's order");
        List<String> wrong = new ArrayList<>();
        got.forEach((name, values) -> {
            for (int i = 0; i < values.length; i++) {
                double want = golden.get(name + "[" + i + "]");
                if (!(Math.abs(values[i] - want) <= ABSOLUTE + RELATIVE * Math.abs(want))) {
                    wrong.add(name + "[" + i + "]: layer 2 " + values[i] + ", torch " + want);
                }
            }
        });
        assertTrue(wrong.isEmpty(),
                () -> "differ from PyTorch autograd beyond the tolerance:\n" + String.join("\n", wrong));
    }

    /** The step, with TrainingStepExample's numbers; the results by golden name. */
    private static Map<String, float[]> run() {
        long n = 2;
        long c = 4;
        long l = 3;
        long group = 2;
        double eps = 1e-5;
        long ignoreIndex = -100;
        float[] xData = {0.5f, -1.25f, 2.0f, 1.5f, 0.25f, -0.75f, -2.0f, 0.75f, 1.25f, 3.0f, -0.5f, 0.0f,
            -1.0f, 2.5f, 0.125f, 0.375f, -1.5f, 1.75f, 2.25f, -0.25f, -3.0f, 1.0f, 0.625f, -1.75f};
        float[] bceTargetData = {1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0};
        float[] nllWeightData = new float[(int) (c * l)];
        Arrays.fill(nllWeightData, 1f);
        Map<String, float[]> out = new LinkedHashMap<>();
        try (Device device = Device.open()) {
            Tensor x = device.tensor(xData, n, c, l);
            Tensor gamma = device.tensor(new float[] {1.0f, 0.5f, 1.5f, -0.75f}, c);
            Tensor beta = device.tensor(new float[] {0.0f, 0.25f, -0.5f, 0.125f}, c);
            Tensor preluWeight = device.tensor(new float[] {0.25f, 0.125f, 0.5f, 0.0625f}, c);
            Tensor bceTarget = device.tensor(bceTargetData, n, c, l);
            Tensor posWeight = device.tensor(new float[] {2.0f, 1.0f, 0.5f, 1.5f}, c, 1);
            Tensor nllTarget = device.tensor(new long[] {4, 9}, n);
            Tensor nllWeight = device.tensor(nllWeightData, c * l);
            Tensor gradOutput = device.tensor(new float[] {1.0f}, 1);
            boolean[] mask = {true, true, true};

            // forward
            GroupNormResult norm = Functional.groupNorm(x, gamma, beta, n, c, l, group, eps);
            Tensor h = norm.out();
            assertArrayEquals(new long[] {n, group}, norm.mean().shape());
            Tensor y = Functional.prelu(h, preluWeight);
            Tensor bceLoss = Functional.binaryCrossEntropyWithLogits(y, bceTarget, null, posWeight, Reduction.MEAN);
            Tensor yRows = y.view(n, c * l); // the same memory as [N, C·L], as the demo's second aclTensor
            NllLossResult nll = Functional.nllLoss(yRows, nllTarget, nllWeight, Reduction.MEAN, ignoreIndex);

            // head 1's backward
            Tensor bceGradY = Functional.binaryCrossEntropyWithLogitsBackward(gradOutput, y, bceTarget, null,
                    posWeight, Reduction.MEAN);
            PreluGrads bcePrelu = Functional.preluBackward(bceGradY, h, preluWeight);
            GroupNormGrads bceNorm = Functional.groupNormBackward(bcePrelu.gradInput(), x, norm.mean(), norm.rstd(),
                    gamma, n, c, l, group, mask);

            // head 2's backward
            Tensor nllGradYRows = Functional.nllLossBackward(gradOutput, yRows, nllTarget, nllWeight, Reduction.MEAN,
                    ignoreIndex, nll.totalWeight());
            assertArrayEquals(new long[] {n, c * l}, nllGradYRows.shape());
            Tensor nllGradY = nllGradYRows.view(n, c, l);
            PreluGrads nllPrelu = Functional.preluBackward(nllGradY, h, preluWeight);
            GroupNormGrads nllNorm = Functional.groupNormBackward(nllPrelu.gradInput(), x, norm.mean(), norm.rstd(),
                    gamma, n, c, l, group, mask);

            assertArrayEquals(new long[0], bceLoss.shape(), "a mean is 0-d");
            out.put("bceLoss", new float[] {bceLoss.item()});
            out.put("nllLoss", new float[] {nll.out().item()});
            out.put("bceGradX", bceNorm.gradInput().toFloatArray());
            out.put("bceGradGamma", bceNorm.gradGamma().toFloatArray());
            out.put("bceGradBeta", bceNorm.gradBeta().toFloatArray());
            out.put("bceGradPreluWeight", bcePrelu.gradWeight().toFloatArray());
            out.put("nllGradX", nllNorm.gradInput().toFloatArray());
            out.put("nllGradGamma", nllNorm.gradGamma().toFloatArray());
            out.put("nllGradBeta", nllNorm.gradBeta().toFloatArray());
            out.put("nllGradPreluWeight", nllPrelu.gradWeight().toFloatArray());
        }
        return out;
    }
}
