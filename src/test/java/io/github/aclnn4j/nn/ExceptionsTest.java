package io.github.aclnn4j.nn;

import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_INNER_NULLPTR;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_INVALID;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_NULLPTR;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_RUNTIME_ERROR;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclError;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import io.github.aclnn4j.tensor.Shapes;
import java.util.Arrays;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every class of failure of a layer-2 call is an {@link AclnnException} carrying layer 1's status
 * and, as its message, exactly the text layer 1's {@code aclGetRecentErrMsg} gives for the same
 * call (made here through layer 1 on the same inputs): shapes and dtypes an operator refuses, a
 * required input that is null (161001, or 561103 where layer 1 says so), a bad device id, an
 * allocation the device cannot hold, and a run-time failure (an NLLLoss target out of range),
 * which the call itself does not throw but the read that waits for it does (synchronize, item,
 * toFloatArray), after which the device goes on working. Mixing two devices' tensors, a closed
 * tensor and a closed device are 161002.
 */
class ExceptionsTest extends SharedDevice {
    /** {@code in} built in layer 2 on {@code device}. */
    private Tensor l2(Input in) {
        return in == null ? null : in.build(device, made);
    }

    /** Asserts {@code call} throws an AclnnException with exactly {@code want}'s status and message. */
    private static AclnnException assertLayerOnes(Layer1.Failure want, int status, Executable call) {
        assertNotNull(want, "layer 1 accepted the call that layer 2 is expected to refuse");
        assertEquals(status, want.status(), () -> "layer 1's status (message: " + want.message() + ")");
        assertFalse(want.message().isBlank(), "layer 1 gave a message");
        AclnnException e = assertThrows(AclnnException.class, call);
        assertEquals(want.status(), e.status(), () -> "status; message: " + e.getMessage());
        assertEquals(want.message(), e.getMessage());
        return e;
    }

    /** What layer 1 says (null: success) for the call {@code phase1} sets up, then {@code phase2} and a synchronize. */
    private static Layer1.Failure layerOne(Function<Layer1, Layer1.Phase1> phase1, Layer1.Phase2 phase2) {
        try (Layer1 l1 = new Layer1()) {
            return l1.attempt(phase1.apply(l1), phase2);
        }
    }

    private static Input ones(DType d, long... shape) {
        float[] v = new float[Math.toIntExact(Shapes.numel(shape))];
        Arrays.fill(v, 1f);
        return Input.of(d, v, shape);
    }

    private static Input ramp(DType d, float from, float step, long... shape) {
        float[] v = new float[Math.toIntExact(Shapes.numel(shape))];
        for (int i = 0; i < v.length; i++) {
            v[i] = from + step * i;
        }
        return Input.of(d, v, shape);
    }

    // ---------------------------------------------------------------- refused by phase 1

