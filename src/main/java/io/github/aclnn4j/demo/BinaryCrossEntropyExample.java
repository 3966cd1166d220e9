package io.github.aclnn4j.demo;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclError.ACL_SUCCESS;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.Arrays;
import java.util.Locale;

/**
 * A calling example for aclnnBinaryCrossEntropy in the style of the operator documents: a [2, 3]
 * batch of probabilities against targets, a weight per column, reduction mean; the C twin is
 * native/test/examples/binary_cross_entropy.cpp.
 */
public final class BinaryCrossEntropyExample {
    private BinaryCrossEntropyExample() {}

    private static long getShapeSize(long[] shape) {
        long shapeSize = 1;
        for (long i : shape) {
            shapeSize *= i;
        }
        return shapeSize;
    }

    private static int init(int deviceId, AclrtStream stream) {
        // AscendCL initialization, always the same
        int ret = Acl.init(null);
        if (ret != ACL_SUCCESS) { logPrint("aclInit failed. ERROR: %d\n", ret); return ret; }
        ret = AclRt.setDevice(deviceId);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSetDevice failed. ERROR: %d\n", ret); return ret; }
        ret = AclRt.createStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtCreateStream failed. ERROR: %d\n", ret); return ret; }
        return 0;
    }

    /** {@code CreateAclTensor<float>}: {@code tensor[0]} plays the part of the {@code aclTensor**} out-parameter. */
    private static int createAclTensor(float[] hostData, long[] shape, Pointer deviceAddr, int dataType,
            AclTensor[] tensor) {
        long size = getShapeSize(shape) * Float.BYTES;
        // aclrtMalloc allocates the device memory
        int ret = AclRt.malloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (ret != ACL_SUCCESS) { logPrint("aclrtMalloc failed. ERROR: %d\n", ret); return ret; }
        // aclrtMemcpy copies the host data to it
        ret = AclRt.memcpy(deviceAddr, size, Pointer.to(hostData), size, ACL_MEMCPY_HOST_TO_DEVICE);
        if (ret != ACL_SUCCESS) { logPrint("aclrtMemcpy failed. ERROR: %d\n", ret); return ret; }
        // the strides of a contiguous tensor
        long[] strides = new long[shape.length];
        Arrays.fill(strides, 1);
        for (int i = shape.length - 2; i >= 0; i--) {
            strides[i] = shape[i + 1] * strides[i + 1];
        }
        tensor[0] = Acl.createTensor(shape, shape.length, dataType, strides, 0, ACL_FORMAT_ND, shape, shape.length,
                deviceAddr);
        return 0;
    }

    private static void logPrint(String message, Object... args) {
        System.out.printf(Locale.ROOT, message, args);
    }

    /** The C {@code main}: 0 on success, otherwise the failing call's status. */
    public static int run() {
        // 1. device/stream initialization
        int deviceId = 0;
        AclrtStream stream = new AclrtStream();
        int ret = init(deviceId, stream);
        if (ret != ACL_SUCCESS) { logPrint("Init acl failed. ERROR: %d\n", ret); return ret; }

        // 2. inputs and outputs: probabilities and targets [2, 3], a weight per column, a [1] loss
        long[] selfShape = {2, 3};
        long[] weightShape = {3};
        long[] outShape = {1};
        Pointer selfDeviceAddr = new Pointer();
        Pointer targetDeviceAddr = new Pointer();
        Pointer weightDeviceAddr = new Pointer();
        Pointer outDeviceAddr = new Pointer();
        AclTensor[] self = {null};
        AclTensor[] target = {null};
        AclTensor[] weight = {null};
        AclTensor[] out = {null};
        float[] selfHostData = {0.9f, 0.2f, 0.6f, 0.05f, 0.7f, 0.5f};
        float[] targetHostData = {1, 0, 1, 0, 1, 0.5f};
        float[] weightHostData = {1, 2, 0.5f};
        float[] outHostData = {0};
        long reduction = 1; // mean
        ret = createAclTensor(selfHostData, selfShape, selfDeviceAddr, ACL_FLOAT, self);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(targetHostData, selfShape, targetDeviceAddr, ACL_FLOAT, target);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(weightHostData, weightShape, weightDeviceAddr, ACL_FLOAT, weight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(outHostData, outShape, outDeviceAddr, ACL_FLOAT, out);
        if (ret != ACL_SUCCESS) { return ret; }

        // 3. the operator: phase 1, the workspace it asks for, phase 2
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        ret = Aclnn.binaryCrossEntropyGetWorkspaceSize(self[0], target[0], weight[0], reduction, out[0],
                workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnBinaryCrossEntropyGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize[0] > 0) {
            ret = AclRt.malloc(workspaceAddr, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
        }
        ret = Aclnn.binaryCrossEntropy(workspaceAddr, workspaceSize[0], executor, stream);
        if (ret != ACL_SUCCESS) { logPrint("aclnnBinaryCrossEntropy failed. ERROR: %d\n", ret); return ret; }

        // 4. wait for the stream
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 5. copy the result back to the host
        long size = getShapeSize(outShape);
        float[] resultData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(resultData), resultData.length * (long) Float.BYTES, outDeviceAddr,
                size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) { logPrint("copy result from device to host failed. ERROR: %d\n", ret); return ret; }
        for (int i = 0; i < size; i++) {
            logPrint("out[%d] is: %f\n", i, resultData[i]);
        }

        // 6. release the aclTensors and the device resources
        Acl.destroyTensor(self[0]);
        Acl.destroyTensor(target[0]);
        Acl.destroyTensor(weight[0]);
        Acl.destroyTensor(out[0]);
        AclRt.free(selfDeviceAddr);
        AclRt.free(targetDeviceAddr);
        AclRt.free(weightDeviceAddr);
        AclRt.free(outDeviceAddr);
        if (workspaceSize[0] > 0) {
            AclRt.free(workspaceAddr);
        }
        AclRt.destroyStream(stream);
        AclRt.resetDevice(deviceId);
        Acl.finalizeAcl();
        return 0;
    }
}
