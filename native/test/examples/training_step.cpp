// A training step through aclnn calls only, the C twin of the Java demo's TrainingStepExample (same
// numbers, same output): x [2, 4, 3] -> GroupNorm (2 groups) -> PReLU (a weight per channel) -> y, with
// two heads -- BCE-with-logits (mean, a posWeight per channel) against 0/1 targets, and NLLLoss (mean)
// of y seen as [2, 12] -- each differentiated back to x, gamma, beta and the PReLU weight on its own
// (there is no element-wise add to sum the heads): BCE-with-logits backward or NLLLoss backward, then
// PReLU backward, then GroupNorm backward with the forward's mean and rstd. All of it is queued on one
// stream and synchronized once. tools/golden/training_step.py computes the same with PyTorch autograd.
#include <iostream>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

int64_t GetShapeSize(const std::vector<int64_t>& shape) {
  int64_t shapeSize = 1;
  for (auto i : shape) {
    shapeSize *= i;
  }
  return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream) {
  // AscendCL initialization, always the same
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
  return 0;
}

// A second, contiguous aclTensor over device memory that already holds one: a reshape costs no copy,
// only a new descriptor.
int CreateView(const std::vector<int64_t>& shape, void* deviceAddr, aclDataType dataType, aclTensor** tensor) {
  // the strides of a contiguous tensor
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = shape.size() - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                            shape.data(), shape.size(), deviceAddr);
  CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed.\n"); return ACL_ERROR_INTERNAL_ERROR);
  return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
  auto size = GetShapeSize(shape) * sizeof(T);
  // aclrtMalloc allocates the device memory
  auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  // aclrtMemcpy copies the host data to it
  ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  return CreateView(shape, *deviceAddr, dataType, tensor);
}

// An operator's phase 2.
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Allocates the workspace phase 1 asked for and runs phase 2. The workspace joins workspaces, freed at
// the end: the queued work may use it until the stream is synchronized.
int Launch(const char* name, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream, Phase2 phase2,
           std::vector<void*>& workspaces) {
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    auto ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    workspaces.push_back(workspaceAddr);
  }
  auto ret = phase2(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("%s failed. ERROR: %d\n", name, ret); return ret);
  return 0;
}

// Copies a FLOAT result back to the host and prints it element by element.
int PrintResult(const char* name, void* deviceAddr, const std::vector<int64_t>& shape) {
  auto size = GetShapeSize(shape);
  std::vector<float> resultData(size, 0);
  auto ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(resultData[0]), deviceAddr,
                         size * sizeof(resultData[0]), ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
  for (int64_t i = 0; i < size; i++) {
    LOG_PRINT("%s[%ld] is: %f\n", name, i, resultData[i]);
  }
  return 0;
}

