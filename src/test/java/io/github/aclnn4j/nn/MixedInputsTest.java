package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Calls layer 1 accepts with inputs of different dtypes or shapes make outputs of the dtype and
 * shape layer 1 asks for, not self's: BCE with logits (and its backward) writes target's dtype,
 * PReLU the promoted dtype, GroupNorm backward's gradGamma and gradBeta take gamma's shape.
 */
class MixedInputsTest {
    @Test
    void bceWithLogitsWritesTargetsDtype() {
        try (Device d = Device.open()) {
            float[] x = {0.5f, -1f, 2f, 0f};
            float[] y = {1, 0, 0.25f, 1};
            Tensor self = d.tensor(DType.FLOAT16, x, 4);
            Tensor target = d.tensor(y, 4);
            Tensor loss = Functional.binaryCrossEntropyWithLogits(self, target, null, null, Reduction.NONE);
            assertEquals(DType.FLOAT, loss.dtype());
            Tensor same = Functional.binaryCrossEntropyWithLogits(d.tensor(x, 4), target, null, null,
                    Reduction.NONE);
            assertArrayEquals(same.toFloatArray(), loss.toFloatArray(), "x is exact in FLOAT16: the same losses");
            Tensor grad = Functional.binaryCrossEntropyWithLogitsBackward(d.tensor(new float[] {1}), self, target,
                    null, null, Reduction.MEAN);
            assertEquals(DType.FLOAT, grad.dtype());
            assertEquals(4, grad.toFloatArray().length);
        }
    }

    @Test
    void preluWritesThePromotedDtype() {
        try (Device d = Device.open()) {
            Tensor self = d.tensor(DType.FLOAT16, new float[] {-2f, 3f, -0.5f, 1f}, 1, 2, 2);
            Tensor weight = d.tensor(DType.BFLOAT16, new float[] {0.25f, 0.5f}, 2);
            Tensor out = Functional.prelu(self, weight);
            assertEquals(DType.FLOAT, out.dtype());
            assertArrayEquals(new float[] {-0.5f, 3f, -0.25f, 1f}, out.toFloatArray());
        }
    }

    @Test
    void groupNormBackwardGradsTakeGammasShape() {
        try (Device d = Device.open()) {
            float[] x = new float[2 * 4 * 3];
            float[] dy = new float[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) Math.sin(i);
                dy[i] = (float) Math.cos(3 * i);
            }
            Tensor input = d.tensor(x, 2, 4, 3);
            GroupNormResult forward = Functional.groupNorm(input, null, null, 2, 4, 3, 2, 1e-5);
            float[] g = {1f, 0.5f, -1f, 2f};
            boolean[] all = {true, true, true};
            GroupNormGrads column = Functional.groupNormBackward(d.tensor(dy, 2, 4, 3), input, forward.mean(),
                    forward.rstd(), d.tensor(g, 4, 1), 2, 4, 3, 2, all);
            GroupNormGrads flat = Functional.groupNormBackward(d.tensor(dy, 2, 4, 3), input, forward.mean(),
                    forward.rstd(), d.tensor(g, 4), 2, 4, 3, 2, all);
            assertArrayEquals(new long[] {4, 1}, column.gradGamma().shape());
            assertArrayEquals(new long[] {4, 1}, column.gradBeta().shape());
            assertArrayEquals(flat.gradGamma().toFloatArray(), column.gradGamma().toFloatArray());
            assertArrayEquals(flat.gradBeta().toFloatArray(), column.gradBeta().toFloatArray());
            assertArrayEquals(flat.gradInput().toFloatArray(), column.gradInput().toFloatArray());
        }
    }
}
