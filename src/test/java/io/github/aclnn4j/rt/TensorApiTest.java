package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclFloatArray;
import io.github.aclnn4j.acl.AclIntArray;
import io.github.aclnn4j.acl.AclScalar;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.testing.TestDevice;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §2 "Tensors and arrays": aclCreateTensor's argument checks, the getters, arrays and scalars. */
class TensorApiTest {
    private static final int NULLPTR = 161001;
    private static final int INVALID = 161002;
    private Pointer data;

    @BeforeEach
    void init() {
        TestDevice.init();
        data = TestDevice.malloc(4096);
    }

    @AfterEach
    void release() {
        TestDevice.free(data);
    }

    private AclTensor create(long[] dims, long n, long[] strides, long offset, int format, long[] storage, long sn) {
        return Calls.value("aclCreateTensor", () -> Acl.createTensor(dims, n, ACL_FLOAT, strides, offset, format,
                storage, sn, data));
    }

    private static void assertNullHandle(String what, Supplier<?> call) {
        assertNull(Calls.value(what, call::get), what + " should give null");
        Acl.getRecentErrMsg();
    }

    @Test
    void createTensorRefusesCountsItsArraysCannotBack() {
        long[] two = {2, 3};
        assertNullHandle("null viewDims, count 2", () -> Acl.createTensor(null, 2, ACL_FLOAT, null, 0, ACL_FORMAT_ND,
                two, 2, data));
        assertNullHandle("viewDims count 3 > length 2", () -> Acl.createTensor(two, 3, ACL_FLOAT, null, 0,
                ACL_FORMAT_ND, two, 2, data));
        assertNullHandle("viewDims count -1", () -> Acl.createTensor(two, -1, ACL_FLOAT, null, 0, ACL_FORMAT_ND, two, 2,
                data));
        assertNullHandle("null storageDims, count 2", () -> Acl.createTensor(two, 2, ACL_FLOAT, null, 0,
                ACL_FORMAT_ND, null, 2, data));
        assertNullHandle("storageDims count 5 > length 2", () -> Acl.createTensor(two, 2, ACL_FLOAT, null, 0,
                ACL_FORMAT_ND, two, 5, data));
        assertNullHandle("stride array shorter than the view", () -> Acl.createTensor(two, 2, ACL_FLOAT, new long[] {1},
                0, ACL_FORMAT_ND, two, 2, data));
    }

    @Test
    void gettersReturnWhatWasGiven() {
        long[] dims = {2, 3, 4, 99};
        long[] strides = {1, 2, 6, 7};
        long[] storage = {24, 5};
        AclTensor t = create(dims, 3, strides, 5, ACL_FORMAT_NCHW, storage, 1);
        assertNotNull(t, () -> "aclCreateTensor: " + Acl.getRecentErrMsg());
        // the caller's arrays are copied, as C callers free theirs right after
        dims[0] = 77;
        strides[0] = 77;
        storage[0] = 77;
        long[][] out = new long[1][];
        long[] num = {-1};
        Calls.ok("aclGetViewShape", () -> Acl.getViewShape(t, out, num));
        assertArrayEquals(new long[] {2, 3, 4}, out[0]);
        assertEquals(3, num[0]);
        Calls.ok("aclGetViewStrides", () -> Acl.getViewStrides(t, out, num));
        assertArrayEquals(new long[] {1, 2, 6}, out[0]);
        assertEquals(3, num[0]);
        Calls.ok("aclGetStorageShape", () -> Acl.getStorageShape(t, out, num));
        assertArrayEquals(new long[] {24}, out[0]);
        assertEquals(1, num[0]);
        long[] offset = {-1};
        Calls.ok("aclGetViewOffset", () -> Acl.getViewOffset(t, offset));
        assertEquals(5, offset[0]);
        int[] format = {-5};
        Calls.ok("aclGetFormat", () -> Acl.getFormat(t, format));
        assertEquals(ACL_FORMAT_NCHW, format[0]);
        int[] dtype = {-5};
        Calls.ok("aclGetDataType", () -> Acl.getDataType(t, dtype));
        assertEquals(ACL_FLOAT, dtype[0]);
        Calls.ok("aclDestroyTensor", () -> Acl.destroyTensor(t));
    }

