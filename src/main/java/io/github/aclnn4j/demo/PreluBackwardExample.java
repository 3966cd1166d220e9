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
import io.github.aclnn4j.acl.AclrtContext;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.Arrays;
import java.util.Locale;

/** The calling example of the aclnnPreluBackward document, ported line by line (it also makes a context). */
public final class PreluBackwardExample {
    private PreluBackwardExample() {}

    private static long getShapeSize(long[] shape) {
        long shapeSize = 1;
        for (long i : shape) {
            shapeSize *= i;
        }
        return shapeSize;
    }

    private static int init(int deviceId, AclrtContext context, AclrtStream stream) {
        // AscendCL initialization, always the same
        int ret = Acl.init(null);
        if (ret != ACL_SUCCESS) { logPrint("aclInit failed. ERROR: %d\n", ret); return ret; }
        ret = AclRt.setDevice(deviceId);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSetDevice failed. ERROR: %d\n", ret); return ret; }
        ret = AclRt.createContext(context, deviceId);
        if (ret != ACL_SUCCESS) { logPrint("aclrtCreateContext failed. ERROR: %d\n", ret); return ret; }
        ret = AclRt.setCurrentContext(context);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSetCurrentContext failed. ERROR: %d\n", ret); return ret; }
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
        // 1. device/context/stream initialization
        int deviceId = 0;
        AclrtContext context = new AclrtContext();
        AclrtStream stream = new AclrtStream();
        int ret = init(deviceId, context, stream);
        if (ret != ACL_SUCCESS) { logPrint("Init acl failed. ERROR: %d\n", ret); return ret; }

        // 2. inputs and outputs
        long[] selfShape = {4, 2};
        long[] weightShape = {2};
        long[] gradOutputShape = {4, 2};
        long[] gradInputShape = {4, 2};
        long[] gradWeightShape = {2};
        Pointer selfDeviceAddr = new Pointer();
        Pointer gradOutputDeviceAddr = new Pointer();
        Pointer weightDeviceAddr = new Pointer();
        Pointer gradInputDeviceAddr = new Pointer();
        Pointer gradWeightDeviceAddr = new Pointer();
        AclTensor[] self = {null};
        AclTensor[] weight = {null};
        AclTensor[] gradOutput = {null};
        AclTensor[] gradInput = {null};
        AclTensor[] gradWeight = {null};
        float[] selfHostData = {0, 1, 2, 3, 4, 5, 6, 7};
        float[] weightHostData = {0.5f, 0.5f};
        float[] gradOutputHostData = {1, 1, 1, 1, 1, 1, 1, 1};
        float[] gradInputHostData = {0, 0, 0, 0, 0, 0, 0, 0};
        float[] gradWeightHostData = {0, 0};
        // weight aclTensor
        ret = createAclTensor(weightHostData, weightShape, weightDeviceAddr, ACL_FLOAT, weight);
        if (ret != ACL_SUCCESS) { return ret; }
        // self aclTensor
        ret = createAclTensor(selfHostData, selfShape, selfDeviceAddr, ACL_FLOAT, self);
        if (ret != ACL_SUCCESS) { return ret; }
        // gradOutput aclTensor
        ret = createAclTensor(gradOutputHostData, gradOutputShape, gradOutputDeviceAddr, ACL_FLOAT, gradOutput);
        if (ret != ACL_SUCCESS) { return ret; }
        // gradInput aclTensor
        ret = createAclTensor(gradInputHostData, gradInputShape, gradInputDeviceAddr, ACL_FLOAT, gradInput);
        if (ret != ACL_SUCCESS) { return ret; }
        // gradWeight aclTensor
        ret = createAclTensor(gradWeightHostData, gradWeightShape, gradWeightDeviceAddr, ACL_FLOAT, gradWeight);
        if (ret != ACL_SUCCESS) { return ret; }

        // 3. the operator: phase 1
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        ret = Aclnn.preluBackwardGetWorkspaceSize(gradOutput[0], self[0], weight[0], gradInput[0], gradWeight[0],
                workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnPreluBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        // device memory for the workspace phase 1 asked for
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize[0] > 0) {
            ret = AclRt.malloc(workspaceAddr, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
        }
        // phase 2
        ret = Aclnn.preluBackward(workspaceAddr, workspaceSize[0], executor, stream);
        if (ret != ACL_SUCCESS) { logPrint("aclnnPreluBackward failed. ERROR: %d\n", ret); return ret; }

        // 4. wait for the stream
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 5. copy the results back to the host
        long gradInputSize = getShapeSize(gradInputShape);
        float[] gradInputResultData = new float[(int) gradInputSize];
        ret = AclRt.memcpy(Pointer.to(gradInputResultData), gradInputResultData.length * (long) Float.BYTES,
                gradInputDeviceAddr, gradInputSize * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) {
            logPrint("copy result from device to host failed. ERROR: %d\n", ret);
            return ret;
        }
        for (int i = 0; i < gradInputSize; i++) {
            logPrint("gradInput[%d] is: %f\n", i, gradInputResultData[i]);
        }
        long gradWeightSize = getShapeSize(gradWeightShape);
        float[] gradWeightResultData = new float[(int) gradWeightSize];
        ret = AclRt.memcpy(Pointer.to(gradWeightResultData), gradWeightResultData.length * (long) Float.BYTES,
                gradWeightDeviceAddr, gradWeightSize * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) {
            logPrint("copy result from device to host failed. ERROR: %d\n", ret);
            return ret;
        }
        for (int i = 0; i < gradWeightSize; i++) {
            logPrint("gradWeight[%d] is: %f\n", i, gradWeightResultData[i]);
        }

        // 6. release the aclTensors
        Acl.destroyTensor(gradOutput[0]);
        Acl.destroyTensor(self[0]);
        Acl.destroyTensor(weight[0]);
        Acl.destroyTensor(gradInput[0]);
        Acl.destroyTensor(gradWeight[0]);

        // 7. release the device resources
        AclRt.free(selfDeviceAddr);
        AclRt.free(gradOutputDeviceAddr);
        AclRt.free(weightDeviceAddr);
        AclRt.free(gradInputDeviceAddr);
        AclRt.free(gradWeightDeviceAddr);
        if (workspaceSize[0] > 0) {
            AclRt.free(workspaceAddr);
        }
        AclRt.destroyStream(stream);
        AclRt.destroyContext(context);
        AclRt.resetDevice(deviceId);
        Acl.finalizeAcl();
        return 0;
    }
}
