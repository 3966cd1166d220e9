/* libnnopbase: the functions of aclnn/acl_meta.h, forwarded to aclnn4j. */
#include "aclnn/acl_meta.h"
#include "bridge.h"

#define FORWARD_NN(name, ...) ACLNN4J_FORWARD(name, ACLNN_ERR_INNER, __VA_ARGS__)

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData) {
    ACLNN4J_FORWARD_HANDLE(aclCreateTensor, aclTensor, ACLNN4J_ADDR(viewDims), (jlong)viewDimsNum, (jint)dataType,
                           ACLNN4J_ADDR(stride), (jlong)offset, (jint)format, ACLNN4J_ADDR(storageDims),
                           (jlong)storageDimsNum, ACLNN4J_ADDR(tensorData));
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    FORWARD_NN(aclDestroyTensor, ACLNN4J_ADDR(tensor));
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
    ACLNN4J_FORWARD_HANDLE(aclCreateBoolArray, aclBoolArray, ACLNN4J_ADDR(value), (jlong)size);
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
    FORWARD_NN(aclDestroyBoolArray, ACLNN4J_ADDR(array));
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    ACLNN4J_FORWARD_HANDLE(aclCreateIntArray, aclIntArray, ACLNN4J_ADDR(value), (jlong)size);
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
    FORWARD_NN(aclDestroyIntArray, ACLNN4J_ADDR(array));
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
    ACLNN4J_FORWARD_HANDLE(aclCreateFloatArray, aclFloatArray, ACLNN4J_ADDR(value), (jlong)size);
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
    FORWARD_NN(aclDestroyFloatArray, ACLNN4J_ADDR(array));
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    ACLNN4J_FORWARD_HANDLE(aclCreateScalar, aclScalar, ACLNN4J_ADDR(value), (jint)dataType);
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
    FORWARD_NN(aclDestroyScalar, ACLNN4J_ADDR(scalar));
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    ACLNN4J_FORWARD_HANDLE(aclCreateTensorList, aclTensorList, ACLNN4J_ADDR(value), (jlong)size);
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    FORWARD_NN(aclDestroyTensorList, ACLNN4J_ADDR(array));
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
    FORWARD_NN(aclGetTensorListSize, ACLNN4J_ADDR(tensorList), ACLNN4J_ADDR(size));
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
    ACLNN4J_FORWARD_HANDLE(aclCreateScalarList, aclScalarList, ACLNN4J_ADDR(value), (jlong)size);
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
    FORWARD_NN(aclDestroyScalarList, ACLNN4J_ADDR(array));
}

aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size) {
    FORWARD_NN(aclGetScalarListSize, ACLNN4J_ADDR(scalarList), ACLNN4J_ADDR(size));
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    FORWARD_NN(aclGetViewShape, ACLNN4J_ADDR(tensor), ACLNN4J_ADDR(viewDims), ACLNN4J_ADDR(viewDimsNum));
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
    FORWARD_NN(aclGetStorageShape, ACLNN4J_ADDR(tensor), ACLNN4J_ADDR(storageDims), ACLNN4J_ADDR(storageDimsNum));
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
    FORWARD_NN(aclGetViewStrides, ACLNN4J_ADDR(tensor), ACLNN4J_ADDR(stridesValue), ACLNN4J_ADDR(stridesNum));
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
    FORWARD_NN(aclGetViewOffset, ACLNN4J_ADDR(tensor), ACLNN4J_ADDR(offset));
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
    FORWARD_NN(aclGetFormat, ACLNN4J_ADDR(tensor), ACLNN4J_ADDR(format));
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
    FORWARD_NN(aclGetDataType, ACLNN4J_ADDR(tensor), ACLNN4J_ADDR(dataType));
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
    FORWARD_NN(aclSetAclOpExecutorRepeatable, ACLNN4J_ADDR(executor));
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    FORWARD_NN(aclDestroyAclOpExecutor, ACLNN4J_ADDR(executor));
}
