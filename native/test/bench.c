/*
 * Overhead of the C ABI: the first call (which starts the JVM), one bridge round trip, and a 2x2
 * BinaryCrossEntropyBackward through C after warm-up. For the round trip's floor it also calls the
 * same Java entry with a bare JNI call (no thread lookup, no exception check).
 * Build: gcc -O2 bench.c -I PREFIX/include -I $JDK/include -I $JDK/include/linux \
 *          -L PREFIX/lib -lascendcl -lnnopbase -lopapi -ldl -Wl,-rpath,PREFIX/lib
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../train/jvm_env.h"
#include "acl/acl.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"

#define BATCHES 15

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void check(int status, const char *what) {
    if (status != 0) {
        fprintf(stderr, "%s failed: %d %s\n", what, status, aclGetRecentErrMsg());
        exit(1);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The mean time of one call in microseconds, per batch: the median and the best of BATCHES batches. */
typedef struct {
    double median, best;
} Timing;

#define MEASURE(result, per_batch, body)                      \
    do {                                                      \
        double times_[BATCHES];                               \
        for (int b_ = 0; b_ < BATCHES; b_++) {                \
            double t0_ = now_us();                            \
            for (int i_ = 0; i_ < (per_batch); i_++) {        \
                body;                                         \
            }                                                 \
            times_[b_] = (now_us() - t0_) / (per_batch);      \
        }                                                     \
        qsort(times_, BATCHES, sizeof times_[0], compare);    \
        (result).median = times_[BATCHES / 2];                \
        (result).best = times_[0];                            \
    } while (0)

static aclTensor *tensor(float value, void **device) {
    int64_t shape[] = {2, 2};
    float host[] = {value, value, value, value};
    check(aclrtMalloc(device, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMemcpy(*device, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    return aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 2, *device);
}

int main(void) {
    double t0 = now_us();
    check(aclInit(NULL), "aclInit");
    double start_ms = (now_us() - t0) / 1e3;
    t0 = now_us();
    check(aclrtSetDevice(0), "aclrtSetDevice");
    double second_ms = (now_us() - t0) / 1e3;
    aclrtStream stream;
    check(aclrtCreateStream(&stream), "aclrtCreateStream");

    void *gradOutputDev, *selfDev, *targetDev, *weightDev, *outDev;
    aclTensor *gradOutput = tensor(0.1f, &gradOutputDev);
    aclTensor *self = tensor(0.3f, &selfDev);
    aclTensor *target = tensor(0.5f, &targetDev);
    aclTensor *weight = tensor(1.0f, &weightDev);
    aclTensor *out = tensor(0.0f, &outDev);
    uint64_t workspaceSize;
    aclOpExecutor *executor;

#define OP_CALL                                                                                              \
    check(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(gradOutput, self, target, weight, 0, out,          \
                                                          &workspaceSize, &executor), "phase 1");            \
    check(aclnnBinaryCrossEntropyBackward(NULL, workspaceSize, executor, stream), "phase 2");                \
    check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")

    for (int i = 0; i < 30000; i++) { /* warm-up: let the JIT compile the whole path */
        OP_CALL;
    }
    Timing op_us, phase1_us, phase2_us, trip_us, jni_us = {-1, -1};
    int32_t device;
    MEASURE(op_us, 2000, OP_CALL);
    MEASURE(phase1_us, 2000,
            check(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(gradOutput, self, target, weight, 0, out,
                                                                  &workspaceSize, &executor), "phase 1");
            check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor"));
    check(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(gradOutput, self, target, weight, 0, out, &workspaceSize,
                                                          &executor), "phase 1");
    check(aclSetAclOpExecutorRepeatable(executor), "aclSetAclOpExecutorRepeatable");
    MEASURE(phase2_us, 2000, check(aclnnBinaryCrossEntropyBackward(NULL, workspaceSize, executor, stream), "phase 2");
            check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream"));
    check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor");
    for (int i = 0; i < 200000; i++) {
        aclrtGetDevice(&device);
    }
    MEASURE(trip_us, 100000, aclrtGetDevice(&device));

    JNIEnv *env = started_jvm_env();
    jclass entries = env == NULL ? NULL : (*env)->FindClass(env, "io/github/aclnn4j/nativeabi/RuntimeEntries");
    jmethodID entry = entries == NULL ? NULL : (*env)->GetStaticMethodID(env, entries, "aclrtGetDevice", "(J)I");
    if (entry != NULL) {
        for (int i = 0; i < 200000; i++) {
            (*env)->CallStaticIntMethod(env, entries, entry, (jlong)(uintptr_t)&device);
        }
        MEASURE(jni_us, 100000, (*env)->CallStaticIntMethod(env, entries, entry, (jlong)(uintptr_t)&device));
    }

    float result[4];
    check(aclrtMemcpy(result, sizeof result, outDev, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
    printf("result check: %f (expected -0.095238)\n", result[0]);
    printf("JVM start, first call (aclInit): %.1f ms\n", start_ms);
    printf("first call of a second function (aclrtSetDevice): %.2f ms\n", second_ms);
    printf("per call, median and best of %d batches:\n", BATCHES);
    printf("  bridge round trip (aclrtGetDevice): %.3f us, best %.3f us\n", trip_us.median, trip_us.best);
    printf("  its Java entry through a bare JNI call: %.3f us, best %.3f us\n", jni_us.median, jni_us.best);
    printf("  2x2 BCE backward, phase 1 + phase 2 + synchronize: %.2f us, best %.2f us\n", op_us.median, op_us.best);
    printf("    phase 1 + aclDestroyAclOpExecutor: %.2f us, best %.2f us\n", phase1_us.median, phase1_us.best);
    printf("    phase 2 + synchronize, repeatable executor: %.2f us, best %.2f us\n", phase2_us.median,
           phase2_us.best);

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(target);
    aclDestroyTensor(weight);
    aclDestroyTensor(out);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
