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
 * A calling example for aclnnGroupNorm in the style of the operator documents: self [N=2, C=4,
 * HxW=2] in two groups of two channels, with gamma and beta per channel; it prints out and the
 * [N, group] meanOut and rstdOut. The C twin is native/test/examples/group_norm.cpp.
 */
public final class GroupNormExample {
    private GroupNormExample() {}

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

    /** Copies one FLOAT output back to the host and prints each element as {@code name[i] is: %f}. */
    private static int printResult(String name, Pointer deviceAddr, long[] shape) {
        long size = getShapeSize(shape);
        float[] resultData = new float[(int) size];
        int ret = AclRt.memcpy(Pointer.to(resultData), resultData.length * (long) Float.BYTES, deviceAddr,
                size * Float.BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) { logPrint("copy result from device to host failed. ERROR: %d\n", ret); return ret; }
        for (int i = 0; i < size; i++) {
            logPrint("%s[%d] is: %f\n", name, i, resultData[i]);
        }
        return 0;
    }

    /** The C {@code main}: 0 on success, otherwise the failing call's status. */
    public static int run() {
        // 1. device/stream initialization
        int deviceId = 0;
        AclrtStream stream = new AclrtStream();
        int ret = init(deviceId, stream);
        if (ret != ACL_SUCCESS) { logPrint("Init acl failed. ERROR: %d\n", ret); return ret; }

        // 2. inputs and outputs: self [N=2, C=4, HxW=2] in 2 groups; meanOut and rstdOut are [N, group]
        long[] selfShape = {2, 4, 2};
        long[] gammaShape = {4};
        long[] betaShape = {4};
        long[] outShape = {2, 4, 2};
        long[] meanShape = {2, 2};
        long[] rstdShape = {2, 2};
        Pointer selfDeviceAddr = new Pointer();
        Pointer gammaDeviceAddr = new Pointer();
        Pointer betaDeviceAddr = new Pointer();
        Pointer outDeviceAddr = new Pointer();
        Pointer meanDeviceAddr = new Pointer();
        Pointer rstdDeviceAddr = new Pointer();
        AclTensor[] self = {null};
        AclTensor[] gamma = {null};
        AclTensor[] beta = {null};
        AclTensor[] out = {null};
        AclTensor[] meanOut = {null};
        AclTensor[] rstdOut = {null};
        float[] selfHostData = {1, 3, 2, 6, -1, 0, 4, 5, 0.5f, -0.5f, 2, 2.5f, 3, -3, 1, 1.5f};
        float[] gammaHostData = {1, 0.5f, 2, -1};
        float[] betaHostData = {0, 0.5f, -1, 0.25f};
        float[] outHostData = new float[16];
        float[] meanHostData = new float[4];
        float[] rstdHostData = new float[4];
        long n = 2;
        long c = 4;
        long hxw = 2;
        long group = 2;
        double eps = 1e-5;
        ret = createAclTensor(selfHostData, selfShape, selfDeviceAddr, ACL_FLOAT, self);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(gammaHostData, gammaShape, gammaDeviceAddr, ACL_FLOAT, gamma);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(betaHostData, betaShape, betaDeviceAddr, ACL_FLOAT, beta);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(outHostData, outShape, outDeviceAddr, ACL_FLOAT, out);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(meanHostData, meanShape, meanDeviceAddr, ACL_FLOAT, meanOut);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(rstdHostData, rstdShape, rstdDeviceAddr, ACL_FLOAT, rstdOut);
        if (ret != ACL_SUCCESS) { return ret; }

        // 3. the operator: phase 1, the workspace it asks for, phase 2
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        ret = Aclnn.groupNormGetWorkspaceSize(self[0], gamma[0], beta[0], n, c, hxw, group, eps, out[0], meanOut[0],
                rstdOut[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnGroupNormGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize[0] > 0) {
            ret = AclRt.malloc(workspaceAddr, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
        }
        ret = Aclnn.groupNorm(workspaceAddr, workspaceSize[0], executor, stream);
        if (ret != ACL_SUCCESS) { logPrint("aclnnGroupNorm failed. ERROR: %d\n", ret); return ret; }

        // 4. wait for the stream
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 5. copy the results back to the host
        ret = printResult("out", outDeviceAddr, outShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("meanOut", meanDeviceAddr, meanShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("rstdOut", rstdDeviceAddr, rstdShape);
        if (ret != ACL_SUCCESS) { return ret; }

        // 6. release the aclTensors and the device resources
        Acl.destroyTensor(self[0]);
        Acl.destroyTensor(gamma[0]);
        Acl.destroyTensor(beta[0]);
        Acl.destroyTensor(out[0]);
        Acl.destroyTensor(meanOut[0]);
        Acl.destroyTensor(rstdOut[0]);
        AclRt.free(selfDeviceAddr);
        AclRt.free(gammaDeviceAddr);
        AclRt.free(betaDeviceAddr);
        AclRt.free(outDeviceAddr);
        AclRt.free(meanDeviceAddr);
        AclRt.free(rstdDeviceAddr);
        if (workspaceSize[0] > 0) {
            AclRt.free(workspaceAddr);
        }
        AclRt.destroyStream(stream);
        AclRt.resetDevice(deviceId);
        Acl.finalizeAcl();
        return 0;
    }
}
