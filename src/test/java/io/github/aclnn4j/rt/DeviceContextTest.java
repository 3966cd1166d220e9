package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclrtContext;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import io.github.aclnn4j.checks.Operator;
import io.github.aclnn4j.testing.TestDevice;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §1–2: devices (id range, the deviceCount property) and contexts. */
class DeviceContextTest {

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    private static int currentDevice() {
        int[] id = {-1};
        Calls.ok("aclrtGetDevice", () -> AclRt.getDevice(id));
        return id[0];
    }

    private static int deviceCount() {
        int[] count = {-1};
        Calls.ok("aclrtGetDeviceCount", () -> AclRt.getDeviceCount(count));
        return count[0];
    }

    @Test
    void deviceZeroAndTheRange() {
        assertEquals(0, currentDevice());
        int count = deviceCount();
        assertTrue(count >= 1, "device count " + count);
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetDevice", "aclrtSetDevice(count)", () -> AclRt.setDevice(count));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetDevice", "aclrtSetDevice(-1)", () -> AclRt.setDevice(-1));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetDevice", "aclrtSetDevice(MAX)",
                () -> AclRt.setDevice(Integer.MAX_VALUE));
        assertEquals(0, currentDevice(), "a refused aclrtSetDevice changed the device");
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice", "aclrtGetDevice(null)", () -> AclRt.getDevice(null));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice", "aclrtGetDevice(int[0])",
                () -> AclRt.getDevice(new int[0]));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount", "aclrtGetDeviceCount(null)",
                () -> AclRt.getDeviceCount(null));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtResetDevice", "aclrtResetDevice(-1)", () -> AclRt.resetDevice(-1));
    }

    @Test
    void resetDeviceThenSetItAgain() {
        Calls.ok("aclrtResetDevice(0)", () -> AclRt.resetDevice(0));
        TestDevice.init();
        try (DeviceArena arena = new DeviceArena()) {
            Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT).run(null);
        }
    }

    /** With the deviceCount property at 2, device 1 exists and works; the default is restored afterwards. */
    @Test
    void twoDevices() {
        Calls.ok("aclFinalize", Acl::finalizeAcl);
        String before = System.getProperty("aclnn4j.deviceCount");
        System.setProperty("aclnn4j.deviceCount", "2");
        try {
            TestDevice.init();
            assertEquals(2, deviceCount());
            Calls.ok("aclrtSetDevice(1)", () -> AclRt.setDevice(1));
            assertEquals(1, currentDevice());
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetDevice", "aclrtSetDevice(2)", () -> AclRt.setDevice(2));
            AclrtStream stream = new AclrtStream();
            Calls.ok("aclrtCreateStream on device 1", () -> AclRt.createStream(stream));
            try (DeviceArena arena = new DeviceArena()) { // DeviceArena selects device 0 again
                Calls.ok("aclrtSetDevice(1)", () -> AclRt.setDevice(1));
                Operator.PRELU_BACKWARD.baseline(arena, ACL_FLOAT).run(stream);
                Operator.PRELU_BACKWARD.baseline(arena, ACL_FLOAT).run(null);
            }
            Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(stream));
        } finally {
            if (before == null) {
                System.clearProperty("aclnn4j.deviceCount");
            } else {
                System.setProperty("aclnn4j.deviceCount", before);
            }
            Calls.status("aclFinalize", Acl::finalizeAcl);
            TestDevice.init();
        }
        assertEquals(Integer.getInteger("aclnn4j.deviceCount", 1), deviceCount());
    }

    @Test
    void contexts() {
        try {
            AclrtContext context = new AclrtContext();
            Calls.ok("aclrtCreateContext", () -> AclRt.createContext(context, 0));
            assertEquals(0, currentDevice());
            Calls.ok("aclrtSetCurrentContext", () -> AclRt.setCurrentContext(context));
            try (DeviceArena arena = new DeviceArena()) {
                Calls.ok("aclrtSetCurrentContext", () -> AclRt.setCurrentContext(context));
                Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT).run(null);
            }
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext", "aclrtCreateContext(null)",
                    () -> AclRt.createContext(null, 0));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext", "aclrtCreateContext(device 99)",
                    () -> AclRt.createContext(new AclrtContext(), 99));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext", "aclrtSetCurrentContext(null)",
                    () -> AclRt.setCurrentContext(null));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext", "aclrtSetCurrentContext(empty)",
                    () -> AclRt.setCurrentContext(new AclrtContext()));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext", "aclrtDestroyContext(null)",
                    () -> AclRt.destroyContext(null));
            Calls.ok("aclrtDestroyContext", () -> AclRt.destroyContext(context));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext", "second aclrtDestroyContext",
                    () -> AclRt.destroyContext(context));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext", "aclrtSetCurrentContext(destroyed)",
                    () -> AclRt.setCurrentContext(context));
        } finally {
            TestDevice.init();
        }
    }
}
