/*
 * Run with ACLNN4J_JAVA_HOME pointing where there is no JVM: every call fails with its family's internal
 * error (NULL for handle makers) and the reason is the recent message, on every thread that asks.
 */
#include <pthread.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "check.h"

static void *second_thread(void *unused) {
    (void)unused;
    CHECK_EQ(aclrtSetDevice(0), ACL_ERROR_INTERNAL_ERROR);
    CHECK_MESSAGE("libjvm.so");
    return NULL;
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_ERROR_INTERNAL_ERROR);
    CHECK_MESSAGE("JAVA_HOME");
    CHECK_TRUE(aclGetRecentErrMsg() == NULL);
    int64_t shape[] = {2};
    CHECK_TRUE(aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, NULL) == NULL);
    CHECK_MESSAGE("cannot load the JVM");
    uint64_t workspaceSize;
    aclOpExecutor *executor;
    CHECK_EQ(aclnnPreluBackwardGetWorkspaceSize(NULL, NULL, NULL, NULL, NULL, &workspaceSize, &executor),
             ACLNN_ERR_INNER);
    CHECK_EQ(aclFinalize(), ACL_ERROR_INTERNAL_ERROR);
    pthread_t thread;
    CHECK_EQ(pthread_create(&thread, NULL, second_thread, NULL), 0);
    CHECK_EQ(pthread_join(thread, NULL), 0);
    return check_report("start_failure_test");
}
