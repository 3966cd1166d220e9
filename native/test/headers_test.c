/* Every header compiles alone and together as strict C99 (compiled with -std=c99 -pedantic -Werror). */
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"

/* The values of SPEC §2, checked at compile time. */
typedef char check_values[(ACL_FLOAT == 0 && ACL_FLOAT16 == 1 && ACL_INT8 == 2 && ACL_INT32 == 3 && ACL_UINT8 == 4 &&
                           ACL_INT16 == 6 && ACL_UINT16 == 7 && ACL_UINT32 == 8 && ACL_INT64 == 9 &&
                           ACL_UINT64 == 10 && ACL_DOUBLE == 11 && ACL_BOOL == 12 && ACL_STRING == 13 &&
                           ACL_COMPLEX64 == 16 && ACL_COMPLEX128 == 17 && ACL_BF16 == 27 && ACL_DT_UNDEFINED == -1 &&
                           ACL_FORMAT_UNDEFINED == -1 && ACL_FORMAT_NCHW == 0 && ACL_FORMAT_NHWC == 1 &&
                           ACL_FORMAT_ND == 2 && ACL_FORMAT_NC1HWC0 == 3 && ACL_FORMAT_FRACTAL_Z == 4 &&
                           ACL_FORMAT_NC1HWC0_C04 == 12 && ACL_FORMAT_HWCN == 16 && ACL_FORMAT_NDHWC == 27 &&
                           ACL_FORMAT_FRACTAL_NZ == 29 && ACL_FORMAT_NCDHW == 30 && ACL_FORMAT_NDC1HWC0 == 32 &&
                           ACL_FRACTAL_Z_3D == 33 && ACL_FORMAT_NC == 35 && ACL_FORMAT_NCL == 47 &&
                           ACL_MEM_MALLOC_HUGE_FIRST == 0 && ACL_MEM_MALLOC_HUGE_ONLY == 1 &&
                           ACL_MEM_MALLOC_NORMAL_ONLY == 2 && ACL_MEMCPY_HOST_TO_HOST == 0 &&
                           ACL_MEMCPY_HOST_TO_DEVICE == 1 && ACL_MEMCPY_DEVICE_TO_HOST == 2 &&
                           ACL_MEMCPY_DEVICE_TO_DEVICE == 3 && ACL_MEMCPY_DEFAULT == 4)
                              ? 1
                              : -1];

int main(void) {
    /* The status codes are constants, not enumerators: checked at run time. */
    int ok = ACL_SUCCESS == 0 && ACL_ERROR_INVALID_PARAM == 100000 && ACL_ERROR_UNINITIALIZE == 100001 &&
             ACL_ERROR_REPEAT_INITIALIZE == 100002 && ACL_ERROR_BAD_ALLOC == 200000 &&
             ACL_ERROR_INTERNAL_ERROR == 500000 && ACLNN_SUCCESS == 0 && ACLNN_ERR_PARAM_NULLPTR == 161001 &&
             ACLNN_ERR_PARAM_INVALID == 161002 && ACLNN_ERR_RUNTIME_ERROR == 361001 && ACLNN_ERR_INNER == 561000 &&
             ACLNN_ERR_INNER_INFERSHAPE_ERROR == 561001 && ACLNN_ERR_INNER_TILING_ERROR == 561002 &&
             ACLNN_ERR_INNER_FIND_KERNEL_ERROR == 561003 && ACLNN_ERR_INNER_CREATE_EXECUTOR == 561101 &&
             ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR == 561102 && ACLNN_ERR_INNER_NULLPTR == 561103;
    printf("headers_test: %s\n", ok ? "ok" : "wrong status values");
    return ok ? 0 : 1;
}
