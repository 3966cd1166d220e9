package io.github.aclnn4j.acl;

import io.github.aclnn4j.op.Executor;
import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.runtime.ErrorLog;
import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.MemoryBlock;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The {@code acl*} functions of acl.h and aclnn/acl_meta.h: initialization, the recent error
 * message, tensors, arrays, scalars and executors. Every method returns the C status (or the C
 * handle, null on failure) and never throws.
 */
public final class Acl {
    private Acl() {}

    /** {@code aclInit}: a second call without {@link #finalizeAcl} is ACL_ERROR_REPEAT_INITIALIZE. */
    public static int init(String configPath) {
        return Guard.acl("aclInit", new Guard.Call() {
            @Override
            public void run() {
                AclRuntime.init(configPath);
            }
        });
    }

    /** {@code aclFinalize}: waits for all streams, then releases every stream and all device memory. */
    public static int finalizeAcl() {
        return Guard.acl("aclFinalize", new Guard.Call() {
            @Override
            public void run() {
                AclRuntime.finalizeRuntime();
            }
        });
    }

    /**
     * {@code aclFloatToFloat16}: {@code value} rounded to the nearest FLOAT16 (ties to even), as
     * CANN's runtime converts: saturating, so a value beyond the FLOAT16 range, an infinity and NaN
     * all become the largest finite value of their sign, ±65504 ({@code 0x7BFF}, {@code 0xFBFF}).
     */
    public static short floatToFloat16(float value) {
        short half = Float.floatToFloat16(value);
        if ((half & 0x7C00) == 0x7C00) { // an infinity or NaN: the input was out of range, infinite or NaN
            return (short) ((Float.floatToRawIntBits(value) >>> 16 & 0x8000) | 0x7BFF);
        }
        return half;
    }

    /**
     * {@code aclFloat16ToFloat}: the value of the FLOAT16 bits {@code value}, exactly, as CANN's
     * runtime reads them: without infinities or NaN, so the largest exponent is an ordinary one
     * ({@code 0x7C00}, IEEE's infinity, reads 65536; {@code 0x7E00}, a NaN, 98304).
     */
    public static float float16ToFloat(short value) {
        if ((value & 0x7C00) == 0x7C00) {
            float magnitude = 65536f * (1 + (value & 0x3FF) / 1024f);
            return value < 0 ? -magnitude : magnitude;
        }
        return Float.float16ToFloat(value);
    }

    /**
     * {@code aclGetRecentErrMsg}: the message of the last failed call on this thread, or null when
     * there is none. Reading it clears it.
     */
    public static String getRecentErrMsg() {
        return ErrorLog.take();
    }

    /**
     * {@code aclCreateTensor}: a view of {@code viewDimsNum} dimensions over {@code tensorData};
     * offset and strides are in elements, a null {@code stride} means contiguous. Returns null for
     * arrays shorter than their counts or a negative count. Shapes, strides and offsets are checked
     * by the operators that use the tensor.
     */
    public static AclTensor createTensor(long[] viewDims, long viewDimsNum, int dataType, long[] stride, long offset,
            int format, long[] storageDims, long storageDimsNum, Pointer tensorData) {
        return Guard.make("aclCreateTensor", new Supplier<AclTensor>() {
            @Override
            public AclTensor get() {
                long[] shape = prefix("aclCreateTensor", "viewDims", viewDims, viewDimsNum);
                long[] strides;
                if (stride == null) {
                    strides = Shapes.contiguousStrides(shape);
                } else if (stride.length < shape.length) {
                    throw Status.invalid("aclCreateTensor: stride has " + stride.length + " elements, viewDimsNum is "
                            + shape.length);
                } else {
                    strides = Arrays.copyOf(stride, shape.length);
                }
                long[] storage = prefix("aclCreateTensor", "storageDims", storageDims, storageDimsNum);
                MemoryBlock block = tensorData == null ? null : tensorData.block();
                long blockOffset = tensorData == null ? 0 : tensorData.byteOffset();
                return new AclTensor(new TensorDesc(shape, strides, offset, dataType, format, storage, block,
                        blockOffset));
            }
        });
    }

    private static long[] prefix(String function, String name, long[] values, long count) {
        if (count < 0) {
            throw Status.invalid(function + ": " + name + " count must be >= 0, got " + count);
        }
        if (count == 0) {
            return new long[0];
        }
        if (values == null) {
            throw Status.nullptr(function + ": " + name + " is null but its count is " + count);
        }
        if (count > values.length) {
            throw Status.invalid(function + ": " + name + " count " + count + " exceeds the array length " + values.length);
        }
        return Arrays.copyOf(values, (int) count);
    }

