package io.github.aclnn4j.nativeabi;

import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_INVALID;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_SUCCESS;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclFloatArray;
import io.github.aclnn4j.acl.AclIntArray;
import io.github.aclnn4j.acl.AclScalar;
import io.github.aclnn4j.acl.AclScalarList;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclTensorList;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.nativeabi.Handles.ExecutorHandle;

/**
 * The C functions of aclnn/acl_meta.h (libnnopbase): tensors, arrays, scalars, their getters and
 * the executor functions. Handle-making functions return the new handle, 0 (C null) on failure.
 */
final class TensorEntries {
    private TensorEntries() {}

    /** Scalars are at most 8 bytes (DOUBLE, INT64); layer 1 reads only the dtype's size. */
    private static final long MAX_SCALAR_BYTES = 8;

    static long aclCreateTensor(long viewDims, long viewDimsNum, int dataType, long stride, long offset, int format,
            long storageDims, long storageDimsNum, long tensorData) {
        String function = "aclCreateTensor";
        Pointer data = new Pointer();
        if (tensorData != 0) {
            data = Pointer.ofDeviceAddress(tensorData);
            if (data == null) {
                throw new Rejected(ACLNN_ERR_PARAM_INVALID, function + ": tensorData (0x" + Long.toHexString(tensorData)
                        + ") is not inside device memory from aclrtMalloc (never allocated, or already freed)");
            }
        }
        return Handles.register(Acl.createTensor(NativeMemory.longs(viewDims, viewDimsNum, function, "viewDims"),
                viewDimsNum, dataType, NativeMemory.longs(stride, viewDimsNum, function, "stride"), offset, format,
                NativeMemory.longs(storageDims, storageDimsNum, function, "storageDims"), storageDimsNum, data));
    }

    static int aclDestroyTensor(long tensor) {
        AclTensor t = tensor(tensor, "aclDestroyTensor");
        return released(Acl.destroyTensor(t), tensor, t);
    }

    static long aclCreateBoolArray(long value, long size) {
        return Handles.register(Acl.createBoolArray(NativeMemory.bools(value, size, "aclCreateBoolArray", "value"), size));
    }

    static int aclDestroyBoolArray(long array) {
        AclBoolArray a = Handles.find(array, AclBoolArray.class, ACLNN_ERR_PARAM_INVALID, "aclDestroyBoolArray", "array");
        return released(Acl.destroyBoolArray(a), array, a);
    }

    static long aclCreateIntArray(long value, long size) {
        return Handles.register(Acl.createIntArray(NativeMemory.longs(value, size, "aclCreateIntArray", "value"), size));
    }

    static int aclDestroyIntArray(long array) {
        AclIntArray a = Handles.find(array, AclIntArray.class, ACLNN_ERR_PARAM_INVALID, "aclDestroyIntArray", "array");
        return released(Acl.destroyIntArray(a), array, a);
    }

    static long aclCreateFloatArray(long value, long size) {
        return Handles.register(Acl.createFloatArray(NativeMemory.floats(value, size, "aclCreateFloatArray", "value"),
                size));
    }

    static int aclDestroyFloatArray(long array) {
        AclFloatArray a = Handles.find(array, AclFloatArray.class, ACLNN_ERR_PARAM_INVALID, "aclDestroyFloatArray",
                "array");
        return released(Acl.destroyFloatArray(a), array, a);
    }

    static long aclCreateScalar(long value, int dataType) {
        Pointer p = value == 0 ? null
                : NativeMemory.host(value, MAX_SCALAR_BYTES, ACLNN_ERR_PARAM_INVALID, "aclCreateScalar", "value");
        return Handles.register(Acl.createScalar(p, dataType));
    }

    static int aclDestroyScalar(long scalar) {
        AclScalar s = Handles.find(scalar, AclScalar.class, ACLNN_ERR_PARAM_INVALID, "aclDestroyScalar", "scalar");
        return released(Acl.destroyScalar(s), scalar, s);
    }

