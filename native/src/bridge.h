/*
 * The C half of the bridge to aclnn4j (internal to the three libraries).
 *
 * Each exported C function calls a static Java method of io.github.aclnn4j.nativeabi (its entry,
 * named like it) through JNI, on the JVM the first call started. Pointers and handles cross as
 * jlong (JVM descriptor J), 32-bit integers and enums as jint (I). The entries are looked up by
 * name and descriptor when the JVM starts, so a C library and a jar that do not match fail then,
 * with a message, instead of calling the wrong method.
 */
#ifndef ACLNN4J_BRIDGE_H_
#define ACLNN4J_BRIDGE_H_

#include <jni.h>
#include <stdint.h>

#define ACLNN4J_ENTRIES(X)                                                      \
    X(aclInit, "(J)I")                                                          \
    X(aclFinalize, "()I")                                                       \
    X(aclGetRecentErrMsg, "(JJ)J")                                              \
    X(aclrtSetDevice, "(I)I")                                                   \
    X(aclrtResetDevice, "(I)I")                                                 \
    X(aclrtGetDevice, "(J)I")                                                   \
    X(aclrtGetDeviceCount, "(J)I")                                              \
    X(aclrtCreateContext, "(JI)I")                                              \
    X(aclrtSetCurrentContext, "(J)I")                                           \
    X(aclrtDestroyContext, "(J)I")                                              \
    X(aclrtCreateStream, "(J)I")                                                \
    X(aclrtDestroyStream, "(J)I")                                               \
    X(aclrtSynchronizeStream, "(J)I")                                           \
    X(aclrtCreateEvent, "(J)I")                                                 \
    X(aclrtDestroyEvent, "(J)I")                                                \
    X(aclrtRecordEvent, "(JJ)I")                                                \
    X(aclrtStreamWaitEvent, "(JJ)I")                                            \
    X(aclrtSynchronizeEvent, "(J)I")                                            \
    X(aclrtQueryEventStatus, "(JJ)I")                                           \
    X(aclrtEventElapsedTime, "(JJJ)I")                                          \
    X(aclrtMemcpyAsync, "(JJJJIJ)I")                                            \
    X(aclrtMemsetAsync, "(JJIJJ)I")                                             \
    X(aclrtSynchronizeDevice, "()I")                                            \
    X(aclrtGetCurrentContext, "(J)I")                                           \
    X(aclrtSetSysParamOpt, "(IJ)I")                                             \
    X(aclrtGetSysParamOpt, "(IJ)I")                                             \
    X(aclrtCtxSetSysParamOpt, "(IJ)I")                                          \
    X(aclrtCtxGetSysParamOpt, "(IJ)I")                                          \
    X(aclrtGetSocName, "(JJ)J")                                                 \
    X(aclrtGetMemInfo, "(IJJ)I")                                                \
    X(aclrtMalloc, "(JJI)I")                                                    \
    X(aclrtFree, "(J)I")                                                        \
    X(aclrtMallocHost, "(JJ)I")                                                 \
    X(aclrtFreeHost, "(J)I")                                                    \
    X(aclrtMemset, "(JJIJ)I")                                                   \
    X(aclrtMemcpy, "(JJJJI)I")                                                  \
    X(aclCreateTensor, "(JJIJJIJJJ)J")                                          \
    X(aclDestroyTensor, "(J)I")                                                 \
    X(aclCreateBoolArray, "(JJ)J")                                              \
    X(aclDestroyBoolArray, "(J)I")                                              \
    X(aclCreateIntArray, "(JJ)J")                                               \
    X(aclDestroyIntArray, "(J)I")                                               \
    X(aclCreateFloatArray, "(JJ)J")                                             \
    X(aclDestroyFloatArray, "(J)I")                                             \
    X(aclCreateScalar, "(JI)J")                                                 \
    X(aclDestroyScalar, "(J)I")                                                 \
    X(aclCreateTensorList, "(JJ)J")                                             \
    X(aclDestroyTensorList, "(J)I")                                             \
    X(aclGetTensorListSize, "(JJ)I")                                            \
    X(aclCreateScalarList, "(JJ)J")                                             \
    X(aclDestroyScalarList, "(J)I")                                             \
    X(aclGetScalarListSize, "(JJ)I")                                            \
    X(aclGetViewShape, "(JJJ)I")                                                \
    X(aclGetStorageShape, "(JJJ)I")                                             \
    X(aclGetViewStrides, "(JJJ)I")                                              \
    X(aclGetViewOffset, "(JJ)I")                                                \
    X(aclGetFormat, "(JJ)I")                                                    \
    X(aclGetDataType, "(JJ)I")                                                  \
    X(aclSetAclOpExecutorRepeatable, "(J)I")                                    \
    X(aclDestroyAclOpExecutor, "(J)I")                                          \
    X(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize, "(JJJJJJJJ)I")          \
    X(aclnnBinaryCrossEntropyBackward, "(JJJJ)I")                               \
    X(aclnnPreluBackwardGetWorkspaceSize, "(JJJJJJJ)I")                        \
    X(aclnnPreluBackward, "(JJJJ)I")                                            \
    X(aclnnPreluGetWorkspaceSize, "(JJJJJ)I")                                   \
    X(aclnnPrelu, "(JJJJ)I")                                                    \
    X(aclnnBinaryCrossEntropyGetWorkspaceSize, "(JJJJJJJ)I")                    \
    X(aclnnBinaryCrossEntropy, "(JJJJ)I")                                       \
    X(aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize, "(JJJJJJJJJ)I") \
    X(aclnnBinaryCrossEntropyWithLogitsBackward, "(JJJJ)I")                     \
    X(aclnnNLLLossGetWorkspaceSize, "(JJJJJJJJJ)I")                             \
    X(aclnnNLLLoss, "(JJJJ)I")                                                  \
    X(aclnnGroupNormGetWorkspaceSize, "(JJJJJJJDJJJJJ)I")                       \
    X(aclnnGroupNorm, "(JJJJ)I")                                                \
    X(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize, "(JJJJJJJJ)I")        \
    X(aclnnBinaryCrossEntropyWithLogits, "(JJJJ)I")                             \
    X(aclnnGroupNormBackwardGetWorkspaceSize, "(JJJJJJJJJJJJJJJ)I")            \
    X(aclnnGroupNormBackward, "(JJJJ)I")                                        \
    X(aclnnNLLLossBackwardGetWorkspaceSize, "(JJJJJJJJJJ)I")                   \
    X(aclnnNLLLossBackward, "(JJJJ)I")