    /** {@code aclDestroyTensor}: null is fine; destroying twice is 161002. */
    public static int destroyTensor(AclTensor tensor) {
        return Guard.aclnn("aclDestroyTensor", new Guard.Call() {
            @Override
            public void run() {
                if (tensor == null) {
                    return;
                }
                synchronized (tensor) {
                    if (tensor.desc.isDestroyed()) {
                        throw Status.invalid("aclDestroyTensor: the tensor was already destroyed");
                    }
                    tensor.desc.destroy();
                }
            }
        });
    }

    /** {@code aclCreateBoolArray}: copies the first {@code size} values. */
    public static AclBoolArray createBoolArray(boolean[] value, long size) {
        return Guard.make("aclCreateBoolArray", new Supplier<AclBoolArray>() {
            @Override
            public AclBoolArray get() {
                checkCount("aclCreateBoolArray", value == null ? -1 : value.length, size);
                return new AclBoolArray(size == 0 ? new boolean[0] : Arrays.copyOf(value, (int) size));
            }
        });
    }

    /** {@code aclDestroyBoolArray}: null is fine; an operator given the array afterwards refuses it (161002). */
    public static int destroyBoolArray(AclBoolArray array) {
        return Guard.aclnn("aclDestroyBoolArray", new Guard.Call() {
            @Override
            public void run() {
                if (array != null) {
                    array.destroyed = true;
                }
            }
        });
    }

    /** {@code aclCreateIntArray}: copies the first {@code size} values. */
    public static AclIntArray createIntArray(long[] value, long size) {
        return Guard.make("aclCreateIntArray", () -> {
            checkCount("aclCreateIntArray", value == null ? -1 : value.length, size);
            return new AclIntArray(size == 0 ? new long[0] : Arrays.copyOf(value, (int) size));
        });
    }

    /** {@code aclDestroyIntArray}: null is fine. */
    public static int destroyIntArray(AclIntArray array) {
        return Guard.aclnn("aclDestroyIntArray", () -> {
            if (array != null) {
                array.destroyed = true;
            }
        });
    }

    /** {@code aclCreateFloatArray}: copies the first {@code size} values. */
    public static AclFloatArray createFloatArray(float[] value, long size) {
        return Guard.make("aclCreateFloatArray", () -> {
            checkCount("aclCreateFloatArray", value == null ? -1 : value.length, size);
            return new AclFloatArray(size == 0 ? new float[0] : Arrays.copyOf(value, (int) size));
        });
    }

    /** {@code aclDestroyFloatArray}: null is fine. */
    public static int destroyFloatArray(AclFloatArray array) {
        return Guard.aclnn("aclDestroyFloatArray", () -> {
            if (array != null) {
                array.destroyed = true;
            }
        });
    }

    private static void checkCount(String function, int length, long size) {
        if (size < 0) {
            throw Status.invalid(function + ": size must be >= 0, got " + size);
        }
        if (size > 0 && length < 0) {
            throw Status.nullptr(function + ": value is null but size is " + size);
        }
        if (size > length && size > 0) {
            throw Status.invalid(function + ": size " + size + " exceeds the array length " + length);
        }
    }

    /** {@code aclCreateScalar}: reads one value of {@code dataType} from {@code value}. */
    public static AclScalar createScalar(Pointer value, int dataType) {
        return Guard.make("aclCreateScalar", () -> {
            if (value == null || value.isNull()) {
                throw Status.nullptr("aclCreateScalar: value must not be null");
            }
            DType type = DType.of(dataType);
            if (type == null || !(type.isFloating() || type.isIntegral() || type == DType.BOOL)) {
                throw Status.invalid("aclCreateScalar: unsupported dataType " + DType.nameOf(dataType));
            }
            MemorySegment seg = value.block().segment();
            long at = value.byteOffset();
            if (at < 0 || at > seg.byteSize() - type.byteSize) {
                throw Status.invalid("aclCreateScalar: a " + type.byteSize + "-byte value at byte " + at
                        + " lies outside " + value.block().describe());
            }
            return new AclScalar(dataType, readScalar(seg, at, type));
        });
    }

