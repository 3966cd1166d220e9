/*
 * The JNIEnv of the calling thread in the JVM the libraries started, found through the libjvm
 * they loaded (/proc/self/maps), for C programs that reach past the C ABI into that JVM: the AOT
 * cache's training run (train.c), to end it, and the overhead bench (native/test/bench.c), for a
 * bare JNI call. NULL when there is none. Define _GNU_SOURCE before any #include (RTLD_NOLOAD).
 */
#ifndef ACLNN4J_TRAIN_JVM_ENV_H_
#define ACLNN4J_TRAIN_JVM_ENV_H_

#include <dlfcn.h>
#include <jni.h>
#include <stdio.h>
#include <string.h>

static inline JNIEnv *started_jvm_env(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    char *path = NULL;
    while (maps != NULL && path == NULL && fgets(line, sizeof line, maps) != NULL) {
        char *at = strstr(line, "/libjvm.so");
        if (at != NULL) {
            at[strlen("/libjvm.so")] = '\0';
            path = strchr(line, '/');
        }
    }
    if (maps != NULL) {
        fclose(maps);
    }
    void *libjvm = path == NULL ? NULL : dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    jint (*created)(JavaVM **, jsize, jsize *) =
        libjvm == NULL ? NULL : (jint(*)(JavaVM **, jsize, jsize *))dlsym(libjvm, "JNI_GetCreatedJavaVMs");
    JavaVM *vm;
    jsize count = 0;
    JNIEnv *env = NULL;
    if (created == NULL || created(&vm, 1, &count) != JNI_OK || count != 1 ||
        (*vm)->AttachCurrentThread(vm, (void **)&env, NULL) != JNI_OK) {
        return NULL;
    }
    return env;
}

#endif /* ACLNN4J_TRAIN_JVM_ENV_H_ */