    @Test
    void bceBackwardWithATargetThatDoesNotBroadcastIsLayerOnes161002() {
        Input grad = ramp(DType.FLOAT, 0.1f, 0.1f, 2, 3);
        Input self = ramp(DType.FLOAT, 0.2f, 0.1f, 2, 3);
        Input target = ramp(DType.FLOAT, 0.1f, 0.2f, 4);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor s = l1.input(self);
            AclTensor t = l1.input(target);
            AclTensor out = l1.output(DType.FLOAT, 2, 3).tensor();
            return (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(g, s, t, null, 0, out, ws, ex);
        }, Aclnn::binaryCrossEntropyBackward);
        assertLayerOnes(want, ACLNN_ERR_PARAM_INVALID, () -> Functional.binaryCrossEntropyBackward(l2(grad), l2(self),
                l2(target), null, Reduction.NONE));
    }

    @Test
    void bceWithLogitsWithTargetOfAnotherShapeIsLayerOnes161002() {
        Input self = ramp(DType.FLOAT16, -1f, 0.5f, 2, 3);
        Input target = ramp(DType.FLOAT16, 0f, 0.1f, 3, 2);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor s = l1.input(self);
            AclTensor t = l1.input(target);
            AclTensor out = l1.output(DType.FLOAT16).tensor();
            return (ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(s, t, null, null, 1, out, ws, ex);
        }, Aclnn::binaryCrossEntropyWithLogits);
        assertLayerOnes(want, ACLNN_ERR_PARAM_INVALID, () -> Functional.binaryCrossEntropyWithLogits(l2(self),
                l2(target), null, null, Reduction.MEAN));
    }

    @Test
    void preluBackwardWithAWeightOfAnotherDtypeIsLayerOnes161002() {
        Input grad = ones(DType.FLOAT, 2, 3);
        Input self = ramp(DType.FLOAT, -1f, 0.5f, 2, 3);
        Input weight = ramp(DType.FLOAT16, 0.25f, 0.25f, 3);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor s = l1.input(self);
            AclTensor w = l1.input(weight);
            AclTensor gi = l1.output(DType.FLOAT, 2, 3).tensor();
            AclTensor gw = l1.output(DType.FLOAT, 3).tensor();
            return (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(g, s, w, gi, gw, ws, ex);
        }, Aclnn::preluBackward);
        assertLayerOnes(want, ACLNN_ERR_PARAM_INVALID,
                () -> Functional.preluBackward(l2(grad), l2(self), l2(weight)));
    }

    @Test
    void nllLossWithFloatTargetsIsLayerOnes161002() {
        Input self = ramp(DType.FLOAT, -3f, 0.25f, 2, 4);
        Input target = Input.of(DType.FLOAT, new float[] {1, 3}, 2);
        Input weight = ones(DType.FLOAT, 4);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor s = l1.input(self);
            AclTensor t = l1.input(target);
            AclTensor w = l1.input(weight);
            AclTensor out = l1.output(DType.FLOAT).tensor();
            AclTensor tw = l1.output(DType.FLOAT).tensor();
            return (ws, ex) -> Aclnn.nllLossGetWorkspaceSize(s, t, w, 2, -100, out, tw, ws, ex);
        }, Aclnn::nllLoss);
        assertLayerOnes(want, ACLNN_ERR_PARAM_INVALID,
                () -> Functional.nllLoss(l2(self), l2(target), l2(weight), Reduction.SUM, -100));
    }

    @Test
    void groupNormWithCNotAMultipleOfGroupIsLayerOnes161002() {
        Input self = ramp(DType.BFLOAT16, -2f, 0.25f, 2, 3, 2);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor s = l1.input(self);
            AclTensor out = l1.output(DType.BFLOAT16, 2, 3, 2).tensor();
            AclTensor mean = l1.output(DType.BFLOAT16, 2, 2).tensor();
            AclTensor rstd = l1.output(DType.BFLOAT16, 2, 2).tensor();
            return (ws, ex) -> Aclnn.groupNormGetWorkspaceSize(s, null, null, 2, 3, 2, 2, 1e-5, out, mean, rstd, ws,
                    ex);
        }, Aclnn::groupNorm);
        assertLayerOnes(want, ACLNN_ERR_PARAM_INVALID,
                () -> Functional.groupNorm(l2(self), null, null, 2, 3, 2, 2, 1e-5));
    }

    @Test
    void groupNormBackwardWithAShortMaskIsLayerOnes161002() {
        Input grad = ramp(DType.FLOAT, -1f, 0.125f, 2, 4);
        Input input = ramp(DType.FLOAT, 1f, 0.5f, 2, 4);
        Input mean = ramp(DType.FLOAT, 0f, 1f, 2, 1);
        Input rstd = ones(DType.FLOAT, 2, 1);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor x = l1.input(input);
            AclTensor m = l1.input(mean);
            AclTensor r = l1.input(rstd);
            AclTensor dx = l1.output(DType.FLOAT, 2, 4).tensor();
            AclTensor dg = l1.output(DType.FLOAT, 4).tensor();
            var mask = l1.boolArray(true, true);
            return (ws, ex) -> Aclnn.groupNormBackwardGetWorkspaceSize(g, x, m, r, null, 2, 4, 1, 1, mask, dx, dg,
                    null, ws, ex);
        }, Aclnn::groupNormBackward);
        assertLayerOnes(want, ACLNN_ERR_PARAM_INVALID, () -> Functional.groupNormBackward(l2(grad), l2(input),
                l2(mean), l2(rstd), null, 2, 4, 1, 1, new boolean[] {true, true}));
    }

    // ---------------------------------------------------------------- null required inputs

    @Test
    void bceBackwardWithoutSelfIsLayerOnes161001() {
        Input grad = ones(DType.FLOAT, 2, 2);
        Input target = ramp(DType.FLOAT, 0f, 0.25f, 2, 2);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor t = l1.input(target);
            AclTensor out = l1.output(DType.FLOAT, 2, 2).tensor();
            return (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(g, null, t, null, 0, out, ws, ex);
        }, Aclnn::binaryCrossEntropyBackward);
        assertLayerOnes(want, ACLNN_ERR_PARAM_NULLPTR, () -> Functional.binaryCrossEntropyBackward(l2(grad), null,
                l2(target), null, Reduction.NONE));
    }

    @Test
    void preluWithoutWeightIsLayerOnes161001() {
        Input self = ramp(DType.FLOAT, -1f, 0.5f, 2, 3);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor s = l1.input(self);
            AclTensor out = l1.output(DType.FLOAT, 2, 3).tensor();
            return (ws, ex) -> Aclnn.preluGetWorkspaceSize(s, null, out, ws, ex);
        }, Aclnn::prelu);
        assertLayerOnes(want, ACLNN_ERR_PARAM_NULLPTR, () -> Functional.prelu(l2(self), null));
    }

    @Test
    void groupNormBackwardWithoutMeanIsLayerOnes161001() {
        Input grad = ramp(DType.FLOAT, -1f, 0.125f, 2, 4);
        Input input = ramp(DType.FLOAT, 1f, 0.5f, 2, 4);
        Input rstd = ones(DType.FLOAT, 2, 1);
        boolean[] mask = {true, true, true};
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor x = l1.input(input);
            AclTensor r = l1.input(rstd);
            AclTensor dx = l1.output(DType.FLOAT, 2, 4).tensor();
            AclTensor dg = l1.output(DType.FLOAT, 4).tensor();
            AclTensor db = l1.output(DType.FLOAT, 4).tensor();
            var m = l1.boolArray(mask);
            return (ws, ex) -> Aclnn.groupNormBackwardGetWorkspaceSize(g, x, null, r, null, 2, 4, 1, 1, m, dx, dg,
                    db, ws, ex);
        }, Aclnn::groupNormBackward);
        assertLayerOnes(want, ACLNN_ERR_PARAM_NULLPTR, () -> Functional.groupNormBackward(l2(grad), l2(input),
                null, l2(rstd), null, 2, 4, 1, 1, mask));
    }

    @Test
    void nllLossBackwardWithoutTotalWeightIsLayerOnes161001() {
        Input grad = ones(DType.FLOAT);
        Input self = ramp(DType.FLOAT, -3f, 0.25f, 2, 4);
        Input target = Input.of(DType.INT64, new long[] {1, 3}, 2);
        Input weight = ones(DType.FLOAT, 4);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor s = l1.input(self);
            AclTensor t = l1.input(target);
            AclTensor w = l1.input(weight);
            AclTensor out = l1.output(DType.FLOAT, 2, 4).tensor();
            return (ws, ex) -> Aclnn.nllLossBackwardGetWorkspaceSize(g, s, t, w, 1, -100, null, out, ws, ex);
        }, Aclnn::nllLossBackward);
        assertLayerOnes(want, ACLNN_ERR_PARAM_NULLPTR, () -> Functional.nllLossBackward(l2(grad), l2(self),
                l2(target), l2(weight), Reduction.MEAN, -100, null));
    }

    /** aclnnBinaryCrossEntropy's code says 561103 for a null target (not 161001): layer 2 keeps layer 1's status. */
    @Test
    void bceWithoutTargetKeepsLayerOnesStatus() {
        Input self = ramp(DType.FLOAT, 0.1f, 0.1f, 2, 2);
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor s = l1.input(self);
            AclTensor out = l1.output(DType.FLOAT).tensor();
            return (ws, ex) -> Aclnn.binaryCrossEntropyGetWorkspaceSize(s, null, null, 1, out, ws, ex);
        }, Aclnn::binaryCrossEntropy);
        assertLayerOnes(want, ACLNN_ERR_INNER_NULLPTR,
                () -> Functional.binaryCrossEntropy(l2(self), null, null, Reduction.MEAN));
    }

    // ---------------------------------------------------------------- the runtime

    @Test
    void aDeviceIdOutOfRangeIsLayerOnesError() {
        int bad = 7;
        int[] count = {0};
        assertEquals(0, AclRt.getDeviceCount(count));
        assertTrue(bad >= count[0], "device 7 exists here");
        TestDevice.init();
        int status = AclRt.setDevice(bad);
        String message = Acl.getRecentErrMsg();
        TestDevice.init();
        assertNotEquals(0, status);
        AclnnException e = assertThrows(AclnnException.class, () -> Device.open(bad).close());
        TestDevice.init();
        assertEquals(status, e.status(), () -> "status; message: " + e.getMessage());
        assertEquals(message, e.getMessage());
    }

    @Test
    void anAllocationTheDeviceCannotHoldIsLayerOnesBadAlloc() {
        long elements = 1L << 50; // 4 PiB of FLOAT
        TestDevice.init();
        int status = AclRt.malloc(new Pointer(), elements * 4, ACL_MEM_MALLOC_HUGE_FIRST);
        String message = Acl.getRecentErrMsg();
        assertEquals(AclError.ACL_ERROR_BAD_ALLOC, status, message);
        AclnnException e = assertThrows(AclnnException.class, () -> made.add(device.zeros(DType.FLOAT, elements)));
        assertEquals(status, e.status(), () -> "status; message: " + e.getMessage());
        assertEquals(message, e.getMessage());
    }

    // ---------------------------------------------------------------- run-time failures

    /** Self [3, 5] with row 1's target 7: valid in phase 1, out of range when it runs. */
    private static final Input NLL_SELF = ramp(DType.FLOAT, -4f, 0.25f, 3, 5);
    private static final Input NLL_TARGET = Input.of(DType.INT64, new long[] {1, 7, 2}, 3);
    private static final Input NLL_WEIGHT = ones(DType.FLOAT, 5);

    private static Layer1.Failure nllOutOfRangeInLayerOne() {
        return layerOne(l1 -> {
            AclTensor s = l1.input(NLL_SELF);
            AclTensor t = l1.input(NLL_TARGET);
            AclTensor w = l1.input(NLL_WEIGHT);
            AclTensor out = l1.output(DType.FLOAT).tensor();
            AclTensor tw = l1.output(DType.FLOAT).tensor();
            return (ws, ex) -> Aclnn.nllLossGetWorkspaceSize(s, t, w, 1, -100, out, tw, ws, ex);
        }, Aclnn::nllLoss);
    }

    @Test
    void nllTargetOutOfRangeIsThrownByTheReadNotByTheCall() {
        Layer1.Failure want = nllOutOfRangeInLayerOne();
        NllLossResult r = Functional.nllLoss(l2(NLL_SELF), l2(NLL_TARGET), l2(NLL_WEIGHT), Reduction.MEAN, -100);
        made.add(r.out());
        made.add(r.totalWeight());
        AclnnException e = assertLayerOnes(want, ACLNN_ERR_RUNTIME_ERROR, r.out()::toFloatArray);
        assertTrue(e.getMessage().contains("7"), () -> "names the bad value: " + e.getMessage());
        // reported once: the device goes on working
        Tensor x = l2(ramp(DType.FLOAT, -1f, 0.5f, 2, 2));
        Tensor w = l2(ones(DType.FLOAT, 1));
        Tensor y = Functional.prelu(x, w);
        made.add(y);
        assertArrayEquals(new float[] {-1f, -0.5f, 0f, 0.5f}, y.toFloatArray());
    }

    @Test
    void nllTargetOutOfRangeIsThrownBySynchronizeAndByItem() {
        Layer1.Failure want = nllOutOfRangeInLayerOne();
        NllLossResult r = Functional.nllLoss(l2(NLL_SELF), l2(NLL_TARGET), l2(NLL_WEIGHT), Reduction.SUM, -100);
        made.add(r.out());
        made.add(r.totalWeight());
        assertLayerOnes(want, ACLNN_ERR_RUNTIME_ERROR, device::synchronize);
        NllLossResult again = Functional.nllLoss(l2(NLL_SELF), l2(NLL_TARGET), l2(NLL_WEIGHT), Reduction.SUM, -100);
        made.add(again.out());
        made.add(again.totalWeight());
        assertLayerOnes(want, ACLNN_ERR_RUNTIME_ERROR, again.out()::item);
    }

    @Test
    void nllBackwardTargetOutOfRangeIsThrownByTheRead() {
        Input grad = ones(DType.FLOAT);
        Input totalWeight = Input.of(DType.FLOAT, new float[] {2f});
        Layer1.Failure want = layerOne(l1 -> {
            AclTensor g = l1.input(grad);
            AclTensor s = l1.input(NLL_SELF);
            AclTensor t = l1.input(NLL_TARGET);
            AclTensor w = l1.input(NLL_WEIGHT);
            AclTensor tw = l1.input(totalWeight);
            AclTensor out = l1.output(DType.FLOAT, 3, 5).tensor();
            return (ws, ex) -> Aclnn.nllLossBackwardGetWorkspaceSize(g, s, t, w, 1, -100, tw, out, ws, ex);
        }, Aclnn::nllLossBackward);
        Tensor dx = Functional.nllLossBackward(l2(grad), l2(NLL_SELF), l2(NLL_TARGET), l2(NLL_WEIGHT), Reduction.MEAN,
                -100, l2(totalWeight));
        made.add(dx);
        assertLayerOnes(want, ACLNN_ERR_RUNTIME_ERROR, dx::toFloatArray);
    }

    // ---------------------------------------------------------------- devices and closed objects

    private static void assertInvalid(Executable call) {
        AclnnException e = assertThrows(AclnnException.class, call);
        assertEquals(ACLNN_ERR_PARAM_INVALID, e.status(), () -> "status; message: " + e.getMessage());
        assertNotNull(e.getMessage());
        assertFalse(e.getMessage().isBlank(), "a message");
    }

    @Test
    void tensorsOfTwoDevicesAre161002() {
        try (Device other = Device.open()) {
            Tensor x = l2(ramp(DType.FLOAT, -1f, 0.5f, 2, 2));
            Tensor w = other.tensor(new float[] {0.25f}, 1);
            Tensor target = other.tensor(new float[] {0f, 1f, 1f, 0f}, 2, 2);
            assertInvalid(() -> Functional.prelu(x, w));
            assertInvalid(() -> Functional.binaryCrossEntropyWithLogits(x, target, null, null, Reduction.MEAN));
            assertInvalid(() -> Functional.preluBackward(x, x, w));
            // each alone is fine
            made.add(Functional.prelu(x, l2(Input.of(DType.FLOAT, new float[] {0.25f}, 1))));
            try (Tensor y = Functional.prelu(target, w)) {
                assertArrayEquals(new float[] {0f, 1f, 1f, 0f}, y.toFloatArray());
            }
        }
    }

    @Test
    void aClosedTensorIs161002() {
        Tensor x = l2(ramp(DType.FLOAT, -1f, 0.5f, 2, 2));
        Tensor w = l2(Input.of(DType.FLOAT, new float[] {0.25f}, 1));
        x.close();
        assertInvalid(() -> Functional.prelu(x, w));
        assertInvalid(x::toFloatArray);
        Tensor y = Functional.prelu(w, w);
        made.add(y);
        y.close();
        assertInvalid(y::item);
        assertInvalid(() -> Functional.prelu(w, y));
    }

    @Test
    void aClosedDeviceIs161002() {
        Device d = Device.open();
        Tensor x = d.tensor(new float[] {-1f, 2f}, 2);
        Tensor w = d.tensor(new float[] {0.5f}, 1);
        d.close();
        assertInvalid(() -> d.tensor(new float[] {1f}, 1));
        assertInvalid(() -> d.tensor(DType.FLOAT16, new float[] {1f}, 1));
        assertInvalid(() -> d.tensor(new long[] {1}, 1));
        assertInvalid(() -> d.tensor(new int[] {1}, 1));
        assertInvalid(() -> d.zeros(DType.FLOAT, 2));
        assertInvalid(d::synchronize);
        assertInvalid(() -> Functional.prelu(x, w));
        assertInvalid(x::toFloatArray);
    }
}