enum {
#define ACLNN4J_SLOT(name, descriptor) ACLNN4J_SLOT_##name,
    ACLNN4J_ENTRIES(ACLNN4J_SLOT)
#undef ACLNN4J_SLOT
    ACLNN4J_SLOT_COUNT
};

#define ACLNN4J_EXPORT __attribute__((visibility("default")))

typedef struct {
    jclass type;
    jmethodID method;
} aclnn4j_entry;

/* Filled when the JVM starts, read-only afterwards. */
ACLNN4J_EXPORT extern aclnn4j_entry aclnn4j_entries[ACLNN4J_SLOT_COUNT];

/*
 * This thread's JNIEnv: the first call from any thread starts the JVM, the first call from each
 * thread attaches it (it is detached when it ends). NULL when the JVM could not be started; the
 * reason is then this thread's aclGetRecentErrMsg.
 */
ACLNN4J_EXPORT JNIEnv *aclnn4j_env(void);

/* Why the JVM could not be started (empty while it has not failed). */
ACLNN4J_EXPORT const char *aclnn4j_start_failure(void);

/* After an entry threw: records the message and clears the exception; returns the status to give. */
ACLNN4J_EXPORT jint aclnn4j_failed(JNIEnv *env, int slot, jint internal_status);

#define ACLNN4J_ADDR(p) ((jlong)(uintptr_t)(p))

/* The body of a C function returning a status: call its entry, or return failure. */
#define ACLNN4J_FORWARD(name, failure, ...)                                                                     \
    do {                                                                                                        \
        JNIEnv *env_ = aclnn4j_env();                                                                           \
        if (env_ == NULL) {                                                                                     \
            return (failure);                                                                                   \
        }                                                                                                       \
        const aclnn4j_entry *entry_ = &aclnn4j_entries[ACLNN4J_SLOT_##name];                                    \
        jint status_ = (*env_)->CallStaticIntMethod(env_, entry_->type, entry_->method, ##__VA_ARGS__);         \
        return (*env_)->ExceptionCheck(env_) ? aclnn4j_failed(env_, ACLNN4J_SLOT_##name, (failure))             \
                                             : status_;                                                         \
    } while (0)

/* The body of a C function returning a handle (NULL on failure). */
#define ACLNN4J_FORWARD_HANDLE(name, handle_type, ...)                                                          \
    do {                                                                                                        \
        JNIEnv *env_ = aclnn4j_env();                                                                           \
        if (env_ == NULL) {                                                                                     \
            return NULL;                                                                                        \
        }                                                                                                       \
        const aclnn4j_entry *entry_ = &aclnn4j_entries[ACLNN4J_SLOT_##name];                                    \
        jlong handle_ = (*env_)->CallStaticLongMethod(env_, entry_->type, entry_->method, __VA_ARGS__);         \
        if ((*env_)->ExceptionCheck(env_)) {                                                                    \
            aclnn4j_failed(env_, ACLNN4J_SLOT_##name, 0);                                                       \
            return NULL;                                                                                        \
        }                                                                                                       \
        return (handle_type *)(uintptr_t)handle_;                                                               \
    } while (0)

#endif /* ACLNN4J_BRIDGE_H_ */
