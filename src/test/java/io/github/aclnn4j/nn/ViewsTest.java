package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.aclnn4j.tensor.Shapes;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tensors and their views: transpose, permute, expand and slice are views (no device memory is
 * allocated for them) with the shapes and strides PyTorch gives, reading the base's elements in
 * the view's row-major order, also when chained and for seeded random chains checked against an
 * index computation written here; bad view arguments are IllegalArgumentException or
 * IndexOutOfBoundsException with a message, as are factory arrays that do not fit the shape;
 * floats stored as FLOAT16/BFLOAT16 are rounded to nearest even (exact bit patterns) and as DOUBLE
 * kept exactly; INT64/INT32 read back exactly; zeros of every dtype; item() of 0-d and one-element
 * tensors.
 */
class ViewsTest extends SharedDevice {

    private static float[] values(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = i;
        }
        return v;
    }

    private Tensor ramp(long... shape) {
        return keep(device.tensor(values(Math.toIntExact(Shapes.numel(shape))), shape));
    }

    // ---------------------------------------------------------------- the four views

    @Test
    void aContiguousTensorHasRowMajorStrides() {
        Tensor t = ramp(2, 3, 4);
        assertEquals(DType.FLOAT, t.dtype());
        assertArrayEquals(new long[] {2, 3, 4}, t.shape());
        assertArrayEquals(new long[] {12, 4, 1}, t.strides());
        assertEquals(24, t.numel());
        assertSame(device, t.device());
        assertArrayEquals(values(24), t.toFloatArray());
    }

    @Test
    void transposeSwapsShapeAndStrides() {
        Tensor t = ramp(2, 3).transpose(0, 1);
        keep(t);
        assertArrayEquals(new long[] {3, 2}, t.shape());
        assertArrayEquals(new long[] {1, 3}, t.strides());
        assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, t.toFloatArray());
        Tensor back = keep(t.transpose(1, 0));
        assertArrayEquals(new long[] {2, 3}, back.shape());
        assertArrayEquals(values(6), back.toFloatArray());
    }

    @Test
    void permuteReordersDimensions() {
        Tensor t = keep(ramp(2, 3, 4).permute(2, 0, 1));
        assertArrayEquals(new long[] {4, 2, 3}, t.shape());
        assertArrayEquals(new long[] {1, 12, 4}, t.strides());
        float[] want = new float[24];
        int i = 0;
        for (int c = 0; c < 4; c++) {
            for (int a = 0; a < 2; a++) {
                for (int b = 0; b < 3; b++) {
                    want[i++] = a * 12 + b * 4 + c;
                }
            }
        }
        assertArrayEquals(want, t.toFloatArray());
    }

    @Test
    void expandBroadcastsSizeOneAndNewLeadingDimensionsWithStrideZero() {
        Tensor base = keep(device.tensor(new float[] {10, 20, 30}, 3, 1));
        Tensor t = keep(base.expand(2, 3, 4));
        assertArrayEquals(new long[] {2, 3, 4}, t.shape());
        assertArrayEquals(new long[] {0, 1, 0}, t.strides());
        assertEquals(24, t.numel());
        float[] want = new float[24];
        for (int i = 0; i < 24; i++) {
            want[i] = 10 * (1 + (i / 4) % 3);
        }
        assertArrayEquals(want, t.toFloatArray());
        // expanding to the same size keeps the stride
        Tensor same = keep(base.expand(3, 1));
        assertArrayEquals(new long[] {1, 1}, same.strides());
    }

    @Test
    void sliceWithStepKeepsEveryStepthElement() {
        Tensor v = ramp(10);
        Tensor t = keep(v.slice(0, 1, 8, 3));
        assertArrayEquals(new long[] {3}, t.shape());
        assertArrayEquals(new long[] {3}, t.strides());
        assertArrayEquals(new float[] {1, 4, 7}, t.toFloatArray());
        Tensor m = ramp(3, 6);
        Tensor cols = keep(m.slice(1, 2, 6, 2));
        assertArrayEquals(new long[] {3, 2}, cols.shape());
        assertArrayEquals(new long[] {6, 2}, cols.strides());
        assertArrayEquals(new float[] {2, 4, 8, 10, 14, 16}, cols.toFloatArray());
        Tensor rows = keep(m.slice(0, 1, 3, 1));
        assertArrayEquals(new long[] {2, 6}, rows.shape());
        assertArrayEquals(new float[] {6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, rows.toFloatArray());
    }

    @Test
    void viewsChain() {
        // a column slice of a transpose of a row slice
        Tensor t = ramp(4, 5);
        Tensor v = keep(keep(keep(t.slice(0, 1, 4, 2)).transpose(0, 1)).slice(0, 0, 5, 2));
        // rows 1 and 3 of t; transposed [5, 2]; rows 0, 2, 4 -> columns 0, 2, 4 of rows 1, 3
        assertArrayEquals(new long[] {3, 2}, v.shape());
        assertArrayEquals(new long[] {2, 10}, v.strides());
        assertArrayEquals(new float[] {5, 15, 7, 17, 9, 19}, v.toFloatArray());
        Tensor e = keep(keep(ramp(3).slice(0, 1, 2, 1)).expand(2, 4));
        assertArrayEquals(new long[] {0, 0}, e.strides());
        assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1, 1, 1}, e.toFloatArray());
    }

    static Stream<Arguments> randomChains() {
        return IntStream.range(0, 40).mapToObj(seed -> Arguments.of(seed));
    }

    /** Random chains of views on random shapes, against the layouts and values {@link Input} computes. */
    @ParameterizedTest
    @MethodSource("randomChains")
    void randomViewChainsReadTheBaseInTheirOrder(int seed) {
        Random rnd = new Random(seed);
        Input.Form[] forms = Input.Form.values();
        long[] shape = new long[1 + rnd.nextInt(4)];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = 1 + rnd.nextInt(4);
        }
        DType dtype = List.of(DType.FLOAT, DType.FLOAT16, DType.BFLOAT16, DType.INT64, DType.INT32)
                .get(rnd.nextInt(5));
        Input in = dtype == DType.INT64 || dtype == DType.INT32
                ? Input.longs(dtype, shape, forms[rnd.nextInt(forms.length)], () -> rnd.nextInt(2001) - 1000)
                : Input.floats(dtype, shape, forms[rnd.nextInt(forms.length)], () -> rnd.nextGaussian() * 100);
        Tensor t = in.build(device, made);
        float[] want = in.viewValues();
        float[] got = t.toFloatArray();
        LayerTwoAgreesWithLayerOneTest.assertSameBits(in.toString(), want, got);
        if (dtype == DType.INT64 || dtype == DType.INT32) {
            long[] longs = t.toLongArray();
            for (int i = 0; i < want.length; i++) {
                assertEquals((long) want[i], longs[i], in::toString);
            }
        }
    }

    @Test
    void viewsAllocateNoDeviceMemory() {
        Tensor t = ramp(4, 6);
        device.synchronize();
        long before = device.bytesInUse();
        List<Tensor> views = List.of(t.transpose(0, 1), t.permute(1, 0), t.slice(1, 0, 6, 2),
                keep(t.slice(0, 0, 1, 1)).expand(5, 1, 6), t.expand(3, 4, 6));
        views.forEach(this::keep);
        assertEquals(before, device.bytesInUse(), "bytes in use after making views");
    }

    @Test
    void aViewOutlivesItsBase() {
        Tensor base = device.tensor(values(6), 2, 3);
        Tensor view = keep(base.transpose(0, 1));
        base.close();
        assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, view.toFloatArray(),
                "the view still reads the base's memory");
    }

    // ---------------------------------------------------------------- bad arguments

    private static void assertRefused(String what, Executable call) {
        Throwable e;
        try {
            call.execute();
            fail(what + " was accepted");
            return;
        } catch (Throwable t) {
            e = t;
        }
        assertTrue(e instanceof IllegalArgumentException || e instanceof IndexOutOfBoundsException,
                () -> what + " threw " + e);
        assertNotNull(e.getMessage(), () -> what + ": a message");
        assertFalse(e.getMessage().isBlank(), () -> what + ": a message");
    }

    @Test
    void badViewArgumentsAreRefusedWithAMessage() {
        Tensor t = ramp(2, 3);
        assertRefused("transpose(0, 2) of a 2-D tensor", () -> keep(t.transpose(0, 2)));
        assertRefused("transpose(5, 0) of a 2-D tensor", () -> keep(t.transpose(5, 0)));
        assertRefused("permute(0) of a 2-D tensor", () -> keep(t.permute(0)));
        assertRefused("permute(0, 0)", () -> keep(t.permute(0, 0)));
        assertRefused("permute(0, 2)", () -> keep(t.permute(0, 2)));
        assertRefused("expand [2, 3] to [2, 4]", () -> keep(t.expand(2, 4)));
        assertRefused("expand [2, 3] to [3]", () -> keep(t.expand(3)));
        assertRefused("expand [2, 3] to [4, 3]", () -> keep(t.expand(4, 3)));
        assertRefused("slice of dimension 2", () -> keep(t.slice(2, 0, 1, 1)));
        assertRefused("slice with step 0", () -> keep(t.slice(1, 0, 3, 0)));
        assertRefused("slice with a negative step", () -> keep(t.slice(1, 2, 0, -1)));
    }

    @Test
    void factoriesRefuseDataThatDoesNotFitTheShape() {
        assertRefused("4 floats as [2, 3]", () -> keep(device.tensor(new float[4], 2, 3)));
        assertRefused("4 floats as FLOAT16 [5]", () -> keep(device.tensor(DType.FLOAT16, new float[4], 5)));
        assertRefused("3 longs as [2]", () -> keep(device.tensor(new long[3], 2)));
        assertRefused("3 ints as [4]", () -> keep(device.tensor(new int[3], 4)));
        assertRefused("zeros [2, -1]", () -> keep(device.zeros(DType.FLOAT, 2, -1)));
    }

    // ---------------------------------------------------------------- dtypes

    private static int bits(float f) {
        return Float.floatToRawIntBits(f);
    }

    private Tensor stored(DType d, float... values) {
        return keep(device.tensor(d, values, values.length));
    }

    @Test
    void bfloat16RoundsToNearestEven() {
        float tieDown = 1f + 0x1p-8f; // halfway between 1 and 1 + 2^-7: to the even 1
        float tieUp = 1f + 3 * 0x1p-8f; // halfway between 1 + 2^-7 and 1 + 2^-6: to the even 1 + 2^-6
        float above = 1f + 0x1p-8f + 0x1p-20f; // just above halfway: up
        float below = 1f + 0x1p-8f - 0x1p-20f; // just below halfway: down
        float[] got = stored(DType.BFLOAT16, tieDown, tieUp, above, below, -tieUp, 3.0e38f, Float.NaN, 0x1p-130f)
                .toFloatArray();
        assertEquals(0x3F800000, bits(got[0]));
        assertEquals(0x3F820000, bits(got[1]));
        assertEquals(0x3F810000, bits(got[2]));
        assertEquals(0x3F800000, bits(got[3]));
        assertEquals(0xBF820000, bits(got[4]));
        assertEquals(Bits.fromBf16(Bits.bf16(3.0e38f)), got[5]);
        assertEquals(0x7FC00000, bits(got[6]), "NaN is the quiet NaN 0x7FC0");
        assertEquals(bits(0x1p-130f), bits(got[7]), "a subnormal that fits is kept");
    }

    @Test
    void float16RoundsToNearestEven() {
        float tieDown = 1f + 0x1p-11f;
        float tieUp = 1f + 3 * 0x1p-11f;
        float above = 1f + 0x1p-11f + 0x1p-20f;
        float[] got = stored(DType.FLOAT16, tieDown, tieUp, above, 65504f, 65520f, 0x1p-24f, 0x1p-25f, -2.5f)
                .toFloatArray();
        assertEquals(bits(1f), bits(got[0]));
        assertEquals(bits(1f + 0x1p-9f), bits(got[1]));
        assertEquals(bits(1f + 0x1p-10f), bits(got[2]));
        assertEquals(bits(65504f), bits(got[3]), "the largest half");
        assertEquals(bits(Float.POSITIVE_INFINITY), bits(got[4]), "65520 is halfway to 65536: overflows");
        assertEquals(bits(0x1p-24f), bits(got[5]), "the smallest subnormal");
        assertEquals(bits(0f), bits(got[6]), "half of the smallest subnormal ties to even zero");
        assertEquals(bits(-2.5f), bits(got[7]));
    }

    @Test
    void sixteenBitTensorsReportTheirDtype() {
        assertEquals(DType.FLOAT16, stored(DType.FLOAT16, 1f).dtype());
        assertEquals(DType.BFLOAT16, stored(DType.BFLOAT16, 1f).dtype());
        assertEquals(DType.FLOAT, stored(DType.FLOAT, 1f + 0x1p-20f).dtype());
        assertEquals(bits(1f + 0x1p-20f), bits(stored(DType.FLOAT, 1f + 0x1p-20f).toFloatArray()[0]));
    }

    @Test
    void doubleHoldsFloatsExactly() {
        float[] v = {1.5f, -0.1f, 3.0e38f, 0x1p-140f, 1f + 0x1p-23f};
        Tensor t = keep(device.tensor(DType.DOUBLE, v, 5));
        assertEquals(DType.DOUBLE, t.dtype());
        float[] got = t.toFloatArray();
        for (int i = 0; i < v.length; i++) {
            assertEquals(bits(v[i]), bits(got[i]), "element " + i);
        }
    }

    @Test
    void integersReadBackExactly() {
        long[] longs = {Long.MIN_VALUE, -1, 0, 1L << 53 | 1, Long.MAX_VALUE, 42};
        Tensor l = keep(device.tensor(longs, 2, 3));
        assertEquals(DType.INT64, l.dtype());
        assertArrayEquals(longs, l.toLongArray());
        assertArrayEquals(new long[] {Long.MIN_VALUE, 1L << 53 | 1, -1, Long.MAX_VALUE, 0, 42},
                keep(l.transpose(0, 1)).toLongArray());
        int[] ints = {Integer.MIN_VALUE, -7, 0, Integer.MAX_VALUE};
        Tensor i = keep(device.tensor(ints, 4));
        assertEquals(DType.INT32, i.dtype());
        assertArrayEquals(new long[] {Integer.MIN_VALUE, -7, 0, Integer.MAX_VALUE}, i.toLongArray());
        assertArrayEquals(new long[] {-7, Integer.MAX_VALUE}, keep(i.slice(0, 1, 4, 2)).toLongArray());
    }

    @Test
    void zerosOfEveryDtype() {
        for (DType d : DType.values()) {
            Tensor z = keep(device.zeros(d, 2, 3));
            assertEquals(d, z.dtype());
            assertArrayEquals(new long[] {2, 3}, z.shape());
            if (d == DType.FLOAT || d == DType.FLOAT16 || d == DType.BFLOAT16) {
                for (float f : z.toFloatArray()) {
                    assertEquals(0, bits(f), () -> d + " zeros");
                }
            } else if (d != DType.DOUBLE) {
                assertArrayEquals(new long[6], z.toLongArray(), () -> d + " zeros");
            }
        }
    }

    @Test
    void itemOfAZeroDimensionalTensor() {
        Tensor s = keep(device.tensor(new float[] {2.5f}));
        assertArrayEquals(new long[0], s.shape());
        assertArrayEquals(new long[0], s.strides());
        assertEquals(1, s.numel());
        assertEquals(bits(2.5f), bits(s.item()));
        assertEquals(bits(-0.375f), bits(keep(device.tensor(DType.BFLOAT16, new float[] {-0.375f}, 1)).item()));
        assertEquals(bits(7f), bits(keep(ramp(3, 4).slice(0, 1, 2, 1).slice(1, 3, 4, 1)).item()));
    }
}
