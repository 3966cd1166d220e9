/*
 * libascendcl: the functions of acl.h, forwarded to aclnn4j (aclGetRecentErrMsg is in bridge.c),
 * except the half conversions, which need no JVM.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "bridge.h"

#define FORWARD_RT(name, ...) ACLNN4J_FORWARD(name, ACL_ERROR_INTERNAL_ERROR, ##__VA_ARGS__)

/* Without a JVM nothing works: the reason goes to stderr too, where whoever runs the program sees it. */
aclError aclInit(const char *configPath) {
    if (aclnn4j_env() == NULL) {
        fprintf(stderr, "%s\n", aclnn4j_start_failure());
        return ACL_ERROR_INTERNAL_ERROR;
    }
    FORWARD_RT(aclInit, ACLNN4J_ADDR(configPath));
}

aclError aclFinalize(void) {
    FORWARD_RT(aclFinalize);
}

aclError aclrtSetDevice(int32_t deviceId) {
    FORWARD_RT(aclrtSetDevice, (jint)deviceId);
}

aclError aclrtResetDevice(int32_t deviceId) {
    FORWARD_RT(aclrtResetDevice, (jint)deviceId);
}

aclError aclrtGetDevice(int32_t *deviceId) {
    FORWARD_RT(aclrtGetDevice, ACLNN4J_ADDR(deviceId));
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    FORWARD_RT(aclrtGetDeviceCount, ACLNN4J_ADDR(count));
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
    FORWARD_RT(aclrtCreateContext, ACLNN4J_ADDR(context), (jint)deviceId);
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    FORWARD_RT(aclrtSetCurrentContext, ACLNN4J_ADDR(context));
}

aclError aclrtDestroyContext(aclrtContext context) {
    FORWARD_RT(aclrtDestroyContext, ACLNN4J_ADDR(context));
}

aclError aclrtCreateStream(aclrtStream *stream) {
    FORWARD_RT(aclrtCreateStream, ACLNN4J_ADDR(stream));
}

aclError aclrtDestroyStream(aclrtStream stream) {
    FORWARD_RT(aclrtDestroyStream, ACLNN4J_ADDR(stream));
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    FORWARD_RT(aclrtSynchronizeStream, ACLNN4J_ADDR(stream));
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    FORWARD_RT(aclrtMalloc, ACLNN4J_ADDR(devPtr), (jlong)size, (jint)policy);
}

aclError aclrtFree(void *devPtr) {
    FORWARD_RT(aclrtFree, ACLNN4J_ADDR(devPtr));
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
    FORWARD_RT(aclrtMallocHost, ACLNN4J_ADDR(hostPtr), (jlong)size);
}

aclError aclrtFreeHost(void *hostPtr) {
    FORWARD_RT(aclrtFreeHost, ACLNN4J_ADDR(hostPtr));
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    FORWARD_RT(aclrtMemset, ACLNN4J_ADDR(devPtr), (jlong)maxCount, (jint)value, (jlong)count);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    FORWARD_RT(aclrtMemcpy, ACLNN4J_ADDR(dst), (jlong)destMax, ACLNN4J_ADDR(src), (jlong)count, (jint)kind);
}

aclError aclrtSynchronizeDevice(void) {
    FORWARD_RT(aclrtSynchronizeDevice);
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
    FORWARD_RT(aclrtGetCurrentContext, ACLNN4J_ADDR(context));
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    FORWARD_RT(aclrtSetSysParamOpt, (jint)opt, (jlong)value);
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
    FORWARD_RT(aclrtGetSysParamOpt, (jint)opt, ACLNN4J_ADDR(value));
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    FORWARD_RT(aclrtCtxSetSysParamOpt, (jint)opt, (jlong)value);
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
    FORWARD_RT(aclrtCtxGetSysParamOpt, (jint)opt, ACLNN4J_ADDR(value));
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
    FORWARD_RT(aclrtGetMemInfo, (jint)attr, ACLNN4J_ADDR(free), ACLNN4J_ADDR(total));
}

