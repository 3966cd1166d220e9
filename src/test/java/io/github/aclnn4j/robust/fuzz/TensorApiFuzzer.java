package io.github.aclnn4j.robust.fuzz;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.robust.fuzz.FuzzCalls.check;
import static io.github.aclnn4j.robust.fuzz.FuzzCalls.status;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclFloatArray;
import io.github.aclnn4j.acl.AclIntArray;
import io.github.aclnn4j.acl.AclScalar;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Pointer;
import java.util.Arrays;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Fuzzed descriptors into aclCreateTensor and its getters, and into the array and scalar makers.
 * The property: nothing throws; a maker returns a handle exactly when its counts fit its arrays
 * (API.md: a count larger than its array, or a null array with a non-zero count, is refused), and
 * null with a recent message otherwise; the getters give back what was passed; every misuse
 * (null or empty out-arrays, a destroyed tensor) is a documented status with a message.
 */
final class TensorApiFuzzer {
    private static final Set<Integer> MISUSE = Set.of(161001, 161002);
    /** The dtypes aclCreateScalar can read a value of. */
    private static final Set<Integer> SCALAR_TYPES = Set.of(ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8,
            ACL_INT16, ACL_UINT16, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_BOOL, ACL_BF16);

    private TensorApiFuzzer() {}

    static void fuzz(FuzzedDataProvider d) {
        try (FuzzScene scene = new FuzzScene(d)) {
            for (int rounds = d.consumeInt(1, 4); rounds > 0; rounds--) {
                switch (d.consumeInt(0, 4)) {
                    case 0, 1 -> tensor(scene);
                    case 2 -> boolArray(d);
                    case 3 -> intAndFloatArrays(d);
                    default -> scalar(scene);
                }
            }
        }
    }

    private static void tensor(FuzzScene scene) {
        FuzzedDataProvider d = scene.data;
        long[] dims = d.consumeInt(0, 15) == 15 ? null : longs(d, Palette.DIMS);
        long dimsNum = count(d, dims);
        int dtype = d.pickValue(Palette.DTYPES);
        long[] strides = d.consumeBoolean() ? null : longs(d, Palette.STRIDES);
        long offset = d.consumeBoolean() ? d.consumeInt(0, 8) : d.pickValue(Palette.OFFSETS);
        int format = d.pickValue(Palette.FORMATS);
        long[] storage = d.consumeInt(0, 15) == 15 ? null : longs(d, Palette.DIMS);
        long storageNum = count(d, storage);
        Pointer data = pointer(scene);
        String what = "aclCreateTensor(dims " + Arrays.toString(dims) + "/" + dimsNum + ", dtype " + dtype
                + ", strides " + Arrays.toString(strides) + ", offset " + offset + ", format " + format + ", storage "
                + Arrays.toString(storage) + "/" + storageNum + ", " + data + ")";

        boolean fits = fits(dims, dimsNum) && fits(storage, storageNum)
                && (strides == null || strides.length >= dimsNum);
        AclTensor t = scene.keep(make(what, () -> Acl.createTensor(dims, dimsNum, dtype, strides, offset, format,
                storage, storageNum, data)));
        if (t == null) {
            String message = Acl.getRecentErrMsg();
            check(!fits, what + " returned null: " + message);
            check(message != null, what + " returned null without a recent message");
            check(Acl.getRecentErrMsg() == null, what + ": the message was not cleared by reading it");
            return;
        }
        check(fits, what + " made a tensor from counts that do not fit their arrays");
        long[] view = prefix(dims, dimsNum);
        check(Arrays.equals(view, shapeOf(t, what)), what + ": aclGetViewShape differs");
        check(Arrays.equals(prefix(storage, storageNum), storageOf(t, what)), what + ": aclGetStorageShape differs");
        long[] expectedStrides = strides != null ? Arrays.copyOf(strides, view.length) : contiguous(view);
        long[][] gotStrides = new long[1][];
        long[] strideCount = new long[1];
        ok(what + " aclGetViewStrides", () -> Acl.getViewStrides(t, gotStrides, strideCount));
        check(expectedStrides == null || Arrays.equals(expectedStrides, gotStrides[0]), what
                + ": aclGetViewStrides gave " + Arrays.toString(gotStrides[0]));
        check(strideCount[0] == view.length, what + ": aclGetViewStrides count " + strideCount[0]);
        long[] gotOffset = new long[1];
        ok(what + " aclGetViewOffset", () -> Acl.getViewOffset(t, gotOffset));
        check(gotOffset[0] == offset, what + ": aclGetViewOffset gave " + gotOffset[0]);
        int[] got = new int[1];
        ok(what + " aclGetFormat", () -> Acl.getFormat(t, got));
        check(got[0] == format, what + ": aclGetFormat gave " + got[0]);
        ok(what + " aclGetDataType", () -> Acl.getDataType(t, got));
        check(got[0] == dtype, what + ": aclGetDataType gave " + got[0]);

        boolean emptyOut = d.consumeBoolean();
        misuse(what + " aclGetViewShape into a missing array", () -> Acl.getViewShape(t,
                emptyOut ? new long[0][] : null, new long[1]));
        misuse(what + " aclGetDataType into a missing array", () -> Acl.getDataType(t, emptyOut ? new int[0] : null));
        misuse(what + " aclGetViewOffset into a missing array",
                () -> Acl.getViewOffset(t, emptyOut ? new long[0] : null));
        misuse("aclGetFormat of a null tensor", () -> Acl.getFormat(null, new int[1]));
        if (d.consumeBoolean()) {
            ok(what + " aclDestroyTensor", () -> Acl.destroyTensor(t));
            misuse(what + " aclDestroyTensor again", () -> Acl.destroyTensor(t));
            misuse(what + " aclGetViewShape of a destroyed tensor", () -> Acl.getViewShape(t, new long[1][],
                    new long[1]));
            misuse(what + " aclGetViewStrides of a destroyed tensor", () -> Acl.getViewStrides(t, new long[1][],
                    new long[1]));
        }
    }

