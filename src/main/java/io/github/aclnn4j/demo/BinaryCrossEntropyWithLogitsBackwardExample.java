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
 * A calling example for aclnnBinaryCrossEntropyWithLogitsBackward in the style of the operator
 * documents: the gradient of a mean loss over a [2, 3] batch of logits, gradOutput 0-d, a
 * posWeight per column; the C twin is native/test/examples/binary_cross_entropy_with_logits_backward.cpp.
 */
public final class BinaryCrossEntropyWithLogitsBackwardExample {
    private BinaryCrossEntropyWithLogitsBackwardExample() {}

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

        // 2. inputs and outputs: logits and targets [2, 3], gradOutput 0-d, posWeight [3], the gradient [2, 3]
        long[] selfShape = {2, 3};
        long[] gradShape = {};
        long[] posWeightShape = {3};
        Pointer gradDeviceAddr = new Pointer();
        Pointer selfDeviceAddr = new Pointer();
        Pointer targetDeviceAddr = new Pointer();
        Pointer posWeightDeviceAddr = new Pointer();
        Pointer outDeviceAddr = new Pointer();
        AclTensor[] grad = {null};
        AclTensor[] self = {null};
        AclTensor[] target = {null};
        AclTensor[] posWeight = {null};
        AclTensor[] out = {null};
        float[] gradHostData = {1};
        float[] selfHostData = {0.5f, -1, 2, -0.25f, 3, 0};
        float[] targetHostData = {1, 0, 1, 0, 1, 0.5f};
        float[] posWeightHostData = {2, 1, 0.5f};
        float[] outHostData = new float[6];
        long reduction = 1; // mean
        ret = createAclTensor(gradHostData, gradShape, gradDeviceAddr, ACL_FLOAT, grad);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(selfHostData, selfShape, selfDeviceAddr, ACL_FLOAT, self);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(targetHostData, selfShape, targetDeviceAddr, ACL_FLOAT, target);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(posWeightHostData, posWeightShape, posWeightDeviceAddr, ACL_FLOAT, posWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(outHostData, selfShape, outDeviceAddr, ACL_FLOAT, out);
        if (ret != ACL_SUCCESS) { return ret; }

        // 3. the operator: phase 1, the workspace it asks for, phase 2
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        ret = Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(grad[0], self[0], target[0], null,
                posWeight[0], reduction, out[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize[0] > 0) {
            ret = AclRt.malloc(workspaceAddr, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
        }
        ret = Aclnn.binaryCrossEntropyWithLogitsBackward(workspaceAddr, workspaceSize[0], executor, stream);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnBinaryCrossEntropyWithLogitsBackward failed. ERROR: %d\n", ret);
            return ret;
        }

        // 4. wait for the stream
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 5. copy the result back to the host
        long size = getShapeSize(selfShape);
        float[] resultData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(resultData), resultData.length * (long) Float.BYTES, outDeviceAddr,
                size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) { logPrint("copy result from device to host failed. ERROR: %d\n", ret); return ret; }
        for (int i = 0; i < size; i++) {
            logPrint("out[%d] is: %f\n", i, resultData[i]);
        }

        // 6. release the aclTensors and the device resources
        Acl.destroyTensor(grad[0]);
        Acl.destroyTensor(self[0]);
        Acl.destroyTensor(target[0]);
        Acl.destroyTensor(posWeight[0]);
        Acl.destroyTensor(out[0]);
        AclRt.free(gradDeviceAddr);
        AclRt.free(selfDeviceAddr);
        AclRt.free(targetDeviceAddr);
        AclRt.free(posWeightDeviceAddr);
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