    static long aclCreateTensorList(long value, long size) {
        long[] handles = NativeMemory.longs(value, size, "aclCreateTensorList", "value");
        AclTensor[] tensors = handles == null ? null : new AclTensor[handles.length];
        for (int i = 0; handles != null && i < handles.length; i++) {
            tensors[i] = Handles.find(handles[i], AclTensor.class, ACLNN_ERR_PARAM_INVALID, "aclCreateTensorList",
                    "value[" + i + "]");
        }
        AclTensorList list = Acl.createTensorList(tensors, size);
        return list == null ? 0 : Handles.register(new Handles.ListHandle(list, handles));
    }

    static int aclDestroyTensorList(long list) {
        return destroyList(list, "aclDestroyTensorList", AclTensorList.class,
                l -> Acl.destroyTensorList((AclTensorList) l));
    }

    static int aclGetTensorListSize(long list, long size) {
        return listSize(list, size, "aclGetTensorListSize", AclTensorList.class,
                (l, out) -> Acl.getTensorListSize((AclTensorList) l, out));
    }

    static long aclCreateScalarList(long value, long size) {
        long[] handles = NativeMemory.longs(value, size, "aclCreateScalarList", "value");
        AclScalar[] scalars = handles == null ? null : new AclScalar[handles.length];
        for (int i = 0; handles != null && i < handles.length; i++) {
            scalars[i] = Handles.find(handles[i], AclScalar.class, ACLNN_ERR_PARAM_INVALID, "aclCreateScalarList",
                    "value[" + i + "]");
        }
        AclScalarList list = Acl.createScalarList(scalars, size);
        return list == null ? 0 : Handles.register(new Handles.ListHandle(list, handles));
    }

    static int aclDestroyScalarList(long list) {
        return destroyList(list, "aclDestroyScalarList", AclScalarList.class,
                l -> Acl.destroyScalarList((AclScalarList) l));
    }

    static int aclGetScalarListSize(long list, long size) {
        return listSize(list, size, "aclGetScalarListSize", AclScalarList.class,
                (l, out) -> Acl.getScalarListSize((AclScalarList) l, out));
    }

    /** The list behind {@code handle}, which must hold a list of {@code type}; null for the C null pointer. */
    private static Handles.ListHandle list(long handle, String function, Class<?> type) {
        Handles.ListHandle h = Handles.find(handle, Handles.ListHandle.class, ACLNN_ERR_PARAM_INVALID, function, "list");
        if (h != null && !type.isInstance(h.list())) {
            throw new Rejected(ACLNN_ERR_PARAM_INVALID, function + ": list (0x" + Long.toHexString(handle) + ") is an "
                    + (h.list() instanceof AclTensorList ? "aclTensorList" : "aclScalarList") + ", not an "
                    + (type == AclTensorList.class ? "aclTensorList" : "aclScalarList"));
        }
        return h;
    }

    private static int destroyList(long handle, String function, Class<?> type,
            java.util.function.ToIntFunction<Object> destroy) {
        Handles.ListHandle h = list(handle, function, type);
        int status = destroy.applyAsInt(h == null ? null : h.list());
        if (status == ACLNN_SUCCESS && h != null) {
            Handles.release(handle, h);
            for (long element : h.elements()) { // the list destroyed them
                Handles.release(element);
            }
        }
        return status;
    }

    @FunctionalInterface
    private interface SizeGetter {
        int get(Object list, long[] size);
    }

    private static int listSize(long handle, long size, String function, Class<?> type, SizeGetter getter) {
        Handles.ListHandle h = list(handle, function, type);
        out(size, 8, function, "size");
        long[] out = size == 0 ? null : new long[1];
        int status = getter.get(h == null ? null : h.list(), out);
        if (status == ACLNN_SUCCESS) {
            NativeMemory.putLong(size, out[0]);
        }
        return status;
    }

    private static int released(int status, long handle, Object object) {
        if (status == ACLNN_SUCCESS) {
            Handles.release(handle, object);
        }
        return status;
    }

