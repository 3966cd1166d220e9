/*
 * One operator's cold start through the native C ABI, as a C program meets it (beside ColdStart.java
 * and torch_cold.py): from main on, the runtime set up (aclInit starts the JVM), the tensors of one
 * bench/cold.txt line made, then the call made again and again; prints the milliseconds since main
 * began after 1, 10, 100 and 1000 calls (each call: phase 1, phase 2, synchronize), as
 * "ms1 ms10 ms100 ms1000", or "n/a REASON" for a line it does not make.
 * ./aclnn4j bench cold builds it against the libraries it installs into target/bench/native.
 * Usage: cold 'LINE OF bench/cold.txt'
 */
#include <time.h>

#include "calls.h" /* native/train/ */

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double start = now_ms();
    if (argc != 2) {
        fprintf(stderr, "usage: cold 'LINE OF bench/cold.txt'\n");
        return 2;
    }
    int line = 0;
    while (line < CALL_LINES && strcmp(argv[1], CALL_LINE[line]) != 0) {
        line++;
    }
    if (line == CALL_LINES) {
        printf("n/a native/train/calls.h does not make this line\n");
        return 0;
    }
    call_check(aclInit(NULL), "aclInit");
    call_check(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream = NULL;
    call_check(aclrtCreateStream(&stream), "aclrtCreateStream");
    call_t call;
    call_make(&call, line);
    for (int calls = 1; calls <= 1000; calls++) {
        call_run(&call, stream);
        if (calls == 1 || calls == 10 || calls == 100 || calls == 1000) {
            printf("%.3f%s", now_ms() - start, calls == 1000 ? "\n" : " ");
        }
    }
    return 0;
}
