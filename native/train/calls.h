/*
 * One call of each of the ten operators through the C ABI, at 2^12 FLOAT elements: the first ten
 * lines of bench/cold.txt, which name them. The AOT cache's training run (train.c) makes every one of them;
 * the cold-start bench (bench/cold.c) makes one again and again from a fresh process.
 * A failing C function ends the process with its status and message on stderr.
 */
#ifndef ACLNN4J_TRAIN_CALLS_H_
#define ACLNN4J_TRAIN_CALLS_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
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

#define CALL_LINES 10
#define CALL_TENSORS 8

/* bench/cold.txt's 2^12 lines, in its order: call_make(c, i) makes CALL_LINE[i]. */
static const char *const CALL_LINE[CALL_LINES] = {
    "op=bce_backward dtype=FLOAT shape=64,64 grad=dense weight=none reduction=none",
    "op=bce_logits dtype=FLOAT shape=64,64 weight=none posweight=none reduction=mean",
    "op=prelu_backward dtype=FLOAT shape=4,16,8,8 weight=channels",
    "op=group_norm_backward dtype=FLOAT shape=4,16,8,8 groups=4 gamma=yes mask=111",
    "op=nll_loss_backward dtype=FLOAT shape=256,16 target=int64 reduction=mean",
    "op=bce dtype=FLOAT shape=64,64 weight=none reduction=mean",
    "op=prelu dtype=FLOAT shape=4,16,8,8 weight=channels",
    "op=bce_logits_backward dtype=FLOAT shape=64,64 weight=none posweight=none reduction=mean",
    "op=nll_loss dtype=FLOAT shape=256,16 target=int64 reduction=mean",
    "op=group_norm dtype=FLOAT shape=4,16,8,8 groups=4 gamma=yes",
};

/* One line's tensors on the device (t[k]: the operator's tensors in its phase 1's order) and workspace. */
typedef struct {
    int line;
    aclTensor *t[CALL_TENSORS];
    void *data[CALL_TENSORS];
    aclBoolArray *mask;
    void *workspace;
    uint64_t workspace_bytes;
} call_t;

static inline void call_check(int status, const char *what) {
    if (status != 0) {
        fprintf(stderr, "%s returned %d: %s\n", what, status, aclGetRecentErrMsg());
        exit(1);
    }
}

/* Uniform in [lo, hi]: the values need only be valid for the operator, not equal to Java's. */
static inline float call_uniform(uint64_t *seed, double lo, double hi) {
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)(lo + (hi - lo) * (double)(*seed >> 11) / 9007199254740992.0);
}

/*
 * Adds to c a contiguous tensor of shape (rank 0: a single value) on the device, FLOAT uniform in
 * [lo, hi], or INT64 class indices in [0, hi).
 */
