/*
 * acl_meta.h - tensors, arrays, scalars and executors of the aclnn operator API.
 * Part of aclnn4j's drop-in for CANN. Every handle below is opaque: aclnn4j checks each handle it
 * is given, so one that it did not make, or that was destroyed, is rejected (ACLNN_ERR_PARAM_INVALID).
 */
#ifndef ACLNN4J_ACLNN_ACL_META_H_
#define ACLNN4J_ACLNN_ACL_META_H_

#include "acl/acl_base.h"

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;

typedef int32_t aclnnStatus;

static const aclnnStatus ACLNN_SUCCESS = 0;
static const aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
static const aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;
static const aclnnStatus ACLNN_ERR_RUNTIME_ERROR = 361001;
static const aclnnStatus ACLNN_ERR_INNER = 561000;
static const aclnnStatus ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
static const aclnnStatus ACLNN_ERR_INNER_TILING_ERROR = 561002;
static const aclnnStatus ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;
static const aclnnStatus ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101;
static const aclnnStatus ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR = 561102;
static const aclnnStatus ACLNN_ERR_INNER_NULLPTR = 561103;

/*
 * A view of viewDimsNum dimensions over tensorData (an address inside aclrtMalloc memory, or NULL);
 * offset and strides count elements, a NULL stride means contiguous. NULL on failure.
 */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                               const int64_t *stride, int64_t offset, aclFormat format,
                                               const int64_t *storageDims, uint64_t storageDimsNum,
                                               void *tensorData);
/* NULL is fine. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);

/* The values are copied. */
ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array);
ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray *array);
/* Reads one value of dataType from host memory at value. */
ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value, aclDataType dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar);

/* Lists of tensors or scalars (NULL elements kept); destroying a list destroys its elements. */
ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array);
ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);
ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList *array);
ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size);

/* The arrays returned by these three come from malloc; release them with free (or delete[]). */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                                                  uint64_t *stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);

/*
 * An executor from a GetWorkspaceSize call runs once and is then released; made repeatable right
 * after that call, it runs any number of times until aclDestroyAclOpExecutor.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACLNN_ACL_META_H_ */
