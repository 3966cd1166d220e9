/*
 * Prints aclFloat16ToFloat of every FLOAT16 pattern ("H bits float-bits") and aclFloatToFloat16 of
 * every finite pattern's value, the midpoint to the next one and the floats beside the midpoint
 * ("F float-bits half-bits"), for NativeAbiTest to compare with the Java layer's conversions.
 * Needs no JVM: the conversions are C.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

static uint32_t bits_of(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static void convert(float f) {
    printf("F %08x %04x\n", bits_of(f), aclFloatToFloat16(f));
}

int main(void) {
    for (uint32_t h = 0; h < 0x10000u; h++) {
        printf("H %04x %08x\n", h, bits_of(aclFloat16ToFloat((aclFloat16)h)));
    }
    for (uint32_t h = 0; h < 0x10000u; h++) {
        if ((h & 0x7C00u) == 0x7C00u) {
            continue;
        }
        float value = aclFloat16ToFloat((aclFloat16)h);
        float next = (h & 0x7FFFu) == 0x7BFFu ? (value < 0 ? -65536.0f : 65536.0f)
                                               : aclFloat16ToFloat((aclFloat16)(h + 1));
        float mid = (value + next) / 2;
        convert(value);
        convert(mid);
        convert(float_of(bits_of(mid) + 1));
        convert(float_of(bits_of(mid) - 1));
    }
    convert(float_of(0x7F800000u));
    convert(float_of(0xFF800000u));
    convert(float_of(0x7FC00000u));
    convert(float_of(0x7F7FFFFFu));
    return 0;
}