    private static double readScalar(MemorySegment seg, long at, DType type) {
        return switch (type) {
            case FLOAT -> seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at);
            case DOUBLE -> seg.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
            case FLOAT16 -> HalfFloats.fromHalf(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, at));
            case BF16 -> HalfFloats.fromBf16(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, at));
            case INT8 -> seg.get(ValueLayout.JAVA_BYTE, at);
            case UINT8, BOOL -> seg.get(ValueLayout.JAVA_BYTE, at) & 0xFF;
            case INT16 -> seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, at);
            case UINT16 -> seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, at) & 0xFFFF;
            case INT32 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, at);
            case UINT32 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, at) & 0xFFFFFFFFL;
            case INT64, UINT64 -> seg.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
            default -> throw new IllegalArgumentException(type.name());
        };
    }

    /** {@code aclDestroyScalar}: null is fine. */
    public static int destroyScalar(AclScalar scalar) {
        return Guard.aclnn("aclDestroyScalar", () -> {
            if (scalar != null) {
                scalar.destroyed = true;
            }
        });
    }

    /**
     * {@code aclCreateTensorList}: a list of the first {@code size} tensors of {@code value} (null
     * elements are kept; a destroyed one is refused). The list owns them: see
     * {@link #destroyTensorList}.
     */
    public static AclTensorList createTensorList(AclTensor[] value, long size) {
        return Guard.make("aclCreateTensorList", () -> {
            checkCount("aclCreateTensorList", value == null ? -1 : value.length, size);
            AclTensor[] tensors = size == 0 ? new AclTensor[0] : Arrays.copyOf(value, (int) size);
            for (int i = 0; i < tensors.length; i++) {
                if (tensors[i] != null && tensors[i].desc.isDestroyed()) {
                    throw Status.invalid("aclCreateTensorList: value[" + i + "] was destroyed (aclDestroyTensor)");
                }
            }
            return new AclTensorList(tensors);
        });
    }

    /**
     * {@code aclDestroyTensorList}: destroys the list and the tensors in it (which need no
     * {@link #destroyTensor} of their own; one destroyed already is skipped). Null is fine;
     * destroying the list twice is 161002.
     */
    public static int destroyTensorList(AclTensorList list) {
        return Guard.aclnn("aclDestroyTensorList", () -> {
            if (list == null) {
                return;
            }
            synchronized (list) {
                if (list.destroyed) {
                    throw Status.invalid("aclDestroyTensorList: the list was already destroyed");
                }
                list.destroyed = true;
            }
            for (AclTensor t : list.tensors) {
                if (t != null) {
                    synchronized (t) {
                        if (!t.desc.isDestroyed()) {
                            t.desc.destroy();
                        }
                    }
                }
            }
        });
    }

    /** {@code aclGetTensorListSize}: element 0 of {@code size} is written. */
    public static int getTensorListSize(AclTensorList list, long[] size) {
        return Guard.aclnn("aclGetTensorListSize", () -> {
            listSizeArguments("aclGetTensorListSize", list == null, size);
            if (list.destroyed) {
                throw Status.invalid("aclGetTensorListSize: the list was destroyed");
            }
            size[0] = list.tensors.length;
        });
    }

    /**
     * {@code aclCreateScalarList}: a list of the first {@code size} scalars of {@code value} (null
     * elements are kept; a destroyed one is refused). The list owns them: see
     * {@link #destroyScalarList}.
     */
    public static AclScalarList createScalarList(AclScalar[] value, long size) {
        return Guard.make("aclCreateScalarList", () -> {
            checkCount("aclCreateScalarList", value == null ? -1 : value.length, size);
            AclScalar[] scalars = size == 0 ? new AclScalar[0] : Arrays.copyOf(value, (int) size);
            for (int i = 0; i < scalars.length; i++) {
                if (scalars[i] != null && scalars[i].destroyed) {
                    throw Status.invalid("aclCreateScalarList: value[" + i + "] was destroyed (aclDestroyScalar)");
                }
            }
            return new AclScalarList(scalars);
        });
    }

    /**
     * {@code aclDestroyScalarList}: destroys the list and the scalars in it. Null is fine;
     * destroying the list twice is 161002.
     */
    public static int destroyScalarList(AclScalarList list) {
        return Guard.aclnn("aclDestroyScalarList", () -> {
            if (list == null) {
                return;
            }
            synchronized (list) {
                if (list.destroyed) {
                    throw Status.invalid("aclDestroyScalarList: the list was already destroyed");
                }
                list.destroyed = true;
            }
            for (AclScalar s : list.scalars) {
                if (s != null) {
                    s.destroyed = true;
                }
            }
        });
    }

    /** {@code aclGetScalarListSize}: element 0 of {@code size} is written. */
    public static int getScalarListSize(AclScalarList list, long[] size) {
        return Guard.aclnn("aclGetScalarListSize", () -> {
            listSizeArguments("aclGetScalarListSize", list == null, size);
            if (list.destroyed) {
                throw Status.invalid("aclGetScalarListSize: the list was destroyed");
            }
            size[0] = list.scalars.length;
        });
    }

    private static void listSizeArguments(String function, boolean noList, long[] size) {
        if (noList) {
            throw Status.nullptr(function + ": the list must not be null");
        }
        if (size == null || size.length < 1) {
            throw Status.nullptr(function + ": size must be an array of at least one element");
        }
    }

    /** {@code aclGetViewShape}: element 0 of each out-array is written. */
    public static int getViewShape(AclTensor tensor, long[][] viewDims, long[] viewDimsNum) {
        return Guard.aclnn("aclGetViewShape", () -> {
            TensorDesc d = readable("aclGetViewShape", tensor, viewDims, viewDimsNum);
            viewDims[0] = d.shape();
            viewDimsNum[0] = d.rank();
        });
    }

    /** {@code aclGetStorageShape}: element 0 of each out-array is written. */
    public static int getStorageShape(AclTensor tensor, long[][] storageDims, long[] storageDimsNum) {
        return Guard.aclnn("aclGetStorageShape", () -> {
            TensorDesc d = readable("aclGetStorageShape", tensor, storageDims, storageDimsNum);
            long[] storage = d.storageShape();
            storageDims[0] = storage;
            storageDimsNum[0] = storage.length;
        });
    }

    /** {@code aclGetViewStrides}: element 0 of each out-array is written. */
    public static int getViewStrides(AclTensor tensor, long[][] stridesValue, long[] stridesNum) {
        return Guard.aclnn("aclGetViewStrides", () -> {
            TensorDesc d = readable("aclGetViewStrides", tensor, stridesValue, stridesNum);
            stridesValue[0] = d.strides();
            stridesNum[0] = d.rank();
        });
    }

    /** {@code aclGetViewOffset}: element 0 of {@code offset} is written. */
    public static int getViewOffset(AclTensor tensor, long[] offset) {
        return Guard.aclnn("aclGetViewOffset", () -> {
            TensorDesc d = readable("aclGetViewOffset", tensor, offset, offset);
            offset[0] = d.offset();
        });
    }

    /** {@code aclGetFormat}: element 0 of {@code format} is written. */
    public static int getFormat(AclTensor tensor, int[] format) {
        return Guard.aclnn("aclGetFormat", () -> {
            TensorDesc d = readable("aclGetFormat", tensor, format, format);
            format[0] = d.format();
        });
    }

    /** {@code aclGetDataType}: element 0 of {@code dataType} is written. */
    public static int getDataType(AclTensor tensor, int[] dataType) {
        return Guard.aclnn("aclGetDataType", () -> {
            TensorDesc d = readable("aclGetDataType", tensor, dataType, dataType);
            dataType[0] = d.dtypeCode();
        });
    }

    private static TensorDesc readable(String function, AclTensor tensor, Object out1, Object out2) {
        if (tensor == null) {
            throw Guard.nullArg(function, "tensor");
        }
        if (out1 == null || out2 == null) {
            throw Guard.nullArg(function, "the output argument");
        }
        if (java.lang.reflect.Array.getLength(out1) < 1 || java.lang.reflect.Array.getLength(out2) < 1) {
            throw Status.invalid(function + ": the output array must have at least one element");
        }
        if (tensor.desc.isDestroyed()) {
            throw Status.invalid(function + ": the tensor was destroyed");
        }
        return tensor.desc;
    }

    /**
     * {@code aclSetAclOpExecutorRepeatable}: lets the executor filled by the last phase 1 run any
     * number of times, until {@link #destroyAclOpExecutor}. Must come before its first run.
     */
    public static int setAclOpExecutorRepeatable(AclOpExecutor executor) {
        return Guard.aclnn("aclSetAclOpExecutorRepeatable", () -> executorOf("aclSetAclOpExecutorRepeatable", executor)
                .makeRepeatable());
    }

    /**
     * {@code aclDestroyAclOpExecutor}: releases the executor; null is ACLNN_ERR_INNER_NULLPTR. The
     * holder keeps it, as a C caller keeps the dangling pointer: running or destroying it again is
     * ACLNN_ERR_PARAM_INVALID, saying it was destroyed.
     */
    public static int destroyAclOpExecutor(AclOpExecutor executor) {
        return Guard.aclnn("aclDestroyAclOpExecutor", new Guard.Call() {
            @Override
            public void run() {
                executorOf("aclDestroyAclOpExecutor", executor).destroy();
            }
        });
    }

    private static Executor executorOf(String function, AclOpExecutor holder) {
        Executor e = holder == null ? null : holder.executor;
        if (e == null) {
            throw new Failure(Status.INNER_NULLPTR, function + ": executor is null");
        }
        return e;
    }
}