    @Test
    void nullStridesMeanContiguousAndZeroDimsMeanScalar() {
        AclTensor t = create(new long[] {2, 3, 4}, 3, null, 0, ACL_FORMAT_ND, new long[] {2, 3, 4}, 3);
        long[][] out = new long[1][];
        long[] num = new long[1];
        Calls.ok("aclGetViewStrides", () -> Acl.getViewStrides(t, out, num));
        assertArrayEquals(new long[] {12, 4, 1}, out[0]);
        AclTensor scalar = create(null, 0, null, 0, ACL_FORMAT_ND, null, 0);
        assertNotNull(scalar, "a 0-d tensor has no dims to give");
        Calls.ok("aclGetViewShape", () -> Acl.getViewShape(scalar, out, num));
        assertEquals(0, num[0]);
        assertEquals(0, out[0].length);
        Calls.ok("aclDestroyTensor", () -> Acl.destroyTensor(t));
        Calls.ok("aclDestroyTensor", () -> Acl.destroyTensor(scalar));
    }

    @Test
    void gettersWithNullArguments() {
        AclTensor t = create(new long[] {2, 3}, 2, null, 0, ACL_FORMAT_ND, new long[] {2, 3}, 2);
        long[][] dims = new long[1][];
        long[] num = new long[1];
        Calls.fails(NULLPTR, "aclGetViewShape", "aclGetViewShape(null tensor)",
                () -> Acl.getViewShape(null, dims, num));
        Calls.fails(NULLPTR, "aclGetViewShape", "aclGetViewShape(null dims)", () -> Acl.getViewShape(t, null, num));
        Calls.fails(NULLPTR, "aclGetViewShape", "aclGetViewShape(null num)", () -> Acl.getViewShape(t, dims, null));
        Calls.fails(NULLPTR, "aclGetStorageShape", "aclGetStorageShape(null tensor)",
                () -> Acl.getStorageShape(null, dims, num));
        Calls.fails(NULLPTR, "aclGetStorageShape", "aclGetStorageShape(null dims)",
                () -> Acl.getStorageShape(t, null, num));
        Calls.fails(NULLPTR, "aclGetStorageShape", "aclGetStorageShape(null num)",
                () -> Acl.getStorageShape(t, dims, null));
        Calls.fails(NULLPTR, "aclGetViewStrides", "aclGetViewStrides(null tensor)",
                () -> Acl.getViewStrides(null, dims, num));
        Calls.fails(NULLPTR, "aclGetViewStrides", "aclGetViewStrides(null strides)",
                () -> Acl.getViewStrides(t, null, num));
        Calls.fails(NULLPTR, "aclGetViewStrides", "aclGetViewStrides(null num)",
                () -> Acl.getViewStrides(t, dims, null));
        Calls.fails(NULLPTR, "aclGetViewOffset", "aclGetViewOffset(null tensor)", () -> Acl.getViewOffset(null, num));
        Calls.fails(NULLPTR, "aclGetViewOffset", "aclGetViewOffset(null offset)", () -> Acl.getViewOffset(t, null));
        Calls.fails(NULLPTR, "aclGetFormat", "aclGetFormat(null tensor)", () -> Acl.getFormat(null, new int[1]));
        Calls.fails(NULLPTR, "aclGetFormat", "aclGetFormat(null format)", () -> Acl.getFormat(t, null));
        Calls.fails(NULLPTR, "aclGetDataType", "aclGetDataType(null tensor)", () -> Acl.getDataType(null, new int[1]));
        Calls.fails(NULLPTR, "aclGetDataType", "aclGetDataType(null dataType)", () -> Acl.getDataType(t, null));
        Calls.ok("aclDestroyTensor", () -> Acl.destroyTensor(t));
        Calls.fails(INVALID, "aclGetViewShape", "was destroyed", "aclGetViewShape of a destroyed tensor",
                () -> Acl.getViewShape(t, dims, num));
        Calls.ok("aclDestroyTensor(null)", () -> Acl.destroyTensor(null));
    }

