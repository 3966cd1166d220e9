package io.github.aclnn4j.demo;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
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
 * A calling example for aclnnNLLLoss in the style of the operator documents: three rows of five
 * classes of log-probabilities, INT64 targets of which one is ignoreIndex (so that row counts in
 * neither the loss nor totalWeight), a weight per class, reduction mean; the C twin is
 * native/test/examples/nll_loss.cpp.
 */
public final class NllLossExample {
    private NllLossExample() {}

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
        return createAclTensor(Pointer.to(hostData), Float.BYTES, shape, deviceAddr, dataType, tensor);
    }

    /** {@code CreateAclTensor<int64_t>}. */
    private static int createAclTensor(long[] hostData, long[] shape, Pointer deviceAddr, int dataType,
            AclTensor[] tensor) {
        return createAclTensor(Pointer.to(hostData), Long.BYTES, shape, deviceAddr, dataType, tensor);
    }

    /** The body of the C template; {@code elementSize} is its {@code sizeof(T)}. */
    private static int createAclTensor(Pointer hostData, long elementSize, long[] shape, Pointer deviceAddr,
            int dataType, AclTensor[] tensor) {
        long size = getShapeSize(shape) * elementSize;
        // aclrtMalloc allocates the device memory
        int ret = AclRt.malloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (ret != ACL_SUCCESS) { logPrint("aclrtMalloc failed. ERROR: %d\n", ret); return ret; }
        // aclrtMemcpy copies the host data to it
        ret = AclRt.memcpy(deviceAddr, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE);
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

        // 2. inputs and outputs: self [N=3, C=5]; for mean, out and totalWeightOut hold one element each
        long[] selfShape = {3, 5};
        long[] targetShape = {3};
        long[] weightShape = {5};
        long[] outShape = {1};
        long[] totalWeightShape = {1};
        Pointer selfDeviceAddr = new Pointer();
        Pointer targetDeviceAddr = new Pointer();
        Pointer weightDeviceAddr = new Pointer();
        Pointer outDeviceAddr = new Pointer();
        Pointer totalWeightDeviceAddr = new Pointer();
        AclTensor[] self = {null};
        AclTensor[] target = {null};
        AclTensor[] weight = {null};
        AclTensor[] out = {null};
        AclTensor[] totalWeight = {null};
        float[] selfHostData = {-1.5f, -0.5f, -2, -3, -1, -0.25f, -2.5f, -1.25f, -0.75f, -4, -2, -1, -0.5f, -3.5f,
            -1.5f};
        // the middle row's target is ignoreIndex
        long[] targetHostData = {1, -100, 3};
        float[] weightHostData = {1, 2, 0.5f, 1.5f, 1};
        float[] outHostData = {0};
        float[] totalWeightHostData = {0};
        long reduction = 1;
        long ignoreIndex = -100;
        ret = createAclTensor(selfHostData, selfShape, selfDeviceAddr, ACL_FLOAT, self);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(targetHostData, targetShape, targetDeviceAddr, ACL_INT64, target);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(weightHostData, weightShape, weightDeviceAddr, ACL_FLOAT, weight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(outHostData, outShape, outDeviceAddr, ACL_FLOAT, out);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(totalWeightHostData, totalWeightShape, totalWeightDeviceAddr, ACL_FLOAT, totalWeight);
        if (ret != ACL_SUCCESS) { return ret; }

        // 3. the operator: phase 1, the workspace it asks for, phase 2
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        ret = Aclnn.nllLossGetWorkspaceSize(self[0], target[0], weight[0], reduction, ignoreIndex, out[0],
                totalWeight[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnNLLLossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize[0] > 0) {
            ret = AclRt.malloc(workspaceAddr, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
        }
        ret = Aclnn.nllLoss(workspaceAddr, workspaceSize[0], executor, stream);
        if (ret != ACL_SUCCESS) { logPrint("aclnnNLLLoss failed. ERROR: %d\n", ret); return ret; }

        // 4. wait for the stream
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 5. copy the results back to the host
        long size = getShapeSize(outShape);
        float[] resultData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(resultData), resultData.length * (long) Float.BYTES, outDeviceAddr,
                size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) { logPrint("copy result from device to host failed. ERROR: %d\n", ret); return ret; }
        for (int i = 0; i < size; i++) {
            logPrint("out[%d] is: %f\n", i, resultData[i]);
        }
        size = getShapeSize(totalWeightShape);
        float[] totalWeightData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(totalWeightData), totalWeightData.length * (long) Float.BYTES,
                totalWeightDeviceAddr, size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) { logPrint("copy result from device to host failed. ERROR: %d\n", ret); return ret; }
        for (int i = 0; i < size; i++) {
            logPrint("totalWeight[%d] is: %f\n", i, totalWeightData[i]);
        }

        // 6. release the aclTensors and the device resources
        Acl.destroyTensor(self[0]);
        Acl.destroyTensor(target[0]);
        Acl.destroyTensor(weight[0]);
        Acl.destroyTensor(out[0]);
        Acl.destroyTensor(totalWeight[0]);
        AclRt.free(selfDeviceAddr);
        AclRt.free(targetDeviceAddr);
        AclRt.free(weightDeviceAddr);
        AclRt.free(outDeviceAddr);
        AclRt.free(totalWeightDeviceAddr);
        if (workspaceSize[0] > 0) {
            AclRt.free(workspaceAddr);
        }
        AclRt.destroyStream(stream);
        AclRt.resetDevice(deviceId);
        Acl.finalizeAcl();
        return 0;
    }
}
