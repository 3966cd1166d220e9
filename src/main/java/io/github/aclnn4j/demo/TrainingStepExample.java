package io.github.aclnn4j.demo;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A training step through aclnn calls only: x [2, 4, 3] → GroupNorm (2 groups) → PReLU (a weight
 * per channel) → y, with two heads — BCE-with-logits (mean, a posWeight per channel) against 0/1
 * targets, and NLLLoss (mean) of y seen as [2, 12] — each differentiated back to x, gamma, beta and
 * the PReLU weight on its own (there is no element-wise add to sum the heads): BCE-with-logits
 * backward or NLLLoss backward, then PReLU backward, then GroupNorm backward with the forward's
 * mean and rstd. All of it is queued on one stream and synchronized once. The C twin is
 * native/test/examples/training_step.cpp; tools/golden/training_step.py computes the same with
 * PyTorch autograd (keep the numbers of the three in step).
 */
public final class TrainingStepExample {
    private TrainingStepExample() {}

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

    /** The strides of a contiguous tensor. */
    private static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        Arrays.fill(strides, 1);
        for (int i = shape.length - 2; i >= 0; i--) {
            strides[i] = shape[i + 1] * strides[i + 1];
        }
        return strides;
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
        return createView(shape, deviceAddr, dataType, tensor);
    }

    /**
     * A second, contiguous aclTensor over device memory that already holds one: a reshape costs no
     * copy, only a new descriptor.
     */
    private static int createView(long[] shape, Pointer deviceAddr, int dataType, AclTensor[] tensor) {
        tensor[0] = Acl.createTensor(shape, shape.length, dataType, contiguousStrides(shape), 0, ACL_FORMAT_ND, shape,
                shape.length, deviceAddr);
        if (tensor[0] == null) { logPrint("aclCreateTensor failed.\n"); return ACL_ERROR_INTERNAL_ERROR; }
        return 0;
    }

    /** An operator's phase 2, {@code aclnnStatus aclnnXxx(void*, uint64_t, aclOpExecutor*, aclrtStream)}. */
    @FunctionalInterface
    private interface Phase2 {
        int run(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    /**
     * Allocates the workspace phase 1 asked for and runs phase 2. The workspace joins
     * {@code workspaces}, freed at the end: the queued work may use it until the stream is synchronized.
     */
    private static int launch(String name, long workspaceSize, AclOpExecutor executor, AclrtStream stream,
            Phase2 phase2, List<Pointer> workspaces) {
        Pointer workspaceAddr = new Pointer();
        if (workspaceSize > 0) {
            int ret = AclRt.malloc(workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
            if (ret != ACL_SUCCESS) { logPrint("allocate workspace failed. ERROR: %d\n", ret); return ret; }
            workspaces.add(workspaceAddr);
        }
        int ret = phase2.run(workspaceAddr, workspaceSize, executor, stream);
        if (ret != ACL_SUCCESS) { logPrint("%s failed. ERROR: %d\n", name, ret); return ret; }
        return 0;
    }

    /** Copies a FLOAT result back to the host and prints it element by element. */
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

        // 2. the network's sizes, inputs and parameters (multiples of 1/16: the same numbers in FLOAT and float64)
        long N = 2;
        long C = 4;
        long L = 3;
        long group = 2;
        double eps = 1e-5;
        long reduction = 1; // mean, for both losses
        long ignoreIndex = -100;
        long[] xShape = {N, C, L};
        long[] channelShape = {C};
        long[] posWeightShape = {C, 1}; // one per channel, broadcast over L
        long[] statsShape = {N, group};
        long[] rowsShape = {N, C * L}; // y seen as N rows of C·L classes for NLLLoss
        long[] nllTargetShape = {N};
        long[] classShape = {C * L};
        long[] scalarShape = {1};
        float[] xHostData = {0.5f, -1.25f, 2.0f, 1.5f, 0.25f, -0.75f, -2.0f, 0.75f, 1.25f, 3.0f, -0.5f, 0.0f,
            -1.0f, 2.5f, 0.125f, 0.375f, -1.5f, 1.75f, 2.25f, -0.25f, -3.0f, 1.0f, 0.625f, -1.75f};
        float[] gammaHostData = {1.0f, 0.5f, 1.5f, -0.75f};
        float[] betaHostData = {0.0f, 0.25f, -0.5f, 0.125f};
        float[] preluWeightHostData = {0.25f, 0.125f, 0.5f, 0.0625f};
        float[] bceTargetHostData = {1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0};
        float[] posWeightHostData = {2.0f, 1.0f, 0.5f, 1.5f};
        long[] nllTargetHostData = {4, 9};
        float[] nllWeightHostData = new float[(int) (C * L)];
        Arrays.fill(nllWeightHostData, 1.0f);
        // d loss / d loss: the gradOutput of both loss backwards
        float[] gradOutputHostData = {1.0f};
        float[] xZeros = new float[(int) getShapeSize(xShape)];
        float[] channelZeros = new float[(int) C];
        float[] statsZeros = new float[(int) (N * group)];
        float[] scalarZeros = {0.0f};
        boolean[] outputMaskData = {true, true, true};

        Pointer xDeviceAddr = new Pointer();
        Pointer gammaDeviceAddr = new Pointer();
        Pointer betaDeviceAddr = new Pointer();
        Pointer preluWeightDeviceAddr = new Pointer();
        Pointer bceTargetDeviceAddr = new Pointer();
        Pointer posWeightDeviceAddr = new Pointer();
        Pointer nllTargetDeviceAddr = new Pointer();
        Pointer nllWeightDeviceAddr = new Pointer();
        Pointer gradOutputDeviceAddr = new Pointer();
        Pointer hDeviceAddr = new Pointer();
        Pointer meanDeviceAddr = new Pointer();
        Pointer rstdDeviceAddr = new Pointer();
        Pointer yDeviceAddr = new Pointer();
        Pointer bceLossDeviceAddr = new Pointer();
        Pointer nllLossDeviceAddr = new Pointer();
        Pointer totalWeightDeviceAddr = new Pointer();
        Pointer bceGradYDeviceAddr = new Pointer();
        Pointer bceGradHDeviceAddr = new Pointer();
        Pointer bceGradPreluWeightDeviceAddr = new Pointer();
        Pointer bceGradXDeviceAddr = new Pointer();
        Pointer bceGradGammaDeviceAddr = new Pointer();
        Pointer bceGradBetaDeviceAddr = new Pointer();
        Pointer nllGradYDeviceAddr = new Pointer();
        Pointer nllGradHDeviceAddr = new Pointer();
        Pointer nllGradPreluWeightDeviceAddr = new Pointer();
        Pointer nllGradXDeviceAddr = new Pointer();
        Pointer nllGradGammaDeviceAddr = new Pointer();
        Pointer nllGradBetaDeviceAddr = new Pointer();
        AclTensor[] x = {null};
        AclTensor[] gamma = {null};
        AclTensor[] beta = {null};
        AclTensor[] preluWeight = {null};
        AclTensor[] bceTarget = {null};
        AclTensor[] posWeight = {null};
        AclTensor[] nllTarget = {null};
        AclTensor[] nllWeight = {null};
        AclTensor[] gradOutput = {null};
        AclTensor[] h = {null};
        AclTensor[] mean = {null};
        AclTensor[] rstd = {null};
        AclTensor[] y = {null};
        AclTensor[] yRows = {null};
        AclTensor[] bceLoss = {null};
        AclTensor[] nllLoss = {null};
        AclTensor[] totalWeight = {null};
        AclTensor[] bceGradY = {null};
        AclTensor[] bceGradH = {null};
        AclTensor[] bceGradPreluWeight = {null};
        AclTensor[] bceGradX = {null};
        AclTensor[] bceGradGamma = {null};
        AclTensor[] bceGradBeta = {null};
        AclTensor[] nllGradYRows = {null};
        AclTensor[] nllGradY = {null};
        AclTensor[] nllGradH = {null};
        AclTensor[] nllGradPreluWeight = {null};
        AclTensor[] nllGradX = {null};
        AclTensor[] nllGradGamma = {null};
        AclTensor[] nllGradBeta = {null};

        // inputs and parameters
        ret = createAclTensor(xHostData, xShape, xDeviceAddr, ACL_FLOAT, x);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(gammaHostData, channelShape, gammaDeviceAddr, ACL_FLOAT, gamma);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(betaHostData, channelShape, betaDeviceAddr, ACL_FLOAT, beta);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(preluWeightHostData, channelShape, preluWeightDeviceAddr, ACL_FLOAT, preluWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(bceTargetHostData, xShape, bceTargetDeviceAddr, ACL_FLOAT, bceTarget);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(posWeightHostData, posWeightShape, posWeightDeviceAddr, ACL_FLOAT, posWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(nllTargetHostData, nllTargetShape, nllTargetDeviceAddr, ACL_INT64, nllTarget);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(nllWeightHostData, classShape, nllWeightDeviceAddr, ACL_FLOAT, nllWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(gradOutputHostData, scalarShape, gradOutputDeviceAddr, ACL_FLOAT, gradOutput);
        if (ret != ACL_SUCCESS) { return ret; }
        // the forward's outputs; y has a second descriptor, [N, C·L], for NLLLoss
        ret = createAclTensor(xZeros, xShape, hDeviceAddr, ACL_FLOAT, h);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(statsZeros, statsShape, meanDeviceAddr, ACL_FLOAT, mean);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(statsZeros, statsShape, rstdDeviceAddr, ACL_FLOAT, rstd);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(xZeros, xShape, yDeviceAddr, ACL_FLOAT, y);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createView(rowsShape, yDeviceAddr, ACL_FLOAT, yRows);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(scalarZeros, scalarShape, bceLossDeviceAddr, ACL_FLOAT, bceLoss);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(scalarZeros, scalarShape, nllLossDeviceAddr, ACL_FLOAT, nllLoss);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(scalarZeros, scalarShape, totalWeightDeviceAddr, ACL_FLOAT, totalWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        // the gradients of the BCE-with-logits head
        ret = createAclTensor(xZeros, xShape, bceGradYDeviceAddr, ACL_FLOAT, bceGradY);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(xZeros, xShape, bceGradHDeviceAddr, ACL_FLOAT, bceGradH);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(channelZeros, channelShape, bceGradPreluWeightDeviceAddr, ACL_FLOAT, bceGradPreluWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(xZeros, xShape, bceGradXDeviceAddr, ACL_FLOAT, bceGradX);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(channelZeros, channelShape, bceGradGammaDeviceAddr, ACL_FLOAT, bceGradGamma);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(channelZeros, channelShape, bceGradBetaDeviceAddr, ACL_FLOAT, bceGradBeta);
        if (ret != ACL_SUCCESS) { return ret; }
        // the gradients of the NLLLoss head; dL/dy is written as [N, C·L] and read back as [N, C, L]
        ret = createAclTensor(xZeros, rowsShape, nllGradYDeviceAddr, ACL_FLOAT, nllGradYRows);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createView(xShape, nllGradYDeviceAddr, ACL_FLOAT, nllGradY);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(xZeros, xShape, nllGradHDeviceAddr, ACL_FLOAT, nllGradH);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(channelZeros, channelShape, nllGradPreluWeightDeviceAddr, ACL_FLOAT, nllGradPreluWeight);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(xZeros, xShape, nllGradXDeviceAddr, ACL_FLOAT, nllGradX);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(channelZeros, channelShape, nllGradGammaDeviceAddr, ACL_FLOAT, nllGradGamma);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = createAclTensor(channelZeros, channelShape, nllGradBetaDeviceAddr, ACL_FLOAT, nllGradBeta);
        if (ret != ACL_SUCCESS) { return ret; }
        AclBoolArray outputMask = Acl.createBoolArray(outputMaskData, outputMaskData.length);
        if (outputMask == null) { return ACL_ERROR_INTERNAL_ERROR; }

        // 3. the forward pass. Each call is queued behind the previous one on the stream, so it reads
        // what that one wrote; nothing is synchronized until the end.
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        List<Pointer> workspaces = new ArrayList<>();
        // h = GroupNorm(x), keeping the mean and rstd for the backward
        ret = Aclnn.groupNormGetWorkspaceSize(x[0], gamma[0], beta[0], N, C, L, group, eps, h[0], mean[0], rstd[0],
                workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnGroupNormGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        ret = launch("aclnnGroupNorm", workspaceSize[0], executor, stream, Aclnn::groupNorm, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        // y = PReLU(h)
        ret = Aclnn.preluGetWorkspaceSize(h[0], preluWeight[0], y[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnPreluGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        ret = launch("aclnnPrelu", workspaceSize[0], executor, stream, Aclnn::prelu, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        // head 1: the BCE-with-logits loss of y against the 0/1 targets
        ret = Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(y[0], bceTarget[0], null, posWeight[0], reduction,
                bceLoss[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        ret = launch("aclnnBinaryCrossEntropyWithLogits", workspaceSize[0], executor, stream,
                Aclnn::binaryCrossEntropyWithLogits, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        // head 2: the NLLLoss of y's rows, which picks −y[i, target[i]]; totalWeight is kept for the backward
        ret = Aclnn.nllLossGetWorkspaceSize(yRows[0], nllTarget[0], nllWeight[0], reduction, ignoreIndex, nllLoss[0],
                totalWeight[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnNLLLossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        ret = launch("aclnnNLLLoss", workspaceSize[0], executor, stream, Aclnn::nllLoss, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }

        // 4. the backward of head 1: dL/dy, then through PReLU to dL/dh and dL/dweight, then through
        // GroupNorm, with the forward's mean and rstd, to dL/dx, dL/dgamma and dL/dbeta
        ret = Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(gradOutput[0], y[0], bceTarget[0], null,
                posWeight[0], reduction, bceGradY[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        ret = launch("aclnnBinaryCrossEntropyWithLogitsBackward", workspaceSize[0], executor, stream,
                Aclnn::binaryCrossEntropyWithLogitsBackward, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = Aclnn.preluBackwardGetWorkspaceSize(bceGradY[0], h[0], preluWeight[0], bceGradH[0],
                bceGradPreluWeight[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnPreluBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        ret = launch("aclnnPreluBackward", workspaceSize[0], executor, stream, Aclnn::preluBackward, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = Aclnn.groupNormBackwardGetWorkspaceSize(bceGradH[0], x[0], mean[0], rstd[0], gamma[0], N, C, L, group,
                outputMask, bceGradX[0], bceGradGamma[0], bceGradBeta[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnGroupNormBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        ret = launch("aclnnGroupNormBackward", workspaceSize[0], executor, stream, Aclnn::groupNormBackward,
                workspaces);
        if (ret != ACL_SUCCESS) { return ret; }

        // 5. the backward of head 2: NLLLoss backward writes dL/dy as [N, C·L]; PReLU backward reads
        // the same memory as [N, C, L]; then GroupNorm backward as for head 1
        ret = Aclnn.nllLossBackwardGetWorkspaceSize(gradOutput[0], yRows[0], nllTarget[0], nllWeight[0], reduction,
                ignoreIndex, totalWeight[0], nllGradYRows[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnNLLLossBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        ret = launch("aclnnNLLLossBackward", workspaceSize[0], executor, stream, Aclnn::nllLossBackward, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = Aclnn.preluBackwardGetWorkspaceSize(nllGradY[0], h[0], preluWeight[0], nllGradH[0],
                nllGradPreluWeight[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) { logPrint("aclnnPreluBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret; }
        ret = launch("aclnnPreluBackward", workspaceSize[0], executor, stream, Aclnn::preluBackward, workspaces);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = Aclnn.groupNormBackwardGetWorkspaceSize(nllGradH[0], x[0], mean[0], rstd[0], gamma[0], N, C, L, group,
                outputMask, nllGradX[0], nllGradGamma[0], nllGradBeta[0], workspaceSize, executor);
        if (ret != ACL_SUCCESS) {
            logPrint("aclnnGroupNormBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret;
        }
        ret = launch("aclnnGroupNormBackward", workspaceSize[0], executor, stream, Aclnn::groupNormBackward,
                workspaces);
        if (ret != ACL_SUCCESS) { return ret; }

        // 6. wait for the stream: all ten calls
        ret = AclRt.synchronizeStream(stream);
        if (ret != ACL_SUCCESS) { logPrint("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret; }

        // 7. copy the losses and the gradients back to the host
        ret = printResult("bceLoss", bceLossDeviceAddr, scalarShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("nllLoss", nllLossDeviceAddr, scalarShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("bceGradX", bceGradXDeviceAddr, xShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("bceGradGamma", bceGradGammaDeviceAddr, channelShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("bceGradBeta", bceGradBetaDeviceAddr, channelShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("bceGradPreluWeight", bceGradPreluWeightDeviceAddr, channelShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("nllGradX", nllGradXDeviceAddr, xShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("nllGradGamma", nllGradGammaDeviceAddr, channelShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("nllGradBeta", nllGradBetaDeviceAddr, channelShape);
        if (ret != ACL_SUCCESS) { return ret; }
        ret = printResult("nllGradPreluWeight", nllGradPreluWeightDeviceAddr, channelShape);
        if (ret != ACL_SUCCESS) { return ret; }

        // 8. release the aclTensors (both descriptors of a shared buffer) and the aclBoolArray
        for (AclTensor[] tensor : List.of(x, gamma, beta, preluWeight, bceTarget, posWeight, nllTarget, nllWeight,
                gradOutput, h, mean, rstd, y, yRows, bceLoss, nllLoss, totalWeight, bceGradY, bceGradH,
                bceGradPreluWeight, bceGradX, bceGradGamma, bceGradBeta, nllGradYRows, nllGradY, nllGradH,
                nllGradPreluWeight, nllGradX, nllGradGamma, nllGradBeta)) {
            Acl.destroyTensor(tensor[0]);
        }
        Acl.destroyBoolArray(outputMask);

        // 9. release the device resources: each buffer once, however many descriptors it had
        for (Pointer deviceAddr : List.of(xDeviceAddr, gammaDeviceAddr, betaDeviceAddr, preluWeightDeviceAddr,
                bceTargetDeviceAddr, posWeightDeviceAddr, nllTargetDeviceAddr, nllWeightDeviceAddr,
                gradOutputDeviceAddr, hDeviceAddr, meanDeviceAddr, rstdDeviceAddr, yDeviceAddr, bceLossDeviceAddr,
                nllLossDeviceAddr, totalWeightDeviceAddr, bceGradYDeviceAddr, bceGradHDeviceAddr,
                bceGradPreluWeightDeviceAddr, bceGradXDeviceAddr, bceGradGammaDeviceAddr, bceGradBetaDeviceAddr,
                nllGradYDeviceAddr, nllGradHDeviceAddr, nllGradPreluWeightDeviceAddr, nllGradXDeviceAddr,
                nllGradGammaDeviceAddr, nllGradBetaDeviceAddr)) {
            AclRt.free(deviceAddr);
        }
        for (Pointer workspaceAddr : workspaces) {
            AclRt.free(workspaceAddr);
        }
        AclRt.destroyStream(stream);
        AclRt.resetDevice(deviceId);
        Acl.finalizeAcl();
        return 0;
    }
}
