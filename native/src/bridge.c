/*
 * libascendcl's core: starts the JVM on first use, attaches calling threads, looks up the Java
 * entries (see bridge.h), and aclGetRecentErrMsg, which needs a per-thread buffer on this side.
 *
 * The JDK is found as ./aclnn4j finds one (see choose_jdk), the jar beside this library (so an
 * installed prefix can move; the class path recorded at build time, ACLNN4J_CLASS_PATH, otherwise);
 * ACLNN4J_JAVA_OPTIONS adds options (whitespace-separated) to the JVM.
 */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "bridge.h"

#ifndef ACLNN4J_JAVA_HOME
#error "build with -DACLNN4J_JAVA_HOME=\"<jdk>\" -DACLNN4J_CLASS_PATH=\"<jar>\" (native/build.sh does)"
#endif

#define MAX_JVM_OPTIONS 64
#define PACKAGE "io/github/aclnn4j/nativeabi/"

static const char *const entry_names[] = {
#define ACLNN4J_NAME(name, descriptor) #name,
    ACLNN4J_ENTRIES(ACLNN4J_NAME)
#undef ACLNN4J_NAME
};

static const char *const entry_descriptors[] = {
#define ACLNN4J_DESCRIPTOR(name, descriptor) descriptor,
    ACLNN4J_ENTRIES(ACLNN4J_DESCRIPTOR)
#undef ACLNN4J_DESCRIPTOR
};

/* The classes that hold the entries, searched in this order. */
static const char *const entry_classes[] = {PACKAGE "RuntimeEntries", PACKAGE "TensorEntries",
                                            PACKAGE "OperatorEntries"};

aclnn4j_entry aclnn4j_entries[ACLNN4J_SLOT_COUNT];

static JavaVM *vm;
static jclass bridge_class;
static jmethodID failed_method;
/* 1 once the JVM runs and the entries are found (release/acquire). */
static int started;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;
/* Why the JVM could not be started; written once, by the starting thread. */
static char start_failure[2048];
/* Per thread: a call failed for want of a JVM since the last aclGetRecentErrMsg. */
static __thread int start_failure_pending;
static __thread JNIEnv *thread_env;
/* Its destructor detaches a thread the bridge attached, when the thread ends. */
static pthread_key_t attached_key;

static void fail_start(const char *format, ...) {
    int n = snprintf(start_failure, sizeof start_failure, "aclnn4j: ");
    va_list args;
    va_start(args, format);
    vsnprintf(start_failure + n, sizeof start_failure - (size_t)n, format, args);
    va_end(args);
}

/* The pending exception's toString(), into buf; clears the exception. */
static void describe_exception(JNIEnv *env, char *buf, size_t size) {
    snprintf(buf, size, "unknown Java exception");
    jthrowable exception = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    if (exception == NULL) {
        return;
    }
    jclass type = (*env)->GetObjectClass(env, exception);
    jmethodID to_string = (*env)->GetMethodID(env, type, "toString", "()Ljava/lang/String;");
    jstring text = to_string == NULL ? NULL : (jstring)(*env)->CallObjectMethod(env, exception, to_string);
    if ((*env)->ExceptionCheck(env) || text == NULL) {
        (*env)->ExceptionClear(env);
        return;
    }
    const char *utf = (*env)->GetStringUTFChars(env, text, NULL);
    if (utf != NULL) {
        snprintf(buf, size, "%s", utf);
        (*env)->ReleaseStringUTFChars(env, text, utf);
    }
}

typedef jint (*create_java_vm_fn)(JavaVM **, void **, void *);

/* The line of the JDK's release file that starts with key, into line; whether there is one. */
static int release_entry(const char *java_home, const char *key, char *line, size_t size) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/release", java_home);
    FILE *release = fopen(path, "r");
    if (release == NULL) {
        return 0;
    }
    int found = 0;
    while (!found && fgets(line, (int)size, release) != NULL) {
        found = strncmp(line, key, strlen(key)) == 0;
    }
    fclose(release);
    return found;
}

/* Whether the JDK's module list (its release file) has the Vector API, which aclnn4j's kernels use when present. */
static int has_vector_api(const char *java_home) {
    char line[8192];
    return release_entry(java_home, "MODULES=", line, sizeof line) && strstr(line, "jdk.incubator.vector") != NULL;
}

