package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.testing.TestDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Device memory held by layer 2 is given back: {@link Device#close()} frees every tensor and view
 * it made that was left open (bytesInUse returns to where it started); a view's memory lives as
 * long as the base or any view of it is open, and no longer (it shows in bytesInUse at once; the
 * runtime keeps the memory from other tensors until the work already queued has run); closing
 * twice is harmless; many calls
 * whose results are closed (even before they were read) do not grow bytesInUse once synchronized;
 * and {@link Device#open()} works whether or not the runtime is initialised.
 */
class ResourceTest {
    @AfterAll
    static void restoreSharedRuntime() {
        TestDevice.init();
    }

    private static float[] ramp(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = i * 0.125f - 1;
        }
        return v;
    }

    @Test
    void closingTheDeviceFreesWhatWasLeftOpen() {
        try (Device meter = Device.open()) {
            long start = meter.bytesInUse();
            Device d = Device.open();
            Tensor x = d.tensor(ramp(64 * 48), 64, 48);
            Tensor h = d.tensor(DType.FLOAT16, ramp(64 * 48), 64, 48);
            d.tensor(new long[] {1, 2, 3}, 3);
            d.tensor(new int[] {1, 2, 3}, 3);
            d.zeros(DType.BFLOAT16, 100);
            x.transpose(0, 1);
            x.slice(0, 0, 32, 2).expand(2, 16, 48);
            h.permute(1, 0);
            Tensor w = d.tensor(new float[] {0.25f}, 1);
            Functional.prelu(x, w);
            Functional.prelu(x.transpose(0, 1), w);
            Tensor y = Functional.binaryCrossEntropyWithLogits(x, x, null, null, Reduction.MEAN);
            Functional.groupNorm(d.tensor(ramp(2 * 4 * 3), 2, 4, 3), null, null, 2, 4, 3, 2, 1e-5);
            y.toFloatArray();
            Functional.preluBackward(x, x, w); // still queued when close is called
            assertTrue(meter.bytesInUse() > start + 64 * 48 * 6, "the tensors are counted");
            d.close();
            assertEquals(start, meter.bytesInUse(), "bytes in use after Device.close");
        }
    }

    @Test
    void closingAViewKeepsTheBaseUsable() {
        try (Device d = Device.open()) {
            long start = d.bytesInUse();
            Tensor base = d.tensor(ramp(12), 3, 4);
            long withBase = d.bytesInUse();
            assertTrue(withBase >= start + 48, "the base is counted");
            Tensor view = base.transpose(0, 1);
            view.close();
            assertEquals(withBase, d.bytesInUse(), "closing a view of an open base frees nothing");
            assertArrayEquals(ramp(12), base.toFloatArray());
            Tensor w = d.tensor(new float[] {0.5f}, 1);
            try (Tensor y = Functional.prelu(base, w)) {
                float[] want = ramp(12);
                for (int i = 0; i < want.length; i++) {
                    want[i] = want[i] > 0 ? want[i] : 0.5f * want[i];
                }
                assertArrayEquals(want, y.toFloatArray());
            }
            w.close();
            base.close();
            d.synchronize();
            assertEquals(start, d.bytesInUse(), "bytes in use once the base and its view are closed");
        }
    }

    @Test
    void memoryIsFreedWhenTheLastViewCloses() {
        try (Device d = Device.open()) {
            long start = d.bytesInUse();
            Tensor base = d.tensor(ramp(24), 2, 3, 4);
            long withBase = d.bytesInUse();
            Tensor a = base.permute(2, 0, 1);
            Tensor b = base.slice(2, 1, 4, 2);
            Tensor c = b.expand(5, 2, 3, 2);
            base.close();
            assertEquals(withBase, d.bytesInUse(), "open views keep the base's memory");
            assertEquals(ramp(24)[8], a.toFloatArray()[2], "a view of a closed base still reads it");
            a.close();
            b.close();
            assertEquals(withBase, d.bytesInUse(), "a view of a view keeps the memory");
            assertEquals(ramp(24)[3], c.toFloatArray()[1]);
            c.close();
            assertEquals(start, d.bytesInUse(), "bytes in use once every view is closed");
        }
    }

    /** Inputs closed while the call that reads them is still queued: their memory must not be reused under it. */
    @Test
    void closingTheInputsOfQueuedWorkDoesNotChangeItsResult() {
        try (Device d = Device.open()) {
            int n = 256 * 256;
            float[] xs = new float[n];
            for (int i = 0; i < n; i++) {
                xs[i] = (i % 97) * 0.25f - 12;
            }
            Tensor x = d.tensor(xs, 256, 256);
            Tensor w = d.tensor(new float[] {0.5f}, 1);
            Tensor y = Functional.prelu(x, w);
            Tensor z = Functional.prelu(x.transpose(0, 1), w);
            x.close();
            w.close();
            float[] other = new float[n];
            java.util.Arrays.fill(other, 99f);
            for (int i = 0; i < 8; i++) {
                d.tensor(other, 256, 256); // would land on x's memory were it freed at once
                d.tensor(new float[] {-7f}, 1);
            }
            float[] got = y.toFloatArray();
            float[] gotT = z.toFloatArray();
            for (int i = 0; i < n; i++) {
                float want = xs[i] > 0 ? xs[i] : 0.5f * xs[i];
                assertEquals(want, got[i], "element " + i);
                assertEquals(want, gotT[(i % 256) * 256 + i / 256], "transposed element " + i);
            }
        }
    }

    @Test
    void closingTwiceIsHarmless() {
        Device d = Device.open();
        long start = d.bytesInUse();
        Tensor t = d.tensor(ramp(8), 8);
        Tensor v = t.slice(0, 0, 8, 2);
        t.close();
        t.close();
        v.close();
        v.close();
        t.close();
        d.synchronize();
        assertEquals(start, d.bytesInUse());
        Tensor u = d.tensor(ramp(8), 8);
        d.close();
        u.close(); // after its device closed it
        d.close();
    }

    @Test
    void manyCallsDoNotGrowMemory() {
        try (Device d = Device.open()) {
            int n = 64 * 64;
            Tensor x = d.tensor(ramp(n), 64, 64);
            Tensor target = d.tensor(new float[n], 64, 64);
            Tensor w = d.tensor(new float[] {0.25f}, 1);
            Tensor grad = d.tensor(new float[] {1f});
            // one round, to let any pools or caches fill
            round(x, target, w, grad, true);
            d.synchronize();
            long settled = d.bytesInUse();
            for (int i = 0; i < 300; i++) {
                round(x, target, w, grad, i % 3 == 0); // two rounds in three are closed before they run
            }
            d.synchronize();
            long after = d.bytesInUse();
            // one round's results are 4 x 16 KiB; 300 rounds leaking them would be about 19 MiB
            assertTrue(after <= settled + (1 << 20), () -> "bytes in use grew from " + settled + " to " + after);
            try (Tensor y = Functional.prelu(x, w)) {
                assertEquals(-1f * 0.25f, y.toFloatArray()[0], "still computes after the loop");
            }
        }
    }

    private static void round(Tensor x, Tensor target, Tensor w, Tensor grad, boolean read) {
        Tensor y = Functional.prelu(x, w);
        Tensor loss = Functional.binaryCrossEntropyWithLogits(y, target, null, null, Reduction.MEAN);
        Tensor dy = Functional.binaryCrossEntropyWithLogitsBackward(grad, y, target, null, null, Reduction.MEAN);
        PreluGrads g = Functional.preluBackward(dy, x, w);
        if (read) {
            loss.item();
            g.gradWeight().toFloatArray();
        }
        for (Tensor t : new Tensor[] {y, loss, dy, g.gradInput(), g.gradWeight()}) {
            t.close();
        }
    }

    @Test
    void openWorksWhetherOrNotTheRuntimeIsInitialised() {
        try {
            Acl.finalizeAcl();
            try (Device d = Device.open()) {
                Tensor x = d.tensor(new float[] {-2f, 3f}, 2);
                Tensor w = d.tensor(new float[] {0.5f}, 1);
                assertArrayEquals(new float[] {-1f, 3f}, Functional.prelu(x, w).toFloatArray());
                // and a second device while the runtime is up
                try (Device e = Device.open()) {
                    assertEquals(6f, e.tensor(new float[] {6f}).item());
                }
            }
        } finally {
            TestDevice.init();
        }
    }
}
