/* libascendcl: the functions of acl.h, forwarded to aclnn4j (aclGetRecentErrMsg is in bridge.c). */
#include "acl/acl.h"
#include "bridge.h"

#define FORWARD_RT(name, ...) ACLNN4J_FORWARD(name, ACL_ERROR_INTERNAL_ERROR, ##__VA_ARGS__)

aclError aclInit(const char *configPath) {
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
