/*
 * The C ABI from C: the runtime, tensors, every operator against known cases, the documented
 * errors, handles and pointers that aclnn4j never gave out, and two threads calling at once.
 * Build: gcc -std=c11 api_test.c -I PREFIX/include -L PREFIX/lib -lascendcl -lnnopbase -lopapi
 *          -lpthread -lm -Wl,-rpath,PREFIX/lib
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "check.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define RANK(...) ((int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

/* A contiguous device tensor and the allocation under it. */
typedef struct {
    aclTensor *tensor;
    void *data;
    size_t bytes;
} Tensor;

static Tensor make(const void *host, size_t elementSize, aclDataType type, int rank, const int64_t *shape) {
    Tensor t = {NULL, NULL, elementSize};
    for (int i = 0; i < rank; i++) {
        t.bytes *= (size_t)shape[i];
    }
    CHECK_EQ(aclrtMalloc(&t.data, t.bytes == 0 ? 1 : t.bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (host != NULL && t.bytes > 0) {
        CHECK_EQ(aclrtMemcpy(t.data, t.bytes, host, t.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    t.tensor = aclCreateTensor(shape, (uint64_t)rank, type, NULL, 0, ACL_FORMAT_ND, shape, (uint64_t)rank, t.data);
    CHECK_TRUE(t.tensor != NULL);
    return t;
}

#define FLOATS(rank, shape, ...) make((const float[]){__VA_ARGS__}, sizeof(float), ACL_FLOAT, rank, shape)

static void fetch(const Tensor *t, void *host) {
    CHECK_EQ(aclrtMemcpy(host, t->bytes, t->data, t->bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static void release(Tensor *t) {
    CHECK_EQ(aclDestroyTensor(t->tensor), ACLNN_SUCCESS);
    CHECK_EQ(aclrtFree(t->data), ACL_SUCCESS);
}

typedef aclnnStatus (*Phase2)(void *, uint64_t, aclOpExecutor *, aclrtStream);

/* Phase 2 with the workspace phase 1 asked for, then a synchronize: the first failure, or 0. */
static int run(Phase2 phase2, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    void *workspace = NULL;
    if (workspaceSize > 0) {
        CHECK_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    int status = phase2(workspace, workspaceSize, executor, stream);
    if (status == 0) {
        status = aclrtSynchronizeStream(stream);
    }
    if (workspace != NULL) {
        CHECK_EQ(aclrtFree(workspace), ACL_SUCCESS);
    }
    return status;
}

static uint16_t to_bf16(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return (uint16_t)((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

static float from_bf16(uint16_t h) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double log_sigmoid(double x) {
    return fmin(x, 0) - log1p(exp(-fabs(x)));
}

static void test_before_init(void) {
    /* Nothing has failed yet, and asking does not start the JVM. */
    CHECK_TRUE(aclGetRecentErrMsg() == NULL);
    void *p = NULL;
    CHECK_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    CHECK_MESSAGE("aclInit");
    CHECK_TRUE(aclGetRecentErrMsg() == NULL); /* reading cleared it */
}

static void test_runtime(aclrtContext *context, aclrtStream *stream) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK_EQ(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_MESSAGE("aclInit");
    CHECK_EQ(aclrtSetDevice(7), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("out of range");
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int32_t device = -1;
    CHECK_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    CHECK_EQ(device, 0);
    CHECK_EQ(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    uint32_t count = 0;
    CHECK_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    CHECK_EQ(count, 1);

    CHECK_EQ(aclrtCreateContext(context, 0), ACL_SUCCESS);
    CHECK_EQ(aclrtSetCurrentContext(*context), ACL_SUCCESS);
    CHECK_EQ(aclrtSetCurrentContext((aclrtContext)&count), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("not a live aclrtContext");
    CHECK_EQ(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);

    CHECK_EQ(aclrtCreateStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(*stream), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream((aclrtStream)(uintptr_t)0x1234), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("not a live aclrtStream");
    CHECK_EQ(aclrtSynchronizeStream(*context), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("is an aclrtContext, not an aclrtStream");
    aclrtStream doomed;
    CHECK_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(doomed), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(doomed), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtSynchronizeStream(doomed), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("not a live aclrtStream");
}

static void test_memory(void) {
    void *p = NULL, *q = NULL;
    float in[16], out[16];
    for (int i = 0; i < 16; i++) {
        in[i] = (float)i * 0.5f;
    }
    CHECK_EQ(aclrtMalloc(&p, sizeof in, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_TRUE(p != NULL && (uintptr_t)p % 32 == 0);
    CHECK_EQ(aclrtMemcpy(p, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy(out, sizeof out, p, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK_TRUE(memcmp(in, out, sizeof in) == 0);
    /* device pointer arithmetic: the upper half */
    memset(out, 0, sizeof out);
    CHECK_EQ(aclrtMemcpy(out, sizeof out, (char *)p + 32, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK_TRUE(memcmp(in + 8, out, 32) == 0);
    CHECK_EQ(aclrtMalloc(&q, sizeof in, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy(q, sizeof in, p, sizeof in, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    memset(out, 0, sizeof out);
    CHECK_EQ(aclrtMemcpy(out, sizeof out, q, sizeof out, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    CHECK_TRUE(memcmp(in, out, sizeof in) == 0);
    CHECK_EQ(aclrtMemset(q, sizeof in, 0x41, 8), ACL_SUCCESS);
    unsigned char bytes[9];
    CHECK_EQ(aclrtMemcpy(bytes, sizeof bytes, q, sizeof bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK_TRUE(bytes[0] == 0x41 && bytes[7] == 0x41 && bytes[8] != 0x41);

    /* the documented failures, and addresses aclnn4j never gave out */
    CHECK_EQ(aclrtMemcpy(out, 8, p, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("destMax");
    CHECK_EQ(aclrtMemcpy((char *)p + 32, 64, in, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("outside");
    CHECK_EQ(aclrtMemcpy(out, sizeof out, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("not inside device memory");
    CHECK_EQ(aclrtMemcpy(NULL, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMemcpy(out, 16, p, 16, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMemset(in, sizeof in, 0, 4), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMalloc(&q, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    void *huge = NULL;
    CHECK_EQ(aclrtMalloc(&huge, (size_t)1 << 60, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
    CHECK_MESSAGE("cannot allocate");
    CHECK_EQ(aclrtFree((char *)p + 8), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtFree(in), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("not inside device memory");
    CHECK_EQ(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtFree(q), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(p), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMemcpy(p, 16, in, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);

    void *host = NULL;
    CHECK_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
    if (host == NULL) {
        return;
    }
    memcpy(host, in, 64); /* host memory: C writes it directly */
    memset(out, 0, sizeof out);
    CHECK_EQ(aclrtMemcpy(out, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    CHECK_TRUE(memcmp(in, out, 64) == 0);
    CHECK_EQ(aclrtMemcpy(out, 128, host, 128, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtFreeHost(in), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    CHECK_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);
}

static void test_tensors(void) {
    void *data = NULL;
    CHECK_EQ(aclrtMalloc(&data, 7 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclTensor *t = aclCreateTensor(SHAPE(2, 3), 2, ACL_BF16, SHAPE(1, 2), 1, ACL_FORMAT_NCHW, SHAPE(7), 1, data);
    CHECK_TRUE(t != NULL);
    int64_t *values = NULL;
    uint64_t n = 0;
    if (aclGetViewShape(t, &values, &n) == ACLNN_SUCCESS) {
        CHECK_TRUE(n == 2 && values[0] == 2 && values[1] == 3);
        free(values);
    } else {
        CHECK_TRUE(!"aclGetViewShape failed");
    }
    if (aclGetViewStrides(t, &values, &n) == ACLNN_SUCCESS) {
        CHECK_TRUE(n == 2 && values[0] == 1 && values[1] == 2);
        free(values);
    } else {
        CHECK_TRUE(!"aclGetViewStrides failed");
    }
    if (aclGetStorageShape(t, &values, &n) == ACLNN_SUCCESS) {
        CHECK_TRUE(n == 1 && values[0] == 7);
        free(values);
    } else {
        CHECK_TRUE(!"aclGetStorageShape failed");
    }
    int64_t offset = -1;
    CHECK_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
    CHECK_EQ(offset, 1);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    CHECK_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
    CHECK_EQ(format, ACL_FORMAT_NCHW);
    aclDataType type = ACL_DT_UNDEFINED;
    CHECK_EQ(aclGetDataType(t, &type), ACLNN_SUCCESS);
    CHECK_EQ(type, ACL_BF16);

    CHECK_EQ(aclGetViewShape(NULL, &values, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_EQ(aclGetViewShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_EQ(aclGetDataType((const aclTensor *)&n, &type), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("not a live aclTensor");
    CHECK_TRUE(aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, data) == NULL);
    CHECK_MESSAGE("viewDims");
    CHECK_TRUE(aclCreateTensor(SHAPE(2), 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, SHAPE(2), 1, &n) == NULL);
    CHECK_MESSAGE("not inside device memory");
    CHECK_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
    CHECK_EQ(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclGetFormat(t, &format), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclDestroyTensor(NULL), ACLNN_SUCCESS);

    bool mask[] = {true, false, true};
    aclBoolArray *bools = aclCreateBoolArray(mask, 3);
    CHECK_TRUE(bools != NULL);
    CHECK_EQ(aclDestroyBoolArray(bools), ACLNN_SUCCESS);
    CHECK_EQ(aclDestroyBoolArray(bools), ACLNN_ERR_PARAM_INVALID);
    CHECK_TRUE(aclCreateBoolArray(NULL, 2) == NULL);
    aclIntArray *ints = aclCreateIntArray(SHAPE(1, 2, 3), 3);
    CHECK_TRUE(ints != NULL);
    CHECK_EQ(aclDestroyIntArray(ints), ACLNN_SUCCESS);
    aclFloatArray *floats = aclCreateFloatArray((const float[]){1.5f}, 1);
    CHECK_TRUE(floats != NULL);
    CHECK_EQ(aclDestroyFloatArray((const aclFloatArray *)ints), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclDestroyFloatArray(floats), ACLNN_SUCCESS);
    double value = 2.5;
    aclScalar *scalar = aclCreateScalar(&value, ACL_DOUBLE);
    CHECK_TRUE(scalar != NULL);
    CHECK_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
    CHECK_TRUE(aclCreateScalar(NULL, ACL_FLOAT) == NULL);
    CHECK_TRUE(aclCreateScalar(&value, ACL_STRING) == NULL);
    CHECK_EQ(aclrtFree(data), ACL_SUCCESS);
}

static void test_bce_backward(aclrtStream stream) {
    uint64_t ws;
    aclOpExecutor *ex;
    /* reduction mean, a 0-d gradOutput broadcast over self, no weight */
    const float x[] = {0.3f, 0.6f, 0.9f, 0.5f}, y[] = {0.0f, 1.0f, 1.0f, 0.5f};
    Tensor g = FLOATS(0, NULL, 2.0f);
    Tensor self = make(x, sizeof(float), ACL_FLOAT, 2, SHAPE(2, 2));
    Tensor target = make(y, sizeof(float), ACL_FLOAT, 2, SHAPE(2, 2));
    Tensor out = FLOATS(2, SHAPE(2, 2), 0, 0, 0, 0);
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(g.tensor, self.tensor, target.tensor, NULL, 1, out.tensor,
                                                             &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnBinaryCrossEntropyBackward, ws, ex, stream), ACLNN_SUCCESS);
    float result[4];
    fetch(&out, result);
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(result[i], 2.0 * (x[i] - y[i]) / ((1 - x[i]) * x[i]) / 4, 1e-6);
    }

    /* self read through a transposed view: element (i, j) at data[j * 2 + i] */
    void *tData = NULL;
    CHECK_EQ(aclrtMalloc(&tData, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy(tData, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    aclTensor *transposed = aclCreateTensor(SHAPE(2, 2), 2, ACL_FLOAT, SHAPE(1, 2), 0, ACL_FORMAT_ND, SHAPE(4), 1,
                                            tData);
    Tensor ones = FLOATS(1, SHAPE(1), 1.0f);
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(ones.tensor, transposed, target.tensor, NULL, 0,
                                                             out.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnBinaryCrossEntropyBackward, ws, ex, stream), ACLNN_SUCCESS);
    fetch(&out, result);
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            double xv = x[j * 2 + i], yv = y[i * 2 + j];
            CHECK_NEAR(result[i * 2 + j], (xv - yv) / ((1 - xv) * xv), 1e-6);
        }
    }
    CHECK_EQ(aclDestroyTensor(transposed), ACLNN_SUCCESS);
    CHECK_EQ(aclrtFree(tData), ACL_SUCCESS);

    /* FLOAT16 storage, with a weight, reduction sum */
    _Float16 hx[4], hy[4], hw[4], hg[1] = {(_Float16)0.5f}, hout[4];
    for (int i = 0; i < 4; i++) {
        hx[i] = (_Float16)x[i];
        hy[i] = (_Float16)y[i];
        hw[i] = (_Float16)(i + 1);
    }
    Tensor hSelf = make(hx, 2, ACL_FLOAT16, 2, SHAPE(2, 2));
    Tensor hTarget = make(hy, 2, ACL_FLOAT16, 2, SHAPE(2, 2));
    Tensor hWeight = make(hw, 2, ACL_FLOAT16, 2, SHAPE(2, 2));
    Tensor hGrad = make(hg, 2, ACL_FLOAT16, 1, SHAPE(1));
    Tensor hOut = make(NULL, 2, ACL_FLOAT16, 2, SHAPE(2, 2));
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(hGrad.tensor, hSelf.tensor, hTarget.tensor,
                                                             hWeight.tensor, 2, hOut.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnBinaryCrossEntropyBackward, ws, ex, stream), ACLNN_SUCCESS);
    fetch(&hOut, hout);
    for (int i = 0; i < 4; i++) {
        double xv = (float)hx[i], yv = (float)hy[i];
        CHECK_NEAR((float)hout[i], 0.5 * (xv - yv) / ((1 - xv) * xv) * (i + 1), 1e-3);
    }
    Tensor all[] = {g, self, target, out, ones, hSelf, hTarget, hWeight, hGrad, hOut};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        release(&all[i]);
    }
}

static void test_prelu_backward(aclrtStream stream) {
    uint64_t ws;
    aclOpExecutor *ex;
    /* one weight for every element; self == 0 takes the weight branch */
    Tensor g = FLOATS(2, SHAPE(2, 3), 1, 2, 3, 4, 5, 6);
    Tensor self = FLOATS(2, SHAPE(2, 3), -1, 2, -3, 4, 0, -0.5f);
    Tensor weight = FLOATS(1, SHAPE(1), 0.25f);
    Tensor gradInput = FLOATS(2, SHAPE(2, 3), 0, 0, 0, 0, 0, 0);
    Tensor gradWeight = FLOATS(1, SHAPE(1), 99);
    CHECK_EQ(aclnnPreluBackwardGetWorkspaceSize(g.tensor, self.tensor, weight.tensor, gradInput.tensor,
                                                gradWeight.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnPreluBackward, ws, ex, stream), ACLNN_SUCCESS);
    float gi[6], gw[1];
    fetch(&gradInput, gi);
    fetch(&gradWeight, gw);
    const float expected[] = {0.25f, 2, 0.75f, 4, 1.25f, 1.5f};
    for (int i = 0; i < 6; i++) {
        CHECK_NEAR(gi[i], expected[i], 1e-7);
    }
    CHECK_NEAR(gw[0], -1 * 1 + -3 * 3 + 0 * 5 + -0.5 * 6, 1e-6);

    /* BFLOAT16, one weight per channel (view dimension 1) */
    uint16_t bx[4], bg[4], bw[2] = {to_bf16(0.5f), to_bf16(0.25f)}, bgi[4], bgw[2];
    const float xs[] = {-2, 1, 3, -4};
    for (int i = 0; i < 4; i++) {
        bx[i] = to_bf16(xs[i]);
        bg[i] = to_bf16(1);
    }
    Tensor bSelf = make(bx, 2, ACL_BF16, 3, SHAPE(1, 2, 2));
    Tensor bGrad = make(bg, 2, ACL_BF16, 3, SHAPE(1, 2, 2));
    Tensor bWeight = make(bw, 2, ACL_BF16, 1, SHAPE(2));
    Tensor bGradInput = make(NULL, 2, ACL_BF16, 3, SHAPE(1, 2, 2));
    Tensor bGradWeight = make(NULL, 2, ACL_BF16, 1, SHAPE(2));
    CHECK_EQ(aclnnPreluBackwardGetWorkspaceSize(bGrad.tensor, bSelf.tensor, bWeight.tensor, bGradInput.tensor,
                                                bGradWeight.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnPreluBackward, ws, ex, stream), ACLNN_SUCCESS);
    fetch(&bGradInput, bgi);
    fetch(&bGradWeight, bgw);
    CHECK_NEAR(from_bf16(bgi[0]), 0.5, 0);
    CHECK_NEAR(from_bf16(bgi[1]), 1, 0);
    CHECK_NEAR(from_bf16(bgi[2]), 1, 0);
    CHECK_NEAR(from_bf16(bgi[3]), 0.25, 0);
    CHECK_NEAR(from_bf16(bgw[0]), -2, 0);
    CHECK_NEAR(from_bf16(bgw[1]), -4, 0);
    Tensor all[] = {g, self, weight, gradInput, gradWeight, bSelf, bGrad, bWeight, bGradInput, bGradWeight};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        release(&all[i]);
    }
}

static void test_bce_with_logits(aclrtStream stream) {
    uint64_t ws;
    aclOpExecutor *ex;
    const float x[] = {0.5f, -1, 2, -0.5f, 100, -100}, y[] = {1, 0, 1, 0, 0, 1}, pw[] = {2, 3};
    Tensor self = make(x, sizeof(float), ACL_FLOAT, 2, SHAPE(3, 2));
    Tensor target = make(y, sizeof(float), ACL_FLOAT, 2, SHAPE(3, 2));
    Tensor posWeight = make(pw, sizeof(float), ACL_FLOAT, 1, SHAPE(2)); /* broadcast over the rows */
    Tensor out = make(NULL, sizeof(float), ACL_FLOAT, 2, SHAPE(3, 2));
    Tensor sum = make(NULL, sizeof(float), ACL_FLOAT, 1, SHAPE(1));
    double expected[6], total = 0;
    for (int i = 0; i < 6; i++) {
        expected[i] = (1 - y[i]) * x[i] - (1 + (pw[i % 2] - 1) * y[i]) * log_sigmoid(x[i]);
        total += expected[i];
    }
    CHECK_EQ(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(self.tensor, target.tensor, NULL, posWeight.tensor, 0,
                                                               out.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnBinaryCrossEntropyWithLogits, ws, ex, stream), ACLNN_SUCCESS);
    float result[6];
    fetch(&out, result);
    for (int i = 0; i < 6; i++) {
        CHECK_NEAR(result[i], expected[i], 1e-6);
    }
    CHECK_EQ(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(self.tensor, target.tensor, NULL, posWeight.tensor, 2,
                                                               sum.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnBinaryCrossEntropyWithLogits, ws, ex, stream), ACLNN_SUCCESS);
    fetch(&sum, result);
    CHECK_NEAR(result[0], total, 1e-6);
    /* out must have one element for a reduction */
    CHECK_EQ(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(self.tensor, target.tensor, NULL, NULL, 1, out.tensor,
                                                               &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("out");
    Tensor all[] = {self, target, posWeight, out, sum};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        release(&all[i]);
    }
}

static void test_group_norm_backward(aclrtStream stream) {
    uint64_t ws;
    aclOpExecutor *ex;
    enum { N = 1, C = 4, HXW = 2, GROUP = 2, D = C / GROUP, M = D * HXW };
    const float x[] = {1, 2, 3, 4, 5, 6, 7, 8}, dy[] = {0.5f, -1, 2, 0, 1, 1, -2, 3};
    const float mean[] = {2.5f, 6.5f}, rstd[] = {0.8f, 0.8f}, gamma[] = {1, 2, 0.5f, -1};
    Tensor gradOut = make(dy, sizeof(float), ACL_FLOAT, 3, SHAPE(N, C, HXW));
    Tensor input = make(x, sizeof(float), ACL_FLOAT, 3, SHAPE(N, C, HXW));
    Tensor meanT = make(mean, sizeof(float), ACL_FLOAT, 2, SHAPE(N, GROUP));
    Tensor rstdT = make(rstd, sizeof(float), ACL_FLOAT, 2, SHAPE(N, GROUP));
    Tensor gammaT = make(gamma, sizeof(float), ACL_FLOAT, 1, SHAPE(C));
    Tensor gradInput = make(NULL, sizeof(float), ACL_FLOAT, 3, SHAPE(N, C, HXW));
    Tensor gradBeta = make(NULL, sizeof(float), ACL_FLOAT, 1, SHAPE(C));
    /* gradGammaOut is not asked for, so it may be null */
    aclBoolArray *mask = aclCreateBoolArray((const bool[]){true, false, true}, 3);
    CHECK_EQ(aclnnGroupNormBackwardGetWorkspaceSize(gradOut.tensor, input.tensor, meanT.tensor, rstdT.tensor,
                                                    gammaT.tensor, N, C, HXW, GROUP, mask, gradInput.tensor, NULL,
                                                    gradBeta.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnGroupNormBackward, ws, ex, stream), ACLNN_SUCCESS);
    float dx[N * C * HXW], db[C];
    fetch(&gradInput, dx);
    fetch(&gradBeta, db);
    double sdy[C] = {0}, sdyx[C] = {0};
    for (int c = 0; c < C; c++) {
        for (int k = 0; k < HXW; k++) {
            sdy[c] += dy[c * HXW + k];
            sdyx[c] += dy[c * HXW + k] * x[c * HXW + k];
        }
        CHECK_NEAR(db[c], sdy[c], 1e-6);
    }
    for (int g = 0; g < GROUP; g++) {
        double s1 = 0, s2 = 0, r = rstd[g], mu = mean[g];
        for (int c = g * D; c < (g + 1) * D; c++) {
            s1 += gamma[c] * sdy[c];
            s2 += gamma[c] * sdyx[c];
        }
        double b = (s1 * mu - s2) * r * r * r / M, c0 = -b * mu - s1 * r / M;
        for (int c = g * D; c < (g + 1) * D; c++) {
            for (int k = 0; k < HXW; k++) {
                int i = c * HXW + k;
                CHECK_NEAR(dx[i], r * gamma[c] * dy[i] + b * x[i] + c0, 1e-5);
            }
        }
    }
    /* the documented checks: C % group, the mask's length */
    CHECK_EQ(aclnnGroupNormBackwardGetWorkspaceSize(gradOut.tensor, input.tensor, meanT.tensor, rstdT.tensor,
                                                    gammaT.tensor, N, C, HXW, 3, mask, gradInput.tensor, NULL,
                                                    gradBeta.tensor, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("group");
    aclBoolArray *shortMask = aclCreateBoolArray((const bool[]){true, true}, 2);
    CHECK_EQ(aclnnGroupNormBackwardGetWorkspaceSize(gradOut.tensor, input.tensor, meanT.tensor, rstdT.tensor,
                                                    gammaT.tensor, N, C, HXW, GROUP, shortMask, gradInput.tensor,
                                                    NULL, gradBeta.tensor, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("outputMask");
    CHECK_EQ(aclDestroyBoolArray(mask), ACLNN_SUCCESS);
    CHECK_EQ(aclDestroyBoolArray(shortMask), ACLNN_SUCCESS);
    Tensor all[] = {gradOut, input, meanT, rstdT, gammaT, gradInput, gradBeta};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        release(&all[i]);
    }
}

static void test_nll_loss_backward(aclrtStream stream) {
    uint64_t ws;
    aclOpExecutor *ex;
    /* reduction none, INT32 targets, one row ignored */
    Tensor g = FLOATS(1, SHAPE(3), 0.5f, 1, 2);
    Tensor self = FLOATS(2, SHAPE(3, 4), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    Tensor target = make((const int32_t[]){1, -100, 3}, sizeof(int32_t), ACL_INT32, 1, SHAPE(3));
    Tensor weight = FLOATS(1, SHAPE(4), 1, 2, 3, 4);
    Tensor totalWeight = FLOATS(1, SHAPE(1), 6);
    Tensor out = FLOATS(2, SHAPE(3, 4), 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9);
    CHECK_EQ(aclnnNLLLossBackwardGetWorkspaceSize(g.tensor, self.tensor, target.tensor, weight.tensor, 0, -100,
                                                  totalWeight.tensor, out.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnNLLLossBackward, ws, ex, stream), ACLNN_SUCCESS);
    float result[12];
    fetch(&out, result);
    for (int i = 0; i < 12; i++) {
        CHECK_NEAR(result[i], i == 1 ? -1.0 : i == 11 ? -8.0 : 0.0, 0);
    }
    /* reduction mean: divided by totalWeight */
    Tensor one = FLOATS(0, NULL, 1);
    CHECK_EQ(aclnnNLLLossBackwardGetWorkspaceSize(one.tensor, self.tensor, target.tensor, weight.tensor, 1, -100,
                                                  totalWeight.tensor, out.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnNLLLossBackward, ws, ex, stream), ACLNN_SUCCESS);
    fetch(&out, result);
    CHECK_NEAR(result[1], -2.0 / 6, 1e-7);
    CHECK_NEAR(result[11], -4.0 / 6, 1e-7);
    /* 1-D self with a 0-d UINT8 target */
    Tensor self1 = FLOATS(1, SHAPE(4), 0, 0, 0, 0);
    Tensor target1 = make((const uint8_t[]){2}, 1, ACL_UINT8, 0, NULL);
    Tensor out1 = FLOATS(1, SHAPE(4), 9, 9, 9, 9);
    CHECK_EQ(aclnnNLLLossBackwardGetWorkspaceSize(one.tensor, self1.tensor, target1.tensor, weight.tensor, 2, -100,
                                                  totalWeight.tensor, out1.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(run(aclnnNLLLossBackward, ws, ex, stream), ACLNN_SUCCESS);
    fetch(&out1, result);
    CHECK_TRUE(result[0] == 0 && result[1] == 0 && result[2] == -3 && result[3] == 0);
    /* a target out of [0, C) fails at run time: reported by the synchronize, with row and value */
    Tensor bad = make((const int64_t[]){1, 2, 7}, sizeof(int64_t), ACL_INT64, 1, SHAPE(3));
    CHECK_EQ(aclnnNLLLossBackwardGetWorkspaceSize(g.tensor, self.tensor, bad.tensor, weight.tensor, 0, -100,
                                                  totalWeight.tensor, out.tensor, &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(aclnnNLLLossBackward(NULL, ws, ex, stream), ACLNN_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACLNN_ERR_RUNTIME_ERROR);
    CHECK_MESSAGE("7");
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS); /* the stream keeps working */
    Tensor all[] = {g, self, target, weight, totalWeight, out, one, self1, target1, out1, bad};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        release(&all[i]);
    }
}

static void test_errors(aclrtStream stream) {
    uint64_t ws;
    aclOpExecutor *ex;
    Tensor x = FLOATS(1, SHAPE(4), 0.5f, 0.5f, 0.5f, 0.5f);
    Tensor out = FLOATS(1, SHAPE(4), 0, 0, 0, 0);

    /* phase 1: null out-parameters first, then null tensors, then the operator's checks */
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, NULL, 0, out.tensor, NULL,
                                                             &ex), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_MESSAGE("workspaceSize");
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize((aclTensor *)&ws, x.tensor, x.tensor, NULL, 0, out.tensor,
                                                             &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_MESSAGE("executor");
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, NULL, x.tensor, NULL, 0, out.tensor, &ws, &ex),
             ACLNN_ERR_PARAM_NULLPTR);
    CHECK_MESSAGE("self");
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, NULL, 5, out.tensor, &ws,
                                                             &ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("reduction");
    CHECK_EQ(aclnnPreluBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, out.tensor, NULL, &ws, &ex),
             ACLNN_ERR_PARAM_NULLPTR);
    CHECK_EQ(aclnnNLLLossBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, NULL, 0, -100, x.tensor, out.tensor,
                                                  &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    /* handles that aclnn4j did not make are rejected, not followed */
    float notATensor[16] = {0};
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, (aclTensor *)notATensor, x.tensor, NULL, 0,
                                                             out.tensor, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("self (0x");
    CHECK_EQ(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(x.tensor, (aclTensor *)stream, NULL, NULL, 0,
                                                               out.tensor, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("is an aclrtStream, not an aclTensor");
    /* a view reaching past its allocation */
    aclTensor *tooBig = aclCreateTensor(SHAPE(4, 4), 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, SHAPE(16), 1, x.data);
    CHECK_TRUE(tooBig != NULL);
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(tooBig, tooBig, tooBig, NULL, 0, tooBig, &ws, &ex),
             ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclDestroyTensor(tooBig), ACLNN_SUCCESS);

    /* phase 2 */
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, 0, NULL, stream), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, 0, (aclOpExecutor *)notATensor, stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("not a live aclOpExecutor");
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, NULL, 0, out.tensor, &ws,
                                                             &ex), ACLNN_SUCCESS);
    CHECK_EQ(aclnnPreluBackward(NULL, ws, ex, stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("aclnnBinaryCrossEntropyBackwardGetWorkspaceSize");
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, ws, ex, (aclrtStream)notATensor), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("stream");
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(notATensor, ws, ex, stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("workspace");
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, ws, ex, stream), ACLNN_SUCCESS);
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, ws, ex, stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("already run");
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);

    /* a repeatable executor runs until destroyed */
    CHECK_EQ(aclDestroyAclOpExecutor(NULL), ACLNN_ERR_INNER_NULLPTR);
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, NULL, 0, out.tensor, &ws,
                                                             &ex), ACLNN_SUCCESS);
    CHECK_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(run(aclnnBinaryCrossEntropyBackward, ws, ex, stream), ACLNN_SUCCESS);
    }
    CHECK_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, ws, ex, stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID);

    /* memory freed between the phases */
    Tensor doomed = FLOATS(1, SHAPE(4), 0.5f, 0.5f, 0.5f, 0.5f);
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, doomed.tensor, x.tensor, NULL, 0, out.tensor,
                                                             &ws, &ex), ACLNN_SUCCESS);
    CHECK_EQ(aclrtFree(doomed.data), ACL_SUCCESS);
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, ws, ex, stream), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("freed");
    CHECK_EQ(aclDestroyTensor(doomed.tensor), ACLNN_SUCCESS);
    CHECK_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);

    /* a message longer than any buffer so far still arrives whole */
    int64_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 4};
    aclTensor *rank9 = aclCreateTensor(dims, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 9, x.data);
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(rank9, rank9, rank9, NULL, 0, rank9, &ws, &ex),
             ACLNN_ERR_PARAM_INVALID);
    const char *message = aclGetRecentErrMsg();
    CHECK_TRUE(message != NULL && strlen(message) > 10);
    CHECK_TRUE(aclGetRecentErrMsg() == NULL);
    CHECK_EQ(aclDestroyTensor(rank9), ACLNN_SUCCESS);
    release(&x);
    release(&out);
}

/* Pointers no C program can hold (small integers, non-canonical patterns) are rejected, not followed. */
static void test_garbage_pointers(aclrtStream stream) {
    void **small = (void **)(uintptr_t)0x10;
    void *pattern = (void *)(uintptr_t)0xdeadbeefdeadbeefULL;
    float host[4] = {0};
    CHECK_EQ(aclrtMalloc(small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("not a valid address");
    CHECK_EQ(aclrtCreateStream((aclrtStream *)pattern), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtGetDevice((int32_t *)small), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMemcpy(pattern, 16, host, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMemcpy(host, 16, pattern, 16, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtMemcpy(pattern, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclInit((const char *)small), ACL_ERROR_INVALID_PARAM);
    CHECK_TRUE(aclCreateTensor((const int64_t *)small, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL) == NULL);
    CHECK_MESSAGE("viewDims");
    CHECK_TRUE(aclCreateTensor(SHAPE(2), (uint64_t)1 << 40, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL) == NULL);
    CHECK_TRUE(aclCreateIntArray((const int64_t *)pattern, 2) == NULL);
    CHECK_TRUE(aclCreateScalar(small, ACL_FLOAT) == NULL);
    Tensor x = FLOATS(1, SHAPE(2), 0.5f, 0.5f);
    uint64_t *workspaceSize = (uint64_t *)(uintptr_t)8;
    aclOpExecutor *executor;
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(x.tensor, x.tensor, x.tensor, NULL, 0, x.tensor,
                                                             workspaceSize, &executor), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(pattern, 0, (aclOpExecutor *)pattern, stream), ACLNN_ERR_PARAM_INVALID);
    int64_t *dims;
    CHECK_EQ(aclGetViewShape(x.tensor, &dims, (uint64_t *)small), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclDestroyTensor((const aclTensor *)pattern), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclrtFree(pattern), ACL_ERROR_INVALID_PARAM);
    release(&x);
}

/* Two C threads at once: each its own stream and operator, checking its results and its messages. */
typedef struct {
    int which;
    int iterations;
} Worker;

static void *work(void *arg) {
    const Worker *w = arg;
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    uint64_t ws;
    aclOpExecutor *ex;
    for (int i = 0; i < w->iterations; i++) {
        float v = (float)(i % 7 + 1) / 10; /* differs per iteration, so a stale result shows */
        if (w->which == 0) {
            Tensor g = FLOATS(1, SHAPE(2), 1, 1);
            Tensor self = FLOATS(1, SHAPE(2), v, v);
            Tensor target = FLOATS(1, SHAPE(2), 0, 1);
            Tensor out = FLOATS(1, SHAPE(2), 0, 0);
            CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(g.tensor, self.tensor, target.tensor, NULL, 0,
                                                                     out.tensor, &ws, &ex), ACLNN_SUCCESS);
            CHECK_EQ(run(aclnnBinaryCrossEntropyBackward, ws, ex, stream), ACLNN_SUCCESS);
            float r[2];
            fetch(&out, r);
            CHECK_NEAR(r[0], v / ((1 - (double)v) * v), 1e-5);
            CHECK_NEAR(r[1], (v - 1) / ((1 - (double)v) * v), 1e-5);
            release(&g);
            release(&self);
            release(&target);
            release(&out);
            /* this thread's error stays this thread's */
            CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, 0, NULL, stream), ACLNN_ERR_PARAM_NULLPTR);
            CHECK_MESSAGE("aclnnBinaryCrossEntropyBackward");
        } else {
            Tensor g = FLOATS(1, SHAPE(2), 1, 1);
            Tensor self = FLOATS(1, SHAPE(2), -v, v);
            Tensor weight = FLOATS(1, SHAPE(1), v);
            Tensor gradInput = FLOATS(1, SHAPE(2), 0, 0);
            Tensor gradWeight = FLOATS(1, SHAPE(1), 0);
            CHECK_EQ(aclnnPreluBackwardGetWorkspaceSize(g.tensor, self.tensor, weight.tensor, gradInput.tensor,
                                                        gradWeight.tensor, &ws, &ex), ACLNN_SUCCESS);
            CHECK_EQ(run(aclnnPreluBackward, ws, ex, stream), ACLNN_SUCCESS);
            float gi[2], gw[1];
            fetch(&gradInput, gi);
            fetch(&gradWeight, gw);
            CHECK_NEAR(gi[0], v, 1e-7);
            CHECK_NEAR(gi[1], 1, 0);
            CHECK_NEAR(gw[0], -v, 1e-7);
            release(&g);
            release(&self);
            release(&weight);
            release(&gradInput);
            release(&gradWeight);
            CHECK_TRUE(aclGetRecentErrMsg() == NULL);
        }
    }
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    return NULL;
}

static void test_threads(void) {
    Worker workers[2] = {{0, 300}, {1, 300}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(pthread_join(threads[i], NULL), 0);
    }
}

/* out = 2 * grad (BCE backward with self 0.5, target 0), queued on stream. */
static void queue_doubling(const Tensor *grad, const Tensor *self, const Tensor *target, const Tensor *out,
                           aclrtStream stream) {
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = NULL;
    CHECK_EQ(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(grad->tensor, self->tensor, target->tensor, NULL, 0,
                                                             out->tensor, &workspaceSize, &executor),
             ACLNN_SUCCESS);
    CHECK_EQ(workspaceSize, 0);
    CHECK_EQ(aclnnBinaryCrossEntropyBackward(NULL, 0, executor, stream), ACLNN_SUCCESS);
}

/* Copies and fills in stream order beside an operator; two streams ordered by an event; elapsed time. */
static void test_async_and_events(aclrtStream stream) {
    enum { N = 1 << 18 };
    static float host[N], back[N], halves[N];
    for (int i = 0; i < N; i++) {
        host[i] = (float)(i % 1000) / 250.0f - 2.0f;
        halves[i] = 0.5f;
    }
    Tensor grad = make(NULL, sizeof(float), ACL_FLOAT, 1, SHAPE(N));
    Tensor self = make(halves, sizeof(float), ACL_FLOAT, 1, SHAPE(N));
    Tensor target = make(NULL, sizeof(float), ACL_FLOAT, 1, SHAPE(N));
    Tensor out = make(NULL, sizeof(float), ACL_FLOAT, 1, SHAPE(N));
    Tensor copy = make(NULL, sizeof(float), ACL_FLOAT, 1, SHAPE(N));
    size_t bytes = sizeof host;

    /* async copy in, the operator, async copy back, one synchronize */
    CHECK_EQ(aclrtMemcpyAsync(grad.data, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
    queue_doubling(&grad, &self, &target, &out, stream);
    CHECK_EQ(aclrtMemcpyAsync(back, bytes, out.data, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        wrong += back[i] != 2.0f * host[i];
    }
    CHECK_EQ(wrong, 0);

    /* two streams: the second copies what the first computes, after an event, without the host waiting */
    aclrtStream other;
    aclrtEvent start, done;
    CHECK_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    CHECK_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
    CHECK_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
    CHECK_EQ(aclrtMemsetAsync(out.data, bytes, 0, bytes, stream), ACL_SUCCESS);
    CHECK_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    queue_doubling(&grad, &self, &target, &out, stream);
    queue_doubling(&out, &self, &target, &out, stream); /* out = 4 * host */
    CHECK_EQ(aclrtRecordEvent(done, stream), ACL_SUCCESS);
    CHECK_EQ(aclrtStreamWaitEvent(other, done), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpyAsync(copy.data, bytes, out.data, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, other), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
    fetch(&copy, back);
    wrong = 0;
    for (int i = 0; i < N; i++) {
        wrong += back[i] != 4.0f * host[i];
    }
    CHECK_EQ(wrong, 0);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_EQ(aclrtQueryEventStatus(done, &status), ACL_SUCCESS);
    CHECK_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS);
    float ms = -1;
    CHECK_EQ(aclrtEventElapsedTime(&ms, start, done), ACL_SUCCESS);
    CHECK_TRUE(ms > 0);
    CHECK_EQ(aclrtEventElapsedTime(NULL, start, done), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("ms");

    /* misuse */
    aclrtEvent unrecorded;
    CHECK_EQ(aclrtCreateEvent(&unrecorded), ACL_SUCCESS);
    CHECK_EQ(aclrtEventElapsedTime(&ms, unrecorded, done), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("never recorded");
    CHECK_EQ(aclrtRecordEvent(stream, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("is an aclrtStream, not an aclrtEvent");
    CHECK_EQ(aclrtMemcpyAsync(copy.data, 4, host, 8, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("exceeds destMax");
    CHECK_EQ(aclrtDestroyEvent(unrecorded), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyEvent(unrecorded), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
    release(&grad);
    release(&self);
    release(&target);
    release(&out);
    release(&copy);
}

/* SoC name, memory, current context, device synchronize and the system parameter options. */
static void test_runtime_queries(aclrtContext context) {
    const char *soc = aclrtGetSocName();
    CHECK_TRUE(soc != NULL && strncmp(soc, "Ascend", 6) == 0);
    size_t free = 0, total = 0;
    CHECK_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
    CHECK_TRUE(total > 0 && free <= total);
    void *p;
    CHECK_EQ(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    size_t freeAfter = 0;
    CHECK_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &freeAfter, &total), ACL_SUCCESS);
    CHECK_EQ(free - freeAfter, 1 << 20);
    CHECK_EQ(aclrtFree(p), ACL_SUCCESS);
    CHECK_EQ(aclrtGetMemInfo((aclrtMemAttr)18, &free, &total), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("aclrtMemAttr");
    CHECK_EQ(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &total), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("free");

    aclrtContext current = NULL;
    CHECK_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    CHECK_TRUE(current == context);
    CHECK_EQ(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("aclrtGetCurrentContext");

    int64_t value = -1;
    CHECK_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
    CHECK_EQ(value, 0);
    CHECK_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
    CHECK_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
    CHECK_EQ(value, 1);
    CHECK_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("opt 3");
    CHECK_EQ(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_SUCCESS);
    CHECK_EQ(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &value), ACL_SUCCESS);
    CHECK_EQ(value, 1);
    CHECK_EQ(aclrtGetSysParamOpt((aclSysParamOpt)4, &value), ACL_ERROR_INVALID_PARAM);
    CHECK_MESSAGE("opt 4");
    CHECK_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);

    CHECK_EQ(aclFloatToFloat16(1.0f), 0x3C00);
    CHECK_EQ(aclFloatToFloat16(-65520.0f), 0xFBFF);
    CHECK_TRUE(aclFloat16ToFloat(0x3555) == 0x1.554p-2f);
    CHECK_TRUE(aclFloat16ToFloat(0x7C00) == 65536.0f);
}

/* Tensor and scalar lists: sizes, NULL elements, ownership of what is in them, misuse. */
static void test_lists(void) {
    float host[4] = {1, 2, 3, 4};
    Tensor a = FLOATS(1, SHAPE(4), 1, 2, 3, 4);
    Tensor b = FLOATS(1, SHAPE(4), 5, 6, 7, 8);
    const aclTensor *tensors[3] = {a.tensor, NULL, b.tensor};
    aclTensorList *list = aclCreateTensorList(tensors, 3);
    CHECK_TRUE(list != NULL);
    uint64_t size = 0;
    CHECK_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
    CHECK_EQ(size, 3);
    CHECK_EQ(aclGetTensorListSize(list, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_EQ(aclGetTensorListSize(NULL, &size), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_TRUE(aclCreateTensorList(NULL, 2) == NULL);
    CHECK_MESSAGE("aclCreateTensorList");
    const aclTensor *bogus[1] = {(const aclTensor *)host};
    CHECK_TRUE(aclCreateTensorList(bogus, 1) == NULL);
    CHECK_MESSAGE("value[0]");
    CHECK_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
    /* the list destroyed its tensors: their handles are gone */
    CHECK_EQ(aclDestroyTensor(a.tensor), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("not a live aclTensor");
    CHECK_EQ(aclDestroyTensorList(list), ACLNN_ERR_PARAM_INVALID);
    CHECK_EQ(aclDestroyTensorList(NULL), ACLNN_SUCCESS);
    CHECK_EQ(aclrtFree(a.data), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(b.data), ACL_SUCCESS);

    double d = 0.5;
    int64_t i = 7;
    const aclScalar *scalars[2] = {aclCreateScalar(&d, ACL_DOUBLE), aclCreateScalar(&i, ACL_INT64)};
    aclScalarList *slist = aclCreateScalarList(scalars, 2);
    CHECK_TRUE(slist != NULL);
    CHECK_EQ(aclGetScalarListSize(slist, &size), ACLNN_SUCCESS);
    CHECK_EQ(size, 2);
    CHECK_EQ(aclGetTensorListSize((const aclTensorList *)slist, &size), ACLNN_ERR_PARAM_INVALID);
    CHECK_MESSAGE("not an aclTensorList");
    CHECK_EQ(aclDestroyScalarList(slist), ACLNN_SUCCESS);
    CHECK_EQ(aclDestroyScalar(scalars[0]), ACLNN_ERR_PARAM_INVALID);
}

int main(void) {
    aclrtContext context;
    aclrtStream stream;
    test_before_init();
    test_runtime(&context, &stream);
    if (check_failures > 0) { /* without a runtime the rest would only repeat the failure */
        return check_report("api_test");
    }
    test_runtime_queries(context);
    test_memory();
    test_tensors();
    test_lists();
    test_bce_backward(stream);
    test_async_and_events(stream);
    test_prelu_backward(stream);
    test_bce_with_logits(stream);
    test_group_norm_backward(stream);
    test_nll_loss_backward(stream);
    test_errors(stream);
    test_garbage_pointers(stream);
    test_threads();
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyContext(context), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(aclFinalize(), ACL_SUCCESS);
    CHECK_EQ(aclFinalize(), ACL_ERROR_UNINITIALIZE);
    void *p;
    CHECK_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    return check_report("api_test");
}