/* The JDK version aclnn4j is built for. */
#define REQUIRED_JDK 25

/* The major version of the JDK at java_home (its release file's JAVA_VERSION), 0 if it is none or has no server JVM. */
static int jdk_major(const char *java_home) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/lib/server/libjvm.so", java_home);
    char line[512];
    if (access(path, R_OK) != 0 || !release_entry(java_home, "JAVA_VERSION=\"", line, sizeof line)) {
        return 0;
    }
    return atoi(line + strlen("JAVA_VERSION=\"")); /* "1.8.0" reads 1: too old either way */
}

/* The newest JDK >= REQUIRED_JDK in the directories of dirs (colon-separated) into found; whether there is one. */
static int newest_installed_jdk(const char *dirs, char *found, size_t size) {
    int best = 0;
    char *copy = strdup(dirs);
    char *cursor = NULL;
    for (char *dir = copy == NULL ? NULL : strtok_r(copy, ":", &cursor); dir != NULL;
         dir = strtok_r(NULL, ":", &cursor)) {
        DIR *listing = opendir(dir);
        if (listing == NULL) {
            continue;
        }
        struct dirent *entry;
        while ((entry = readdir(listing)) != NULL) {
            if (entry->d_name[0] == '.') {
                continue;
            }
            char candidate[PATH_MAX];
            snprintf(candidate, sizeof candidate, "%s/%s", dir, entry->d_name);
            int major = jdk_major(candidate);
            if (major >= REQUIRED_JDK && major > best) {
                best = major;
                snprintf(found, size, "%s", candidate);
            }
        }
        closedir(listing);
    }
    free(copy);
    return best > 0;
}

/*
 * The JDK to start, as ./aclnn4j finds one: ACLNN4J_JAVA_HOME as given; else JAVA_HOME when it is
 * a JDK >= 25; else the JDK ./aclnn4j native recorded; else the newest JDK >= 25 under /usr/lib/jvm
 * (ACLNN4J_JDK_DIRS: other directories, colon-separated). NULL when there is none, the reason then
 * in start_failure; *source says where the JDK came from.
 */
static const char *choose_jdk(char *found, size_t size, const char **source) {
    const char *chosen = getenv("ACLNN4J_JAVA_HOME");
    if (chosen != NULL && chosen[0] != '\0') {
        *source = "ACLNN4J_JAVA_HOME";
        return chosen;
    }
    const char *java_home = getenv("JAVA_HOME");
    int java_home_major = java_home == NULL || java_home[0] == '\0' ? 0 : jdk_major(java_home);
    if (java_home_major >= REQUIRED_JDK) {
        *source = "JAVA_HOME";
        return java_home;
    }
    if (jdk_major(ACLNN4J_JAVA_HOME) >= REQUIRED_JDK) {
        *source = "the JDK recorded by ./aclnn4j native";
        return ACLNN4J_JAVA_HOME;
    }
    const char *dirs = getenv("ACLNN4J_JDK_DIRS");
    if (dirs == NULL || dirs[0] == '\0') {
        dirs = "/usr/lib/jvm";
    }
    if (newest_installed_jdk(dirs, found, size)) {
        *source = "the newest JDK installed";
        return found;
    }
    char about_java_home[PATH_MAX + 64];
    if (java_home == NULL || java_home[0] == '\0') {
        snprintf(about_java_home, sizeof about_java_home, "JAVA_HOME is not set");
    } else if (java_home_major > 0) {
        snprintf(about_java_home, sizeof about_java_home, "JAVA_HOME (%s) is JDK %d", java_home, java_home_major);
    } else {
        snprintf(about_java_home, sizeof about_java_home, "JAVA_HOME (%s) is not a JDK", java_home);
    }
    fail_start("aclnn4j needs a JDK %d or newer and found none: %s, the JDK recorded at install (%s) is gone, "
               "and %s has none. Install one (e.g. Temurin %d, or Debian's openjdk-%d-jdk where available) "
               "or set JAVA_HOME to it.", REQUIRED_JDK, about_java_home, ACLNN4J_JAVA_HOME, dirs, REQUIRED_JDK,
               REQUIRED_JDK);
    return NULL;
}

