/*
 * Several C threads make the process's first calls at once: the JVM starts once, each thread is
 * attached, and aclInit succeeds for exactly one of them.
 */
#include <pthread.h>

#include "acl/acl.h"
#include "check.h"

#define THREADS 6

static pthread_barrier_t go;
static int results[THREADS];

static void *first_call(void *arg) {
    int *result = arg;
    pthread_barrier_wait(&go);
    *result = aclInit(NULL);
    int32_t device = -1;
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    CHECK_EQ(device, 0);
    return NULL;
}

int main(void) {
    pthread_t threads[THREADS];
    pthread_barrier_init(&go, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) {
        CHECK_EQ(pthread_create(&threads[i], NULL, first_call, &results[i]), 0);
    }
    int initialized = 0, repeated = 0;
    for (int i = 0; i < THREADS; i++) {
        CHECK_EQ(pthread_join(threads[i], NULL), 0);
        initialized += results[i] == ACL_SUCCESS;
        repeated += results[i] == ACL_ERROR_REPEAT_INITIALIZE;
    }
    CHECK_EQ(initialized, 1);
    CHECK_EQ(repeated, THREADS - 1);
    CHECK_EQ(aclFinalize(), ACL_SUCCESS);
    /* initialized again after aclFinalize, in the same process */
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK_EQ(aclFinalize(), ACL_SUCCESS);
    return check_report("start_race_test");
}
