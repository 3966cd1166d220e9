/*
 * aclnn_base.h - what every aclnn operator header includes.
 * Part of aclnn4j's drop-in for CANN.
 */
#ifndef ACLNN4J_ACLNN_ACLNN_BASE_H_
#define ACLNN4J_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
/* The documented calling examples use std::array having included only <iostream>, <vector> and these headers. */
#include <array>
#endif

#endif /* ACLNN4J_ACLNN_ACLNN_BASE_H_ */