/*
 * The jar beside this library (lib64/aclnn4j/aclnn4j.jar, or lib/...), so that an installed prefix
 * can be moved; else the class path recorded at install (a classes directory, for tests).
 */
static void find_class_path(char *out, size_t size) {
    Dl_info info;
    if (dladdr((void *)&aclnn4j_env, &info) != 0 && info.dli_fname != NULL) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash != NULL) {
            char beside[PATH_MAX];
            snprintf(beside, sizeof beside, "%.*s/aclnn4j/aclnn4j.jar", (int)(slash - info.dli_fname),
                     info.dli_fname);
            char resolved[PATH_MAX]; /* lib/ may be a link to lib64/: the AOT cache knows the real path */
            if (realpath(beside, resolved) != NULL && access(resolved, R_OK) == 0) {
                snprintf(out, size, "%s", resolved);
                return;
            }
        }
    }
    snprintf(out, size, "%s", ACLNN4J_CLASS_PATH);
}

static char class_path[PATH_MAX];

/*
 * Writes "-XX:AOTCache=<dir of the jar>/aclnn4j.aot" into option when that file exists and the JVM
 * is the JDK it was made with (the one ./aclnn4j native recorded); returns whether it did.
 */
static int aot_cache(const char *java_home, char *option, size_t size) {
    if (strcmp(java_home, ACLNN4J_JAVA_HOME) != 0) {
        return 0;
    }
    const char *slash = strrchr(class_path, '/');
    size_t dir = slash == NULL ? 0 : (size_t)(slash - class_path);
    int written = snprintf(option, size, "-XX:AOTCache=%.*s/aclnn4j.aot", (int)dir, class_path);
    if (written < 0 || (size_t)written >= size) {
        return 0;
    }
    return access(option + strlen("-XX:AOTCache="), R_OK) == 0;
}

/*
 * Creates the JVM with stderr held in a temporary file, then passes on what was printed except the
 * JVM's "WARNING: Using incubator modules" line, which would otherwise start every C program's
 * output.
 */
static jint create_quietly(create_java_vm_fn create_java_vm, JavaVM **created_vm, JNIEnv **env,
                           JavaVMInitArgs *args) {
    fflush(stderr);
    FILE *held = tmpfile();
    int saved = held == NULL ? -1 : dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(held), STDERR_FILENO) < 0) {
        if (held != NULL) {
            fclose(held);
        }
        if (saved >= 0) {
            close(saved);
        }
        return create_java_vm(created_vm, (void **)env, args);
    }
    jint created = create_java_vm(created_vm, (void **)env, args);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(held);
    char line[4096];
    while (fgets(line, sizeof line, held) != NULL) {
        if (strncmp(line, "WARNING: Using incubator modules:", 33) != 0) {
            fputs(line, stderr);
        }
    }
    fclose(held);
    return created;
}

/* Finds every entry and the failure handler; 0 on success, else the reason is in start_failure. */
static int find_entries(JNIEnv *env, const char *jvm) {
    char reason[1024];
    jclass classes[sizeof entry_classes / sizeof entry_classes[0]];
    for (size_t c = 0; c < sizeof entry_classes / sizeof entry_classes[0]; c++) {
        jclass local = (*env)->FindClass(env, entry_classes[c]);
        if (local == NULL) {
            describe_exception(env, reason, sizeof reason);
            fail_start("cannot load %s from %s with %s: %s", entry_classes[c], class_path, jvm, reason);
            return -1;
        }
        classes[c] = (jclass)(*env)->NewGlobalRef(env, local);
    }
    for (int slot = 0; slot < ACLNN4J_SLOT_COUNT; slot++) {
        for (size_t c = 0; c < sizeof classes / sizeof classes[0] && aclnn4j_entries[slot].method == NULL; c++) {
            jmethodID method = (*env)->GetStaticMethodID(env, classes[c], entry_names[slot], entry_descriptors[slot]);
            if (method == NULL) {
                (*env)->ExceptionClear(env);
            } else {
                aclnn4j_entries[slot].type = classes[c];
                aclnn4j_entries[slot].method = method;
            }
        }
        if (aclnn4j_entries[slot].method == NULL) {
            fail_start("the jar %s has no entry %s%s: the C libraries and the jar do not match (reinstall with "
                       "./aclnn4j native)", class_path, entry_names[slot], entry_descriptors[slot]);
            return -1;
        }
    }
    jclass bridge = (*env)->FindClass(env, PACKAGE "Bridge");
    failed_method = bridge == NULL ? NULL
                                   : (*env)->GetStaticMethodID(env, bridge, "failed", "(Ljava/lang/Throwable;JI)I");
    if (failed_method == NULL) {
        describe_exception(env, reason, sizeof reason);
        fail_start("cannot find %sBridge.failed in %s: %s", PACKAGE, class_path, reason);
        return -1;
    }
    bridge_class = (jclass)(*env)->NewGlobalRef(env, bridge);
    return 0;
}