    @Test
    void arrays() {
        boolean[] flags = {true, false, true};
        AclBoolArray bools = Calls.value("aclCreateBoolArray", () -> Acl.createBoolArray(flags, 3));
        assertNotNull(bools);
        assertNotNull(Calls.value("aclCreateBoolArray prefix", () -> Acl.createBoolArray(flags, 2)));
        assertNullHandle("aclCreateBoolArray(null, 2)", () -> Acl.createBoolArray(null, 2));
        assertNullHandle("aclCreateBoolArray(size > length)", () -> Acl.createBoolArray(flags, 4));
        assertNullHandle("aclCreateBoolArray(size -1)", () -> Acl.createBoolArray(flags, -1));
        long[] longs = {1, 2, 3};
        AclIntArray ints = Calls.value("aclCreateIntArray", () -> Acl.createIntArray(longs, 3));
        assertNotNull(ints);
        assertNullHandle("aclCreateIntArray(null, 1)", () -> Acl.createIntArray(null, 1));
        assertNullHandle("aclCreateIntArray(size > length)", () -> Acl.createIntArray(longs, 4));
        float[] floats = {1.5f, 2.5f};
        AclFloatArray fl = Calls.value("aclCreateFloatArray", () -> Acl.createFloatArray(floats, 2));
        assertNotNull(fl);
        assertNullHandle("aclCreateFloatArray(null, 1)", () -> Acl.createFloatArray(null, 1));
        assertNullHandle("aclCreateFloatArray(size > length)", () -> Acl.createFloatArray(floats, 3));
        Calls.ok("aclDestroyBoolArray", () -> Acl.destroyBoolArray(bools));
        Calls.ok("aclDestroyIntArray", () -> Acl.destroyIntArray(ints));
        Calls.ok("aclDestroyFloatArray", () -> Acl.destroyFloatArray(fl));
        Calls.ok("aclDestroyBoolArray(null)", () -> Acl.destroyBoolArray(null));
        Calls.ok("aclDestroyIntArray(null)", () -> Acl.destroyIntArray(null));
        Calls.ok("aclDestroyFloatArray(null)", () -> Acl.destroyFloatArray(null));
    }

    @Test
    void scalars() {
        AclScalar f = Calls.value("aclCreateScalar FLOAT", () -> Acl.createScalar(Pointer.to(new float[] {2.5f}),
                ACL_FLOAT));
        assertNotNull(f);
        AclScalar h = Calls.value("aclCreateScalar FLOAT16", () -> Acl.createScalar(Pointer.to(new short[] {0x3C00}),
                ACL_FLOAT16));
        assertNotNull(h);
        AclScalar l = Calls.value("aclCreateScalar INT64",
                () -> Acl.createScalar(Pointer.to(new long[] {7}), ACL_INT64));
        assertNotNull(l);
        AclScalar d = Calls.value("aclCreateScalar from device memory", () -> Acl.createScalar(data, ACL_INT32));
        assertNotNull(d);
        assertNullHandle("aclCreateScalar(null)", () -> Acl.createScalar(null, ACL_FLOAT));
        assertNullHandle("aclCreateScalar(null pointer)", () -> Acl.createScalar(new Pointer(), ACL_FLOAT));
        assertNullHandle("aclCreateScalar(FLOAT from one byte)",
                () -> Acl.createScalar(Pointer.to(new byte[1]), ACL_FLOAT));
        assertNullHandle("aclCreateScalar(INT64 past the end)",
                () -> Acl.createScalar(Pointer.to(new long[1]).withByteOffset(4), ACL_INT64));
        assertNullHandle("aclCreateScalar(dtype 99)", () -> Acl.createScalar(Pointer.to(new long[1]), 99));
        for (AclScalar s : new AclScalar[] {f, h, l, d, null}) {
            Calls.ok("aclDestroyScalar", () -> Acl.destroyScalar(s));
        }
    }
}
