/*
 * The training run of the AOT cache that native/build.sh makes for the JVM the libraries start:
 * a C program using the libraries as C programs do (runtime set up, every operator's call of
 * calls.h made TRAIN_CALLS times, results copied back, everything freed and finalized), so that
 * the cache holds the classes, linked, and the method profiles of the C ABI's own path. Run with
 * ACLNN4J_JAVA_OPTIONS=-XX:AOTCacheOutput=FILE; the JVM writes the cache when it exits, and a C
 * program's exit does not end it, so this one ends with System.exit through JNI.
 * Build: gcc train.c -I PREFIX/include -I JDK/include -I JDK/include/linux -L PREFIX/lib64 \
 *          -lascendcl -lnnopbase -lopapi -ldl
 */
#define _GNU_SOURCE
#include "calls.h"
#include "jvm_env.h"

/* Enough calls of each for the JIT's profiles, little enough for a build step (about a second). */
#define TRAIN_CALLS 200

/* System.exit(0) in the JVM the libraries started: the JVM writes the cache as it ends. */
static void exit_jvm(void) {
    JNIEnv *env = started_jvm_env();
    jclass system = env == NULL ? NULL : (*env)->FindClass(env, "java/lang/System");
    jmethodID exit_method = system == NULL ? NULL : (*env)->GetStaticMethodID(env, system, "exit", "(I)V");
    if (exit_method != NULL) {
        (*env)->CallStaticVoidMethod(env, system, exit_method, 0); /* does not return */
    }
    fprintf(stderr, "train: cannot end the JVM\n");
    exit(1);
}

int main(void) {
    call_check(aclInit(NULL), "aclInit");
    call_check(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream = NULL;
    call_check(aclrtCreateStream(&stream), "aclrtCreateStream");
    for (int line = 0; line < CALL_LINES; line++) {
        call_t call;
        call_make(&call, line);
        for (int k = 0; k < TRAIN_CALLS; k++) {
            call_run(&call, stream);
        }
        call_free(&call);
    }
    call_check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    call_check(aclrtResetDevice(0), "aclrtResetDevice");
    call_check(aclFinalize(), "aclFinalize");
    exit_jvm();
    return 1;
}
