/*
 * acl_base.h - types, error codes and enums shared by the AscendCL API.
 * Part of aclnn4j's drop-in for CANN: same names and values, implemented by aclnn4j on the CPU.
 */
#ifndef ACLNN4J_ACL_ACL_BASE_H_
#define ACLNN4J_ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>
/* The documented calling examples call printf having included only acl headers and <vector>. */
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))

typedef int aclError;

typedef void *aclrtStream;
typedef void *aclrtContext;
typedef void *aclrtEvent;
/* FLOAT16 bits. */
typedef uint16_t aclFloat16;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_INTERNAL_ERROR = 500000;

typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47
} aclFormat;

/* Round to nearest even; out of range, infinities and NaN saturate to +-65504, as CANN's runtime does. */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);
/* Exact; the largest exponent reads as an ordinary one (0x7C00 is 65536), as CANN's runtime does. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACL_ACL_BASE_H_ */