    private static void boolArray(FuzzedDataProvider d) {
        boolean[] values = d.consumeInt(0, 7) == 7 ? null : d.consumeBooleans(d.consumeInt(0, 8));
        long size = count(d, values == null ? null : new long[values.length]);
        String what = "aclCreateBoolArray(" + Arrays.toString(values) + ", " + size + ")";
        AclBoolArray a = make(what, () -> Acl.createBoolArray(values, size));
        checkMade(a != null, fits(values == null ? null : new long[values.length], size), what);
        ok(what + " aclDestroyBoolArray", () -> Acl.destroyBoolArray(a));
    }

    private static void intAndFloatArrays(FuzzedDataProvider d) {
        long[] ints = d.consumeInt(0, 7) == 7 ? null : longs(d, Palette.ATTRIBUTES);
        long intSize = count(d, ints);
        String what = "aclCreateIntArray(" + Arrays.toString(ints) + ", " + intSize + ")";
        AclIntArray a = make(what, () -> Acl.createIntArray(ints, intSize));
        checkMade(a != null, fits(ints, intSize), what);
        ok(what + " aclDestroyIntArray", () -> Acl.destroyIntArray(a));

        float[] floats = d.consumeInt(0, 7) == 7 ? null : new float[d.consumeInt(0, 8)];
        long floatSize = count(d, floats == null ? null : new long[floats.length]);
        String whatF = "aclCreateFloatArray(" + Arrays.toString(floats) + ", " + floatSize + ")";
        AclFloatArray f = make(whatF, () -> Acl.createFloatArray(floats, floatSize));
        checkMade(f != null, fits(floats == null ? null : new long[floats.length], floatSize), whatF);
        ok(whatF + " aclDestroyFloatArray", () -> Acl.destroyFloatArray(f));
    }

    private static void scalar(FuzzScene scene) {
        FuzzedDataProvider d = scene.data;
        int dtype = d.pickValue(Palette.DTYPES);
        int es = TensorRecipe.elementSize(dtype);
        int kind = d.consumeInt(0, 4);
        long bytes = d.consumeInt(1, 16);
        long shift = d.consumeBoolean() ? d.consumeInt(0, 16) : d.pickValue(Palette.BYTE_SHIFTS);
        Pointer value = switch (kind) {
            case 0 -> null;
            case 1 -> new Pointer();
            case 2 -> scene.dangling(bytes).base.withByteOffset(shift);
            case 3 -> scene.host((int) bytes, new byte[0]).base.withByteOffset(shift);
            default -> scene.device(bytes, new byte[0]).base.withByteOffset(shift);
        };
        boolean valid = kind >= 3 && SCALAR_TYPES.contains(dtype) && shift >= 0 && shift <= bytes - es;
        String what = "aclCreateScalar(" + value + ", dtype " + dtype + ")";
        AclScalar s = make(what, () -> Acl.createScalar(value, dtype));
        checkMade(s != null, valid, what);
        ok(what + " aclDestroyScalar", () -> Acl.destroyScalar(s));
    }