/* Runs on a thread of its own: HotSpot should not be created on a process's primordial thread. */
static void *start_jvm(void *unused) {
    (void)unused;
    static char found_jdk[PATH_MAX];
    const char *home_source = NULL;
    const char *java_home = choose_jdk(found_jdk, sizeof found_jdk, &home_source);
    if (java_home == NULL) {
        return NULL;
    }
    find_class_path(class_path, sizeof class_path);
    char libjvm[PATH_MAX + 32];
    snprintf(libjvm, sizeof libjvm, "%s/lib/server/libjvm.so", java_home);
    void *jvm_library = dlopen(libjvm, RTLD_NOW | RTLD_LOCAL);
    if (jvm_library == NULL) {
        fail_start("cannot load the JVM of %s (%s): %s. aclnn4j needs a JDK 25 or newer.", home_source, java_home,
                   dlerror());
        return NULL;
    }
    create_java_vm_fn create_java_vm = (create_java_vm_fn)dlsym(jvm_library, "JNI_CreateJavaVM");
    if (create_java_vm == NULL) {
        fail_start("%s has no JNI_CreateJavaVM", libjvm);
        return NULL;
    }

    static char class_path_option[PATH_MAX + 32];
    snprintf(class_path_option, sizeof class_path_option, "-Djava.class.path=%s", class_path);
    JavaVMOption options[MAX_JVM_OPTIONS];
    int n = 0;
    options[n++].optionString = class_path_option;
    /* aclnn4j reads and writes C memory through FFM, whose raw-address methods are restricted. */
    options[n++].optionString = "--enable-native-access=ALL-UNNAMED";
    /* Leave SIGINT, SIGTERM, SIGHUP and SIGQUIT to the C program. */
    options[n++].optionString = "-Xrs";
    /* As ./aclnn4j demo runs: the same kernels, the same numbers (-Daclnn4j.vector=false opts out). */
    if (has_vector_api(java_home)) {
        options[n++].optionString = "--add-modules=jdk.incubator.vector";
    }
    /*
     * The AOT cache ./aclnn4j native made beside the jar with this JDK and these options: classes
     * loaded and linked, and method profiles, from a training run. Another JDK (JAVA_HOME) cannot
     * use it; the JVM would say so on stdout, so its AOT and CDS logging is off (an -Xlog option in
     * ACLNN4J_JAVA_OPTIONS comes later and wins, as does -XX:AOTMode=off).
     */
    static char aot_option[PATH_MAX + 32];
    if (aot_cache(java_home, aot_option, sizeof aot_option)) {
        options[n++].optionString = aot_option;
        options[n++].optionString = "-Xlog:aot*=off,cds*=off";
    }
    int fixed = n;
    char *extra = getenv("ACLNN4J_JAVA_OPTIONS");
    char *extra_copy = extra == NULL ? NULL : strdup(extra);
    char *cursor = NULL;
    for (char *option = extra_copy == NULL ? NULL : strtok_r(extra_copy, " \t\n", &cursor); option != NULL;
         option = strtok_r(NULL, " \t\n", &cursor)) {
        if (n == MAX_JVM_OPTIONS) {
            fail_start("ACLNN4J_JAVA_OPTIONS has more than %d options", MAX_JVM_OPTIONS - fixed);
            free(extra_copy);
            return NULL;
        }
        options[n++].optionString = option;
    }
    for (int i = 0; i < n; i++) {
        options[i].extraInfo = NULL;
    }
    JavaVMInitArgs init_args;
    init_args.version = JNI_VERSION_10;
    init_args.nOptions = n;
    init_args.options = options;
    init_args.ignoreUnrecognized = JNI_FALSE;

    JavaVM *created_vm;
    JNIEnv *env;
    jint created = create_quietly(create_java_vm, &created_vm, &env, &init_args);
    free(extra_copy);
    if (created != JNI_OK) {
        fail_start("JNI_CreateJavaVM failed with %d (JVM %s, class path %s, ACLNN4J_JAVA_OPTIONS '%s')", (int)created,
                   libjvm, class_path, extra == NULL ? "" : extra);
        return NULL;
    }
    char jvm[PATH_MAX + 64];
    snprintf(jvm, sizeof jvm, "the JVM of %s (%s)", home_source, java_home);
    if (find_entries(env, jvm) == 0) {
        vm = created_vm;
        __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    }
    /* Calling threads attach themselves; this one is done. */
    (*created_vm)->DetachCurrentThread(created_vm);
    return NULL;
}