static inline void call_tensor(call_t *c, int k, const int64_t *shape, int rank, aclDataType dtype, double lo, double hi) {
    int64_t n = 1;
    int64_t strides[4];
    for (int d = rank - 1; d >= 0; d--) {
        strides[d] = n;
        n *= shape[d];
    }
    size_t bytes = (size_t)n * (dtype == ACL_INT64 ? 8 : 4);
    void *host = malloc(bytes);
    uint64_t seed = 12345 + (uint64_t)k;
    for (int64_t i = 0; i < n; i++) {
        float v = call_uniform(&seed, lo, hi);
        if (dtype == ACL_INT64) {
            ((int64_t *)host)[i] = (int64_t)v % (int64_t)hi;
        } else {
            ((float *)host)[i] = v;
        }
    }
    call_check(aclrtMalloc(&c->data[k], bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    call_check(aclrtMemcpy(c->data[k], bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    free(host);
    c->t[k] = aclCreateTensor(shape, rank, dtype, strides, 0, ACL_FORMAT_ND, shape, rank, c->data[k]);
    if (c->t[k] == NULL) {
        call_check(-1, "aclCreateTensor");
    }
}

static inline void call_floats(call_t *c, int k, const int64_t *shape, int rank, double lo, double hi) {
    call_tensor(c, k, shape, rank, ACL_FLOAT, lo, hi);
}

static const int64_t CALL_MATRIX[] = {64, 64};
static const int64_t CALL_MAPS[] = {4, 16, 8, 8};
static const int64_t CALL_CHANNELS[] = {16};
static const int64_t CALL_STATS[] = {4, 4}; /* N, groups */
static const int64_t CALL_LOGITS[] = {256, 16};
static const int64_t CALL_ROWS[] = {256};
static const int64_t CALL_CLASSES[] = {16};
static const int64_t CALL_ONE[] = {1};
static const int64_t CALL_SCALAR[] = {0}; /* the shape of a 0-d tensor (rank 0) */

/* Makes the tensors of CALL_LINE[line]. */
static inline void call_make(call_t *c, int line) {
    memset(c, 0, sizeof *c);
    c->line = line;
    switch (line) {
    case 0: /* gradOutput, self, target, out */
        call_floats(c, 0, CALL_MATRIX, 2, -1, 1);
        call_floats(c, 1, CALL_MATRIX, 2, 0.02, 0.98);
        call_floats(c, 2, CALL_MATRIX, 2, 0, 1);
        call_floats(c, 3, CALL_MATRIX, 2, 0, 0);
        break;
    case 1: /* self, target, out */
    case 5:
        call_floats(c, 0, CALL_MATRIX, 2, line == 1 ? -8 : 0.02, line == 1 ? 8 : 0.98);
        call_floats(c, 1, CALL_MATRIX, 2, 0, 1);
        call_floats(c, 2, CALL_ONE, 1, 0, 0);
        break;
    case 2: /* gradOutput, self, weight, gradInput, gradWeight */
        call_floats(c, 0, CALL_MAPS, 4, -1, 1);
        call_floats(c, 1, CALL_MAPS, 4, -1, 1);
        call_floats(c, 2, CALL_CHANNELS, 1, 0, 0.5);
        call_floats(c, 3, CALL_MAPS, 4, 0, 0);
        call_floats(c, 4, CALL_CHANNELS, 1, 0, 0);
        break;
    case 3: { /* dy, x, mean, rstd, gamma, gradInput, gradGamma, gradBeta */
        call_floats(c, 0, CALL_MAPS, 4, -1, 1);
        call_floats(c, 1, CALL_MAPS, 4, -2, 2);
        call_floats(c, 2, CALL_STATS, 2, -0.1, 0.1);
        call_floats(c, 3, CALL_STATS, 2, 0.5, 1.5);
        call_floats(c, 4, CALL_CHANNELS, 1, 0.5, 1.5);
        call_floats(c, 5, CALL_MAPS, 4, 0, 0);
        call_floats(c, 6, CALL_CHANNELS, 1, 0, 0);
        call_floats(c, 7, CALL_CHANNELS, 1, 0, 0);
        bool all[3] = {true, true, true};
        c->mask = aclCreateBoolArray(all, 3);
        break;
    }
    case 4: /* gradOutput, self, target, weight, totalWeight, out */
        call_floats(c, 0, CALL_SCALAR, 0, 1, 1);
        call_floats(c, 1, CALL_LOGITS, 2, -1, 0);
        call_tensor(c, 2, CALL_ROWS, 1, ACL_INT64, 0, 16);
        call_floats(c, 3, CALL_CLASSES, 1, 1, 1);
        call_floats(c, 4, CALL_SCALAR, 0, 256, 256);
        call_floats(c, 5, CALL_LOGITS, 2, 0, 0);
        break;
    case 6: /* self, weight, out */
        call_floats(c, 0, CALL_MAPS, 4, -1, 1);
        call_floats(c, 1, CALL_CHANNELS, 1, 0, 0.5);
        call_floats(c, 2, CALL_MAPS, 4, 0, 0);
        break;
    case 7: /* gradOutput, self, target, out */
        call_floats(c, 0, CALL_SCALAR, 0, 1, 1);
        call_floats(c, 1, CALL_MATRIX, 2, -8, 8);
        call_floats(c, 2, CALL_MATRIX, 2, 0, 1);
        call_floats(c, 3, CALL_MATRIX, 2, 0, 0);
        break;
    case 8: /* self, target, weight, out, totalWeight */
        call_floats(c, 0, CALL_LOGITS, 2, -1, 0);
        call_tensor(c, 1, CALL_ROWS, 1, ACL_INT64, 0, 16);
        call_floats(c, 2, CALL_CLASSES, 1, 1, 1);
        call_floats(c, 3, CALL_SCALAR, 0, 0, 0);
        call_floats(c, 4, CALL_SCALAR, 0, 0, 0);
        break;
    default: /* x, gamma, beta, out, mean, rstd */
        call_floats(c, 0, CALL_MAPS, 4, -2, 2);
        call_floats(c, 1, CALL_CHANNELS, 1, 0.5, 1.5);
        call_floats(c, 2, CALL_CHANNELS, 1, -0.5, 0.5);
        call_floats(c, 3, CALL_MAPS, 4, 0, 0);
        call_floats(c, 4, CALL_STATS, 2, 0, 0);
        call_floats(c, 5, CALL_STATS, 2, 0, 0);
        break;
    }
}

/* Phase 1, phase 2 (the workspace grown when phase 1 asks for more) and a synchronize. */
static inline void call_run(call_t *c, aclrtStream stream) {
    aclTensor **t = c->t;
    uint64_t size = 0;
    aclOpExecutor *e = NULL;
    int status;
    switch (c->line) {
    case 0: status = aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(t[0], t[1], t[2], NULL, 0, t[3], &size, &e); break;
    case 1: status = aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(t[0], t[1], NULL, NULL, 1, t[2], &size, &e); break;
    case 2: status = aclnnPreluBackwardGetWorkspaceSize(t[0], t[1], t[2], t[3], t[4], &size, &e); break;
    case 3:
        status = aclnnGroupNormBackwardGetWorkspaceSize(t[0], t[1], t[2], t[3], t[4], 4, 16, 64, 4, c->mask, t[5], t[6],
                                                        t[7], &size, &e);
        break;
    case 4: status = aclnnNLLLossBackwardGetWorkspaceSize(t[0], t[1], t[2], t[3], 1, -100, t[4], t[5], &size, &e); break;
    case 5: status = aclnnBinaryCrossEntropyGetWorkspaceSize(t[0], t[1], NULL, 1, t[2], &size, &e); break;
    case 6: status = aclnnPreluGetWorkspaceSize(t[0], t[1], t[2], &size, &e); break;
    case 7:
        status = aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(t[0], t[1], t[2], NULL, NULL, 1, t[3], &size,
                                                                           &e);
        break;
    case 8: status = aclnnNLLLossGetWorkspaceSize(t[0], t[1], t[2], 1, -100, t[3], t[4], &size, &e); break;
    default:
        status = aclnnGroupNormGetWorkspaceSize(t[0], t[1], t[2], 4, 16, 64, 4, 1e-5, t[3], t[4], t[5], &size, &e);
        break;
    }
    call_check(status, "phase 1");
    if (size > c->workspace_bytes) {
        if (c->workspace != NULL) {
            call_check(aclrtFree(c->workspace), "aclrtFree");
        }
        call_check(aclrtMalloc(&c->workspace, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        c->workspace_bytes = size;
    }
    void *w = c->workspace;
    switch (c->line) {
    case 0: status = aclnnBinaryCrossEntropyBackward(w, size, e, stream); break;
    case 1: status = aclnnBinaryCrossEntropyWithLogits(w, size, e, stream); break;
    case 2: status = aclnnPreluBackward(w, size, e, stream); break;
    case 3: status = aclnnGroupNormBackward(w, size, e, stream); break;
    case 4: status = aclnnNLLLossBackward(w, size, e, stream); break;
    case 5: status = aclnnBinaryCrossEntropy(w, size, e, stream); break;
    case 6: status = aclnnPrelu(w, size, e, stream); break;
    case 7: status = aclnnBinaryCrossEntropyWithLogitsBackward(w, size, e, stream); break;
    case 8: status = aclnnNLLLoss(w, size, e, stream); break;
    default: status = aclnnGroupNorm(w, size, e, stream); break;
    }
    call_check(status, "phase 2");
    call_check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
}

/* Copies a value back to the host (the C functions a program reads its results with), then frees everything. */
static inline void call_free(call_t *c) {
    float first = 0;
    call_check(aclrtMemcpy(&first, sizeof first, c->data[0], sizeof first, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
    for (int k = 0; k < CALL_TENSORS; k++) {
        if (c->t[k] != NULL) {
            call_check(aclDestroyTensor(c->t[k]), "aclDestroyTensor");
            call_check(aclrtFree(c->data[k]), "aclrtFree");
        }
    }
    if (c->mask != NULL) {
        call_check(aclDestroyBoolArray(c->mask), "aclDestroyBoolArray");
    }
    if (c->workspace != NULL) {
        call_check(aclrtFree(c->workspace), "aclrtFree");
    }
}

#endif /* ACLNN4J_TRAIN_CALLS_H_ */