    @FunctionalInterface
    private interface ArrayGetter {
        int get(AclTensor tensor, long[][] values, long[] count);
    }

    static int aclGetViewShape(long tensor, long viewDims, long viewDimsNum) {
        return arrayOut("aclGetViewShape", "viewDims", tensor, viewDims, viewDimsNum, Acl::getViewShape);
    }

    static int aclGetStorageShape(long tensor, long storageDims, long storageDimsNum) {
        return arrayOut("aclGetStorageShape", "storageDims", tensor, storageDims, storageDimsNum, Acl::getStorageShape);
    }

    static int aclGetViewStrides(long tensor, long stridesValue, long stridesNum) {
        return arrayOut("aclGetViewStrides", "stridesValue", tensor, stridesValue, stridesNum, Acl::getViewStrides);
    }

    /** The array goes to C in memory from {@code malloc}, which the caller releases. */
    private static int arrayOut(String function, String name, long tensor, long values, long count,
            ArrayGetter getter) {
        out(values, 8, function, name);
        out(count, 8, function, name + "'s count");
        long[][] valuesOut = values == 0 ? null : new long[1][];
        long[] countOut = count == 0 ? null : new long[1];
        int status = getter.get(tensor(tensor, function), valuesOut, countOut);
        if (status == ACLNN_SUCCESS) {
            NativeMemory.putLong(values, NativeMemory.mallocCopy(valuesOut[0]));
            NativeMemory.putLong(count, countOut[0]);
        }
        return status;
    }

    static int aclGetViewOffset(long tensor, long offset) {
        out(offset, 8, "aclGetViewOffset", "offset");
        long[] out = offset == 0 ? null : new long[1];
        int status = Acl.getViewOffset(tensor(tensor, "aclGetViewOffset"), out);
        if (status == ACLNN_SUCCESS) {
            NativeMemory.putLong(offset, out[0]);
        }
        return status;
    }

    static int aclGetFormat(long tensor, long format) {
        out(format, 4, "aclGetFormat", "format");
        int[] out = format == 0 ? null : new int[1];
        int status = Acl.getFormat(tensor(tensor, "aclGetFormat"), out);
        if (status == ACLNN_SUCCESS) {
            NativeMemory.putInt(format, out[0]);
        }
        return status;
    }

    static int aclGetDataType(long tensor, long dataType) {
        out(dataType, 4, "aclGetDataType", "dataType");
        int[] out = dataType == 0 ? null : new int[1];
        int status = Acl.getDataType(tensor(tensor, "aclGetDataType"), out);
        if (status == ACLNN_SUCCESS) {
            NativeMemory.putInt(dataType, out[0]);
        }
        return status;
    }

    /** Checks an out-parameter before the call. */
    private static void out(long address, int bytes, String function, String name) {
        NativeMemory.checked(address, bytes, ACLNN_ERR_PARAM_INVALID, function, name);
    }

    private static AclTensor tensor(long handle, String function) {
        return Handles.find(handle, AclTensor.class, ACLNN_ERR_PARAM_INVALID, function, "tensor");
    }

    static int aclSetAclOpExecutorRepeatable(long executor) {
        ExecutorHandle e = executor(executor, "aclSetAclOpExecutorRepeatable");
        int status = Acl.setAclOpExecutorRepeatable(e == null ? null : e.holder);
        if (status == ACLNN_SUCCESS) {
            e.repeatable = true;
        }
        return status;
    }

    static int aclDestroyAclOpExecutor(long executor) {
        ExecutorHandle e = executor(executor, "aclDestroyAclOpExecutor");
        return released(Acl.destroyAclOpExecutor(e == null ? null : e.holder), executor, e);
    }

    private static ExecutorHandle executor(long handle, String function) {
        return Handles.find(handle, ExecutorHandle.class, ACLNN_ERR_PARAM_INVALID, function, "executor");
    }
}
