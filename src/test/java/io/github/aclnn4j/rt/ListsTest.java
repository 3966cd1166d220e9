package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_INVALID;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_NULLPTR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclScalar;
import io.github.aclnn4j.acl.AclScalarList;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclTensorList;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import io.github.aclnn4j.testing.TestDevice;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** aclCreateTensorList / aclCreateScalarList, their sizes and their ownership of their elements. */
class ListsTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    @Test
    void aTensorListOwnsItsTensors() {
        try (DeviceArena arena = new DeviceArena()) {
            Pointer data = arena.buffer(64);
            AclTensor a = Acl.createTensor(new long[] {4}, 1, ACL_FLOAT, null, 0, 2, new long[] {4}, 1, data);
            AclTensor b = Acl.createTensor(new long[] {2, 2}, 2, ACL_FLOAT, null, 0, 2, new long[] {2, 2}, 2, data);
            AclTensorList list = Calls.value("aclCreateTensorList",
                    () -> Acl.createTensorList(new AclTensor[] {a, null, b, a}, 3));
            assertNotNull(list, Acl::getRecentErrMsg);
            long[] size = new long[1];
            Calls.ok("aclGetTensorListSize", () -> Acl.getTensorListSize(list, size));
            assertEquals(3, size[0]);
            Calls.ok("aclDestroyTensorList", () -> Acl.destroyTensorList(list));
            Calls.fails(ACLNN_ERR_PARAM_INVALID, "aclDestroyTensor", "already destroyed", "a tensor of a destroyed list",
                    () -> Acl.destroyTensor(a));
            Calls.fails(ACLNN_ERR_PARAM_INVALID, "aclDestroyTensorList", "already destroyed", "a second destroy",
                    () -> Acl.destroyTensorList(list));
            Calls.fails(ACLNN_ERR_PARAM_INVALID, "aclGetTensorListSize", "destroyed", "size of a destroyed list",
                    () -> Acl.getTensorListSize(list, size));
            Calls.fails(ACLNN_ERR_PARAM_INVALID, "aclCreateTensorList", "value[0] was destroyed", "a destroyed element",
                    () -> Acl.createTensorList(new AclTensor[] {a}, 1) == null ? 161002 : 0);
            Calls.ok("aclDestroyTensorList(null)", () -> Acl.destroyTensorList(null));
        }
    }

    @Test
    void tensorListArgumentsAreChecked() {
        assertNull(Acl.createTensorList(null, 2));
        assertEquals(true, Acl.getRecentErrMsg().contains("value is null"));
        assertNull(Acl.createTensorList(new AclTensor[1], 2));
        assertEquals(true, Acl.getRecentErrMsg().contains("exceeds the array length"));
        assertNull(Acl.createTensorList(new AclTensor[1], -1));
        assertEquals(true, Acl.getRecentErrMsg().contains("size must be >= 0"));
        AclTensorList empty = Acl.createTensorList(null, 0);
        long[] size = {-1};
        Calls.ok("aclGetTensorListSize", () -> Acl.getTensorListSize(empty, size));
        assertEquals(0, size[0]);
        Calls.fails(ACLNN_ERR_PARAM_NULLPTR, "aclGetTensorListSize", "null list", () -> Acl.getTensorListSize(null, size));
        Calls.fails(ACLNN_ERR_PARAM_NULLPTR, "aclGetTensorListSize", "null size", () -> Acl.getTensorListSize(empty, null));
    }

    @Test
    void aScalarListOwnsItsScalars() {
        AclScalar half = Acl.createScalar(Pointer.to(new double[] {0.5}), io.github.aclnn4j.acl.AclDataType.ACL_DOUBLE);
        AclScalar seven = Acl.createScalar(Pointer.to(new long[] {7}), ACL_INT64);
        AclScalarList list = Acl.createScalarList(new AclScalar[] {half, seven}, 2);
        assertNotNull(list, Acl::getRecentErrMsg);
        long[] size = new long[1];
        Calls.ok("aclGetScalarListSize", () -> Acl.getScalarListSize(list, size));
        assertEquals(2, size[0]);
        Calls.ok("aclDestroyScalarList", () -> Acl.destroyScalarList(list));
        Calls.fails(ACLNN_ERR_PARAM_INVALID, "aclCreateScalarList", "value[1] was destroyed", "a destroyed element",
                () -> Acl.createScalarList(new AclScalar[] {null, seven}, 2) == null ? 161002 : 0);
        Calls.fails(ACLNN_ERR_PARAM_INVALID, "aclDestroyScalarList", "already destroyed", "a second destroy",
                () -> Acl.destroyScalarList(list));
    }
}
