/* A minimal harness for the C tests: failed checks are reported and counted, never fatal. */
#ifndef ACLNN4J_TEST_CHECK_H_
#define ACLNN4J_TEST_CHECK_H_

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

/* Shared by the threads of the concurrency test. */
static int check_failures;
static int check_count;

#define COUNT_CHECK() __atomic_fetch_add(&check_count, 1, __ATOMIC_RELAXED)
#define FAIL_CHECK() __atomic_fetch_add(&check_failures, 1, __ATOMIC_RELAXED)

/* The recent error message, for failure reports. */
static inline const char *recent_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m == NULL ? "(none)" : m;
}

#define CHECK_EQ(actual, expected)                                                                     \
    do {                                                                                               \
        long long actual_ = (long long)(actual), expected_ = (long long)(expected);                    \
        COUNT_CHECK();                                                                                 \
        if (actual_ != expected_) {                                                                    \
            FAIL_CHECK();                                                                              \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld; recent message: %s\n", __FILE__,        \
                    __LINE__, #actual, actual_, expected_, recent_message());                          \
        }                                                                                              \
    } while (0)

#define CHECK_TRUE(condition) CHECK_EQ(!!(condition), 1)

/* |actual - expected| <= tolerance * max(1, |expected|) */
#define CHECK_NEAR(actual, expected, tolerance)                                                        \
    do {                                                                                               \
        double a_ = (actual), e_ = (expected);                                                         \
        COUNT_CHECK();                                                                                 \
        if (!(fabs(a_ - e_) <= (tolerance) * fmax(1.0, fabs(e_)))) {                                   \
            FAIL_CHECK();                                                                              \
            fprintf(stderr, "%s:%d: %s is %.9g, expected %.9g\n", __FILE__, __LINE__, #actual, a_, e_); \
        }                                                                                              \
    } while (0)

/* This thread's recent message exists and contains text; reading it clears it. */
#define CHECK_MESSAGE(text)                                                                            \
    do {                                                                                               \
        const char *m_ = aclGetRecentErrMsg();                                                         \
        COUNT_CHECK();                                                                                 \
        if (m_ == NULL || strstr(m_, (text)) == NULL) {                                                \
            FAIL_CHECK();                                                                              \
            fprintf(stderr, "%s:%d: recent message [%s] does not contain [%s]\n", __FILE__, __LINE__,  \
                    m_ == NULL ? "(none)" : m_, (text));                                               \
        }                                                                                              \
    } while (0)

/* Prints the tally; returns the exit status of a test program. */
static inline int check_report(const char *name) {
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}

#endif /* ACLNN4J_TEST_CHECK_H_ */