static void detach(void *attached_vm) {
    (*(JavaVM *)attached_vm)->DetachCurrentThread((JavaVM *)attached_vm);
}

static void start(void) {
    int error = pthread_key_create(&attached_key, detach);
    pthread_t thread;
    if (error == 0) {
        error = pthread_create(&thread, NULL, start_jvm, NULL);
    }
    if (error != 0) {
        fail_start("cannot start the JVM: %s", strerror(error));
        return;
    }
    pthread_join(thread, NULL);
}

JNIEnv *aclnn4j_env(void) {
    if (thread_env != NULL) {
        return thread_env;
    }
    if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
        pthread_once(&start_once, start);
        if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
            start_failure_pending = 1;
            return NULL;
        }
    }
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_10) != JNI_OK) {
        /* Daemon: the JVM need not wait for C threads; it is never destroyed anyway. */
        if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&env, NULL) != JNI_OK) {
            snprintf(start_failure, sizeof start_failure, "aclnn4j: cannot attach this thread to the JVM");
            start_failure_pending = 1;
            return NULL;
        }
        pthread_setspecific(attached_key, vm);
    }
    thread_env = env;
    return env;
}

const char *aclnn4j_start_failure(void) {
    return start_failure;
}

jint aclnn4j_failed(JNIEnv *env, int slot, jint internal_status) {
    jthrowable thrown = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    jint status = (*env)->CallStaticIntMethod(env, bridge_class, failed_method, thrown,
                                              ACLNN4J_ADDR(entry_names[slot]), internal_status);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        status = internal_status;
    }
    /* An attached thread has no native frame to release local references: release it here. */
    (*env)->DeleteLocalRef(env, thrown);
    return status;
}

/* This thread's aclGetRecentErrMsg text: grown as needed, freed when the thread ends. */
static __thread char *message;
static __thread size_t message_capacity;
static pthread_key_t message_key;
static pthread_once_t message_key_once = PTHREAD_ONCE_INIT;

static void make_message_key(void) {
    pthread_key_create(&message_key, free);
}

const char *aclGetRecentErrMsg(void) {
    if (start_failure_pending) {
        start_failure_pending = 0;
        return start_failure;
    }
    /* Without a JVM there is no message, and no reason to start one. */
    if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
        return NULL;
    }
    JNIEnv *env = aclnn4j_env();
    if (env == NULL) {
        return aclGetRecentErrMsg();
    }
    const aclnn4j_entry *entry = &aclnn4j_entries[ACLNN4J_SLOT_aclGetRecentErrMsg];
    for (;;) {
        jlong needed = (*env)->CallStaticLongMethod(env, entry->type, entry->method, ACLNN4J_ADDR(message),
                                                    (jlong)message_capacity);
        if ((*env)->ExceptionCheck(env)) {
            aclnn4j_failed(env, ACLNN4J_SLOT_aclGetRecentErrMsg, 0);
            return "aclnn4j: aclGetRecentErrMsg failed";
        }
        if (needed == 0) {
            return NULL;
        }
        if ((size_t)needed <= message_capacity) {
            return message;
        }
        /* Too long for the buffer: the Java side kept the message; grow and ask again. */
        char *grown = realloc(message, (size_t)needed);
        if (grown == NULL) {
            return "aclnn4j: out of memory for the error message";
        }
        pthread_once(&message_key_once, make_message_key);
        message = grown;
        message_capacity = (size_t)needed;
        pthread_setspecific(message_key, message);
    }
}