int main() {
  // 1. device/stream initialization
  int32_t deviceId = 0;
  aclrtStream stream;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

  // 2. the network's sizes, inputs and parameters (multiples of 1/16: the same numbers in FLOAT and float64)
  int64_t N = 2;
  int64_t C = 4;
  int64_t L = 3;
  int64_t group = 2;
  double eps = 1e-5;
  int64_t reduction = 1;  // mean, for both losses
  int64_t ignoreIndex = -100;
  std::vector<int64_t> xShape = {N, C, L};
  std::vector<int64_t> channelShape = {C};
  std::vector<int64_t> posWeightShape = {C, 1};  // one per channel, broadcast over L
  std::vector<int64_t> statsShape = {N, group};
  std::vector<int64_t> rowsShape = {N, C * L};  // y seen as N rows of C*L classes for NLLLoss
  std::vector<int64_t> nllTargetShape = {N};
  std::vector<int64_t> classShape = {C * L};
  std::vector<int64_t> scalarShape = {1};
  std::vector<float> xHostData = {0.5, -1.25, 2.0,  1.5,   0.25, -0.75, -2.0, 0.75,  1.25, 3.0,   -0.5,  0.0,
                                  -1.0, 2.5,  0.125, 0.375, -1.5, 1.75,  2.25, -0.25, -3.0, 1.0,   0.625, -1.75};
  std::vector<float> gammaHostData = {1.0, 0.5, 1.5, -0.75};
  std::vector<float> betaHostData = {0.0, 0.25, -0.5, 0.125};
  std::vector<float> preluWeightHostData = {0.25, 0.125, 0.5, 0.0625};
  std::vector<float> bceTargetHostData = {1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0};
  std::vector<float> posWeightHostData = {2.0, 1.0, 0.5, 1.5};
  std::vector<int64_t> nllTargetHostData = {4, 9};
  std::vector<float> nllWeightHostData(C * L, 1.0);
  // d loss / d loss: the gradOutput of both loss backwards
  std::vector<float> gradOutputHostData = {1.0};
  std::vector<float> xZeros(GetShapeSize(xShape), 0);
  std::vector<float> channelZeros(C, 0);
  std::vector<float> statsZeros(N * group, 0);
  std::vector<float> scalarZeros(1, 0);
  bool outputMaskData[3] = {true, true, true};

  void* xDeviceAddr = nullptr;
  void* gammaDeviceAddr = nullptr;
  void* betaDeviceAddr = nullptr;
  void* preluWeightDeviceAddr = nullptr;
  void* bceTargetDeviceAddr = nullptr;
  void* posWeightDeviceAddr = nullptr;
  void* nllTargetDeviceAddr = nullptr;
  void* nllWeightDeviceAddr = nullptr;
  void* gradOutputDeviceAddr = nullptr;
  void* hDeviceAddr = nullptr;
  void* meanDeviceAddr = nullptr;
  void* rstdDeviceAddr = nullptr;
  void* yDeviceAddr = nullptr;
  void* bceLossDeviceAddr = nullptr;
  void* nllLossDeviceAddr = nullptr;
  void* totalWeightDeviceAddr = nullptr;
  void* bceGradYDeviceAddr = nullptr;
  void* bceGradHDeviceAddr = nullptr;
  void* bceGradPreluWeightDeviceAddr = nullptr;
  void* bceGradXDeviceAddr = nullptr;
  void* bceGradGammaDeviceAddr = nullptr;
  void* bceGradBetaDeviceAddr = nullptr;
  void* nllGradYDeviceAddr = nullptr;
  void* nllGradHDeviceAddr = nullptr;
  void* nllGradPreluWeightDeviceAddr = nullptr;
  void* nllGradXDeviceAddr = nullptr;
  void* nllGradGammaDeviceAddr = nullptr;
  void* nllGradBetaDeviceAddr = nullptr;
  aclTensor* x = nullptr;
  aclTensor* gamma = nullptr;
  aclTensor* beta = nullptr;
  aclTensor* preluWeight = nullptr;
  aclTensor* bceTarget = nullptr;
  aclTensor* posWeight = nullptr;
  aclTensor* nllTarget = nullptr;
  aclTensor* nllWeight = nullptr;
  aclTensor* gradOutput = nullptr;
  aclTensor* h = nullptr;
  aclTensor* mean = nullptr;
  aclTensor* rstd = nullptr;
  aclTensor* y = nullptr;
  aclTensor* yRows = nullptr;
  aclTensor* bceLoss = nullptr;
  aclTensor* nllLoss = nullptr;
  aclTensor* totalWeight = nullptr;
  aclTensor* bceGradY = nullptr;
  aclTensor* bceGradH = nullptr;
  aclTensor* bceGradPreluWeight = nullptr;
  aclTensor* bceGradX = nullptr;
  aclTensor* bceGradGamma = nullptr;
  aclTensor* bceGradBeta = nullptr;
  aclTensor* nllGradYRows = nullptr;
  aclTensor* nllGradY = nullptr;
  aclTensor* nllGradH = nullptr;
  aclTensor* nllGradPreluWeight = nullptr;
  aclTensor* nllGradX = nullptr;
  aclTensor* nllGradGamma = nullptr;
  aclTensor* nllGradBeta = nullptr;

  // inputs and parameters
  ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(gammaHostData, channelShape, &gammaDeviceAddr, aclDataType::ACL_FLOAT, &gamma);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(betaHostData, channelShape, &betaDeviceAddr, aclDataType::ACL_FLOAT, &beta);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(preluWeightHostData, channelShape, &preluWeightDeviceAddr, aclDataType::ACL_FLOAT,
                        &preluWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(bceTargetHostData, xShape, &bceTargetDeviceAddr, aclDataType::ACL_FLOAT, &bceTarget);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(posWeightHostData, posWeightShape, &posWeightDeviceAddr, aclDataType::ACL_FLOAT, &posWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(nllTargetHostData, nllTargetShape, &nllTargetDeviceAddr, aclDataType::ACL_INT64, &nllTarget);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(nllWeightHostData, classShape, &nllWeightDeviceAddr, aclDataType::ACL_FLOAT, &nllWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(gradOutputHostData, scalarShape, &gradOutputDeviceAddr, aclDataType::ACL_FLOAT, &gradOutput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // the forward's outputs; y has a second descriptor, [N, C*L], for NLLLoss
  ret = CreateAclTensor(xZeros, xShape, &hDeviceAddr, aclDataType::ACL_FLOAT, &h);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(statsZeros, statsShape, &meanDeviceAddr, aclDataType::ACL_FLOAT, &mean);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(statsZeros, statsShape, &rstdDeviceAddr, aclDataType::ACL_FLOAT, &rstd);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xZeros, xShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateView(rowsShape, yDeviceAddr, aclDataType::ACL_FLOAT, &yRows);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(scalarZeros, scalarShape, &bceLossDeviceAddr, aclDataType::ACL_FLOAT, &bceLoss);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(scalarZeros, scalarShape, &nllLossDeviceAddr, aclDataType::ACL_FLOAT, &nllLoss);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(scalarZeros, scalarShape, &totalWeightDeviceAddr, aclDataType::ACL_FLOAT, &totalWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // the gradients of the BCE-with-logits head
  ret = CreateAclTensor(xZeros, xShape, &bceGradYDeviceAddr, aclDataType::ACL_FLOAT, &bceGradY);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xZeros, xShape, &bceGradHDeviceAddr, aclDataType::ACL_FLOAT, &bceGradH);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(channelZeros, channelShape, &bceGradPreluWeightDeviceAddr, aclDataType::ACL_FLOAT,
                        &bceGradPreluWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xZeros, xShape, &bceGradXDeviceAddr, aclDataType::ACL_FLOAT, &bceGradX);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(channelZeros, channelShape, &bceGradGammaDeviceAddr, aclDataType::ACL_FLOAT, &bceGradGamma);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(channelZeros, channelShape, &bceGradBetaDeviceAddr, aclDataType::ACL_FLOAT, &bceGradBeta);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // the gradients of the NLLLoss head; dL/dy is written as [N, C*L] and read back as [N, C, L]
  ret = CreateAclTensor(xZeros, rowsShape, &nllGradYDeviceAddr, aclDataType::ACL_FLOAT, &nllGradYRows);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateView(xShape, nllGradYDeviceAddr, aclDataType::ACL_FLOAT, &nllGradY);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xZeros, xShape, &nllGradHDeviceAddr, aclDataType::ACL_FLOAT, &nllGradH);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(channelZeros, channelShape, &nllGradPreluWeightDeviceAddr, aclDataType::ACL_FLOAT,
                        &nllGradPreluWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xZeros, xShape, &nllGradXDeviceAddr, aclDataType::ACL_FLOAT, &nllGradX);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(channelZeros, channelShape, &nllGradGammaDeviceAddr, aclDataType::ACL_FLOAT, &nllGradGamma);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(channelZeros, channelShape, &nllGradBetaDeviceAddr, aclDataType::ACL_FLOAT, &nllGradBeta);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  aclBoolArray* outputMask = aclCreateBoolArray(outputMaskData, 3);
  CHECK_RET(outputMask != nullptr, return ACL_ERROR_INTERNAL_ERROR);

  // 3. the forward pass. Each call is queued behind the previous one on the stream, so it reads what
  // that one wrote; nothing is synchronized until the end.
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor;
  std::vector<void*> workspaces;
  // h = GroupNorm(x), keeping the mean and rstd for the backward
  ret = aclnnGroupNormGetWorkspaceSize(x, gamma, beta, N, C, L, group, eps, h, mean, rstd, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnGroupNormGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = Launch("aclnnGroupNorm", workspaceSize, executor, stream, aclnnGroupNorm, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // y = PReLU(h)
  ret = aclnnPreluGetWorkspaceSize(h, preluWeight, y, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnPreluGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = Launch("aclnnPrelu", workspaceSize, executor, stream, aclnnPrelu, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // head 1: the BCE-with-logits loss of y against the 0/1 targets
  ret = aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(y, bceTarget, nullptr, posWeight, reduction, bceLoss,
                                                          &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  ret = Launch("aclnnBinaryCrossEntropyWithLogits", workspaceSize, executor, stream,
               aclnnBinaryCrossEntropyWithLogits, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // head 2: the NLLLoss of y's rows, which picks -y[i, target[i]]; totalWeight is kept for the backward
  ret = aclnnNLLLossGetWorkspaceSize(yRows, nllTarget, nllWeight, reduction, ignoreIndex, nllLoss, totalWeight,
                                     &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnNLLLossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = Launch("aclnnNLLLoss", workspaceSize, executor, stream, aclnnNLLLoss, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 4. the backward of head 1: dL/dy, then through PReLU to dL/dh and dL/dweight, then through
  // GroupNorm, with the forward's mean and rstd, to dL/dx, dL/dgamma and dL/dbeta
  ret = aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(gradOutput, y, bceTarget, nullptr, posWeight,
                                                                  reduction, bceGradY, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  ret = Launch("aclnnBinaryCrossEntropyWithLogitsBackward", workspaceSize, executor, stream,
               aclnnBinaryCrossEntropyWithLogitsBackward, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = aclnnPreluBackwardGetWorkspaceSize(bceGradY, h, preluWeight, bceGradH, bceGradPreluWeight, &workspaceSize,
                                           &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnPreluBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = Launch("aclnnPreluBackward", workspaceSize, executor, stream, aclnnPreluBackward, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = aclnnGroupNormBackwardGetWorkspaceSize(bceGradH, x, mean, rstd, gamma, N, C, L, group, outputMask, bceGradX,
                                               bceGradGamma, bceGradBeta, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnGroupNormBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  ret = Launch("aclnnGroupNormBackward", workspaceSize, executor, stream, aclnnGroupNormBackward, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 5. the backward of head 2: NLLLoss backward writes dL/dy as [N, C*L]; PReLU backward reads the
  // same memory as [N, C, L]; then GroupNorm backward as for head 1
  ret = aclnnNLLLossBackwardGetWorkspaceSize(gradOutput, yRows, nllTarget, nllWeight, reduction, ignoreIndex,
                                             totalWeight, nllGradYRows, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnNLLLossBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  ret = Launch("aclnnNLLLossBackward", workspaceSize, executor, stream, aclnnNLLLossBackward, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = aclnnPreluBackwardGetWorkspaceSize(nllGradY, h, preluWeight, nllGradH, nllGradPreluWeight, &workspaceSize,
                                           &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnPreluBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = Launch("aclnnPreluBackward", workspaceSize, executor, stream, aclnnPreluBackward, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = aclnnGroupNormBackwardGetWorkspaceSize(nllGradH, x, mean, rstd, gamma, N, C, L, group, outputMask, nllGradX,
                                               nllGradGamma, nllGradBeta, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnGroupNormBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  ret = Launch("aclnnGroupNormBackward", workspaceSize, executor, stream, aclnnGroupNormBackward, workspaces);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 6. wait for the stream: all ten calls
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

  // 7. copy the losses and the gradients back to the host
  ret = PrintResult("bceLoss", bceLossDeviceAddr, scalarShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("nllLoss", nllLossDeviceAddr, scalarShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("bceGradX", bceGradXDeviceAddr, xShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("bceGradGamma", bceGradGammaDeviceAddr, channelShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("bceGradBeta", bceGradBetaDeviceAddr, channelShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("bceGradPreluWeight", bceGradPreluWeightDeviceAddr, channelShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("nllGradX", nllGradXDeviceAddr, xShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("nllGradGamma", nllGradGammaDeviceAddr, channelShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("nllGradBeta", nllGradBetaDeviceAddr, channelShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult("nllGradPreluWeight", nllGradPreluWeightDeviceAddr, channelShape);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 8. release the aclTensors (both descriptors of a shared buffer) and the aclBoolArray
  for (aclTensor* tensor : {x, gamma, beta, preluWeight, bceTarget, posWeight, nllTarget, nllWeight, gradOutput, h,
                            mean, rstd, y, yRows, bceLoss, nllLoss, totalWeight, bceGradY, bceGradH,
                            bceGradPreluWeight, bceGradX, bceGradGamma, bceGradBeta, nllGradYRows, nllGradY, nllGradH,
                            nllGradPreluWeight, nllGradX, nllGradGamma, nllGradBeta}) {
    aclDestroyTensor(tensor);
  }
  aclDestroyBoolArray(outputMask);

  // 9. release the device resources: each buffer once, however many descriptors it had
  for (void* deviceAddr :
       {xDeviceAddr, gammaDeviceAddr, betaDeviceAddr, preluWeightDeviceAddr, bceTargetDeviceAddr, posWeightDeviceAddr,
        nllTargetDeviceAddr, nllWeightDeviceAddr, gradOutputDeviceAddr, hDeviceAddr, meanDeviceAddr, rstdDeviceAddr,
        yDeviceAddr, bceLossDeviceAddr, nllLossDeviceAddr, totalWeightDeviceAddr, bceGradYDeviceAddr,
        bceGradHDeviceAddr, bceGradPreluWeightDeviceAddr, bceGradXDeviceAddr, bceGradGammaDeviceAddr,
        bceGradBetaDeviceAddr, nllGradYDeviceAddr, nllGradHDeviceAddr, nllGradPreluWeightDeviceAddr,
        nllGradXDeviceAddr, nllGradGammaDeviceAddr, nllGradBetaDeviceAddr}) {
    aclrtFree(deviceAddr);
  }
  for (void* workspaceAddr : workspaces) {
    aclrtFree(workspaceAddr);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