/* The name is fixed for the life of the process once a JVM runs; each thread keeps its copy. */
const char *aclrtGetSocName(void) {
    static __thread char name[128];
    JNIEnv *env = aclnn4j_env();
    if (env == NULL) {
        return NULL;
    }
    const aclnn4j_entry *entry = &aclnn4j_entries[ACLNN4J_SLOT_aclrtGetSocName];
    jlong needed = (*env)->CallStaticLongMethod(env, entry->type, entry->method, ACLNN4J_ADDR(name),
                                                (jlong)sizeof name);
    if ((*env)->ExceptionCheck(env)) {
        aclnn4j_failed(env, ACLNN4J_SLOT_aclrtGetSocName, 0);
        return NULL;
    }
    return needed > 0 && (size_t)needed <= sizeof name ? name : NULL;
}

/* IEEE round to nearest even, then CANN's saturation: out of range, infinities and NaN give +-65504. */
aclFloat16 aclFloatToFloat16(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    uint32_t magnitude = bits & 0x7FFFFFFFu;
    if (magnitude >= 0x477FF000u) { /* 65520 and up round past 65504; also infinity and NaN */
        return (aclFloat16)(sign | 0x7BFFu);
    }
    if (magnitude >= 0x38800000u) { /* 2^-14 and up: a normal half; the carry may raise the exponent */
        uint32_t rebiased = magnitude - 0x38000000u;
        rebiased += 0x0FFFu + ((rebiased >> 13) & 1u);
        return (aclFloat16)(sign | (rebiased >> 13));
    }
    if (magnitude < 0x33000000u) { /* below 2^-25: zero */
        return (aclFloat16)sign;
    }
    /* A subnormal half: the significand in units of 2^-24, rounded to nearest even. */
    uint32_t exponent = magnitude >> 23;
    uint32_t significand = (magnitude & 0x7FFFFFu) | 0x800000u;
    uint32_t shift = 126u - exponent;
    uint32_t units = significand >> shift;
    uint32_t rest = significand & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (units & 1u))) {
        units++;
    }
    return (aclFloat16)(sign | units);
}

/* Exact; CANN reads the largest exponent as an ordinary one (no infinities or NaN). */
float aclFloat16ToFloat(aclFloat16 value) {
    uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
    uint32_t exponent = (value >> 10) & 0x1Fu;
    uint32_t fraction = value & 0x3FFu;
    float result;
    if (exponent == 0) {
        result = (float)fraction * 0x1p-24f;
        uint32_t bits;
        memcpy(&bits, &result, sizeof bits);
        bits |= sign;
        memcpy(&result, &bits, sizeof bits);
        return result;
    }
    uint32_t bits = sign | ((exponent + 112u) << 23) | (fraction << 13);
    memcpy(&result, &bits, sizeof bits);
    return result;
}

aclError aclrtCreateEvent(aclrtEvent *event) {
    FORWARD_RT(aclrtCreateEvent, ACLNN4J_ADDR(event));
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    FORWARD_RT(aclrtDestroyEvent, ACLNN4J_ADDR(event));
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    FORWARD_RT(aclrtRecordEvent, ACLNN4J_ADDR(event), ACLNN4J_ADDR(stream));
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    FORWARD_RT(aclrtStreamWaitEvent, ACLNN4J_ADDR(stream), ACLNN4J_ADDR(event));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    FORWARD_RT(aclrtSynchronizeEvent, ACLNN4J_ADDR(event));
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
    FORWARD_RT(aclrtQueryEventStatus, ACLNN4J_ADDR(event), ACLNN4J_ADDR(status));
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    FORWARD_RT(aclrtEventElapsedTime, ACLNN4J_ADDR(ms), ACLNN4J_ADDR(startEvent), ACLNN4J_ADDR(endEvent));
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    FORWARD_RT(aclrtMemcpyAsync, ACLNN4J_ADDR(dst), (jlong)destMax, ACLNN4J_ADDR(src), (jlong)count, (jint)kind,
               ACLNN4J_ADDR(stream));
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    FORWARD_RT(aclrtMemsetAsync, ACLNN4J_ADDR(devPtr), (jlong)maxCount, (jint)value, (jlong)count,
               ACLNN4J_ADDR(stream));
}