    /** A data pointer: null, the null pointer, device memory (maybe shifted), freed memory, or host memory. */
    private static Pointer pointer(FuzzScene scene) {
        FuzzedDataProvider d = scene.data;
        long bytes = d.consumeInt(1, 256);
        return switch (d.consumeInt(0, 4)) {
            case 0 -> null;
            case 1 -> new Pointer();
            case 2 -> scene.dangling(bytes).base;
            case 3 -> scene.host((int) bytes, new byte[0]).base;
            default -> scene.device(bytes, new byte[0]).base.withByteOffset(
                    d.consumeBoolean() ? 0 : d.pickValue(Palette.BYTE_SHIFTS));
        };
    }

    /** 0 to 12 values, each from the palette or any long. */
    private static long[] longs(FuzzedDataProvider d, long[] palette) {
        long[] values = new long[d.consumeInt(0, 12)];
        for (int i = 0; i < values.length; i++) {
            values[i] = d.consumeBoolean() ? d.pickValue(palette) : d.consumeInt(0, 8);
        }
        return values;
    }

    /** A count for an array: its length, or one that is negative, short, long or absurd. */
    private static long count(FuzzedDataProvider d, long[] array) {
        long length = array == null ? 0 : array.length;
        return d.consumeBoolean() ? length
                : d.pickValue(new long[] {-1, 0, length - 1, length + 1, 9, Long.MAX_VALUE, Long.MIN_VALUE});
    }

    private static boolean fits(long[] array, long count) {
        return count >= 0 && (count == 0 || (array != null && count <= array.length));
    }

    private static long[] prefix(long[] array, long count) {
        return count == 0 ? new long[0] : Arrays.copyOf(array, (int) count);
    }

    /** Row-major strides of {@code dims}, or null when they overflow (the library's are then unspecified). */
    private static long[] contiguous(long[] dims) {
        long[] s = new long[dims.length];
        long step = 1;
        try {
            for (int i = dims.length - 1; i >= 0; i--) {
                s[i] = step;
                step = Math.multiplyExact(step, Math.max(dims[i], 1));
            }
        } catch (ArithmeticException e) {
            return null;
        }
        return s;
    }

    private static long[] shapeOf(AclTensor t, String what) {
        long[][] dims = new long[1][];
        long[] count = new long[1];
        ok(what + " aclGetViewShape", () -> Acl.getViewShape(t, dims, count));
        check(count[0] == dims[0].length, what + ": aclGetViewShape count " + count[0] + " for " + dims[0].length
                + " dims");
        return dims[0];
    }

    private static long[] storageOf(AclTensor t, String what) {
        long[][] dims = new long[1][];
        long[] count = new long[1];
        ok(what + " aclGetStorageShape", () -> Acl.getStorageShape(t, dims, count));
        return dims[0];
    }

    private static void checkMade(boolean made, boolean valid, String what) {
        String message = Acl.getRecentErrMsg();
        check(made == valid, what + (made ? " made a handle from invalid arguments"
                : " returned null for valid arguments: " + message));
        check(made || message != null, what + " returned null without a recent message");
    }

    private static <T> T make(String what, Supplier<T> maker) {
        Acl.getRecentErrMsg();
        try {
            return maker.get();
        } catch (Throwable t) {
            throw new AssertionError(what + " threw " + t, t);
        }
    }

    private static void ok(String what, IntSupplier call) {
        int status = status(what, call);
        check(status == 0, what + " returned " + status + ": " + Acl.getRecentErrMsg());
    }

    private static void misuse(String what, IntSupplier call) {
        int status = status(what, call);
        String message = Acl.getRecentErrMsg();
        check(MISUSE.contains(status), what + " returned " + status + ", expected one of " + MISUSE);
        check(message != null, what + " failed without a recent message");
    }
}
