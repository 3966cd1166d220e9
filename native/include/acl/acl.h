/*
 * acl.h - AscendCL: initialization, the recent error message, and the runtime (acl_rt.h).
 * Part of aclnn4j's drop-in for CANN. The first call of any function starts a JVM running aclnn4j
 * (the JDK and jar recorded by `./aclnn4j native`; the environment variable JAVA_HOME overrides
 * the JDK, and ACLNN4J_JAVA_OPTIONS adds JVM options such as -Daclnn4j.soc=Ascend910).
 */
#ifndef ACLNN4J_ACL_ACL_H_
#define ACLNN4J_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A second call without aclFinalize is ACL_ERROR_REPEAT_INITIALIZE. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Waits for every stream, then releases all streams and device memory. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/*
 * What the last failed call on this thread reported, or NULL when there is nothing; reading it
 * clears it. The text stays valid until the next aclGetRecentErrMsg on the same thread.
 */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACL_ACL_H_ */
