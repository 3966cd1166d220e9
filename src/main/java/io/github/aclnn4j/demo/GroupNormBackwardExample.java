package io.github.aclnn4j.demo;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INTERNAL_ERROR;
import static io.github.aclnn4j.acl.AclError.ACL_SUCCESS;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.Arrays;
import java.util.Locale;

/** The calling example of the aclnnGroupNormBackward document, ported line by line. */
public final class GroupNormBackwardExample {
    private GroupNormBackwardExample() {}

    private static long getShapeSize(long[] shape) {
        long shapeSize = 1;
        for (long i : shape) {
            shapeSize *= i;
        }
        return shapeSize;
    }

    private static int init(int deviceId, AclrtStream stream) {
        // acl initialization, always the same
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
        if (ret != 0) { logPrint("Init acl failed. ERROR: %d\n", ret); return ret; }

        // 2. inputs and outputs
        long[] gradOutShape = {2, 3, 4};
        long[] inputShape = {2, 3, 4};
        long[] meanShape = {2, 1};
        long[] rstdShape = {2, 1};
        long[] gammaShape = {3};
        long[] gradInputShape = {2, 3, 4};
        long[] gradGammaOutShape = {3};
        long[] gradBetaOutShape = {3};
        Pointer gradOutDeviceAddr = new Pointer();
        Pointer inputDeviceAddr = new Pointer();
        Pointer meanDeviceAddr = new Pointer();
        Pointer rstdDeviceAddr = new Pointer();
        Pointer gammaDeviceAddr = new Pointer();
        Pointer gradInputDeviceAddr = new Pointer();
        Pointer gradGammaOutDeviceAddr = new Pointer();
        Pointer gradBetaOutDeviceAddr = new Pointer();
        AclTensor[] gradOut = {null};
        AclTensor[] input = {null};
        AclTensor[] mean = {null};
        AclTensor[] rstd = {null};
        AclTensor[] gamma = {null};
        AclTensor[] gradInput = {null};
        AclTensor[] gradGammaOut = {null};
        AclTensor[] gradBetaOut = {null};
        float[] gradOutHostData = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f,
                13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f, 24.0f};
        float[] inputHostData = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f,
                13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f, 24.0f};
        float[] meanHostData = {6.5f, 18.5f};
        float[] rstdHostData = {0.2896827f, 0.2896827f};
        float[] gammaHostData = {1.0f, 1.0f, 1.0f};
        float[] gradInputHostData = new float[24];
        float[] gradGammaOutHostData = {0.0f, 0.0f, 0.0f};
        float[] gradBetaOutHostData = {0.0f, 0.0f, 0.0f};
        long N = 2;
        long C = 3;
        long HxW = 4;
        long group = 1;
        boolean[] outputMaskData = {true, true, true};
        // gradOut aclTensor
        ret = createAclTensor(gradOutHostData, gradOutShape, gradOutDeviceAddr, ACL_FLOAT, gradOut);
        if (ret != ACL_SUCCESS) { return ret; }
        // input aclTensor
        ret = createAclTensor(inputHostData, inputShape, inputDeviceAddr, ACL_FLOAT, input);
        if (ret != ACL_SUCCESS) { return ret; }
        // mean aclTensor
        ret = createAclTensor(meanHostData, meanShape, meanDeviceAddr, ACL_FLOAT, mean);
        if (ret != ACL_SUCCESS) { return ret; }
        // rstd aclTensor
        ret = createAclTensor(rstdHostData, rstdShape, rstdDeviceAddr, ACL_FLOAT, rstd);
        if (ret != ACL_SUCCESS) { return ret; }
        // gamma aclTensor
        ret = createAclTensor(gammaHostData, gammaShape, gammaDeviceAddr, ACL_FLOAT, gamma);
        if (ret != ACL_SUCCESS) { return ret; }
        AclBoolArray outputMask = Acl.createBoolArray(outputMaskData, outputMaskData.length);
        if (outputMask == null) { return ACL_ERROR_INTERNAL_ERROR; }
        // gradInput aclTensor
        ret = createAclTensor(gradInputHostData, gradInputShape, gradInputDeviceAddr, ACL_FLOAT, gradInput);
        if (ret != ACL_SUCCESS) { return ret; }
        // gradGammaOut aclTensor
        ret = createAclTensor(gradGammaOutHostData, gradGammaOutShape, gradGammaOutDeviceAddr, ACL_FLOAT, gradGammaOut);
        if (ret != ACL_SUCCESS) { return ret; }
        // gradBetaOut aclTensor
        ret = createAclTensor(gradBetaOutHostData, gradBetaOutShape, gradBetaOutDeviceAddr, ACL_FLOAT, gradBetaOut);
        if (ret != ACL_SUCCESS) { return ret; }

        // 3. the operator: phase 1
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        ret = Aclnn.groupNormBackwardGetWorkspaceSize(gradOut[0], input[0], mean[0], rstd[0], gamma[0], N, C, HxW,
                group, outputMask, gradInput[0], gradGammaOut[0], gradBetaOut[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnGroupNormBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        // device memory for the workspace phase 1 asked for
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize[0] > 0) {
            ret = AclRt.malloc(workspaceAddr, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
        }
        // phase 2
        ret = Aclnn.groupNormBackward(workspaceAddr, workspaceSize[0], executor, stream);
        if (ret != ACL_SUCCESS) { logPrint("aclnnGroupNormBackward failed. ERROR: %d\n", ret); return ret; }

        // 4. wait for the stream
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 5. copy the results back to the host
        long size = getShapeSize(gradInputShape);
        float[] gradInputResultData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(gradInputResultData), gradInputResultData.length * (long) Float.BYTES,
                gradInputDeviceAddr, size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) {
            logPrint("copy result from device to host failed. ERROR: %d\n", ret);
            return ret;
        }
        for (int i = 0; i < size; i++) {
            logPrint("gradInputResultData[%d] is: %f\n", i, gradInputResultData[i]);
        }
        size = getShapeSize(gradGammaOutShape);
        float[] gradGammaOutResultData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(gradGammaOutResultData), gradGammaOutResultData.length * (long) Float.BYTES,
                gradGammaOutDeviceAddr, size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) {
            logPrint("copy result from device to host failed. ERROR: %d\n", ret);
            return ret;
        }
        for (int i = 0; i < size; i++) {
            logPrint("gradGammaOutResultData[%d] is: %f\n", i, gradGammaOutResultData[i]);
        }
        size = getShapeSize(gradBetaOutShape);
        float[] gradBetaOutResultData = new float[(int) size];
        ret = AclRt.memcpy(Pointer.to(gradBetaOutResultData), gradBetaOutResultData.length * (long) Float.BYTES,
                gradBetaOutDeviceAddr, size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) {
            logPrint("copy result from device to host failed. ERROR: %d\n", ret);
            return ret;
        }
        for (int i = 0; i < size; i++) {
            logPrint("gradBetaOutResultData[%d] is: %f\n", i, gradBetaOutResultData[i]);
        }

        // 6. release the aclTensors
        Acl.destroyTensor(gradOut[0]);
        Acl.destroyTensor(input[0]);
        Acl.destroyTensor(mean[0]);
        Acl.destroyTensor(rstd[0]);
        Acl.destroyTensor(gamma[0]);
        Acl.destroyTensor(gradInput[0]);
        Acl.destroyTensor(gradGammaOut[0]);
        Acl.destroyTensor(gradBetaOut[0]);
        // the document's example leaves the aclBoolArray out; it is released like the tensors
        Acl.destroyBoolArray(outputMask);

        // 7. release the device resources
        AclRt.free(gradOutDeviceAddr);
        AclRt.free(inputDeviceAddr);
        AclRt.free(meanDeviceAddr);
        AclRt.free(rstdDeviceAddr);
        AclRt.free(gammaDeviceAddr);
        AclRt.free(gradInputDeviceAddr);
        AclRt.free(gradGammaOutDeviceAddr);
        AclRt.free(gradBetaOutDeviceAddr);
        if (workspaceSize[0] > 0) {
            AclRt.free(workspaceAddr);
        }
        AclRt.destroyStream(stream);
        AclRt.resetDevice(deviceId);
        Acl.finalizeAcl();
        return 0;
    }
}
