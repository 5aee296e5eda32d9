#include "ArchivistSupport.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int archivist_format_g17_reference(double value, char *buffer, int size) {
    int n = snprintf(buffer, (size_t)size, "%.17g", value);
    if (n < 0) return 0;
    return n < size ? n : size - 1;
}

static const uint64_t pow10_table[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL,
};

/// round(a * 10^p) for a = m * 2^e, exactly, ties to even; p in 0...19.
static unsigned __int128 scaled(uint64_t m, int e, int p) {
    unsigned __int128 x = (unsigned __int128)m * pow10_table[p];
    if (e >= 0) return x << e;
    int s = -e;
    if (s >= 128) return 0;
    unsigned __int128 q = x >> s;
    unsigned __int128 r = x - (q << s);
    unsigned __int128 half = (unsigned __int128)1 << (s - 1);
    if (r > half || (r == half && (q & 1))) q += 1;
    return q;
}

int archivist_format_g17(double value, char *buffer, int size) {
    double a = fabs(value);
    if (size < 32 || !(a >= 0.001 && a < 1e17)) return archivist_format_g17_reference(value, buffer, size);
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int biased = (int)(bits >> 52);
    uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    int e = biased - 1075;  // a = m * 2^e
    int x10 = (int)floor(log10(a));
    const uint64_t low = 10000000000000000ULL, high = 100000000000000000ULL;  // 10^16, 10^17
    unsigned __int128 n = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
        int p = 16 - x10;
        if (p < 0 || p > 19) return archivist_format_g17_reference(value, buffer, size);
        n = scaled(m, e, p);
        if (n >= high) { x10 += 1; continue; }
        if (n < low) { x10 -= 1; continue; }
        break;
    }
    if (n < low || n >= high || x10 < -4 || x10 >= 17) return archivist_format_g17_reference(value, buffer, size);
    char digits[17];
    uint64_t v = (uint64_t)n;
    for (int k = 16; k >= 0; k--) { digits[k] = (char)('0' + v % 10); v /= 10; }
    int last = 16;  // the last digit kept: trailing zeros of the fraction go
    int out = 0;
    if (value < 0) buffer[out++] = '-';
    if (x10 >= 0) {
        int fractionStart = x10 + 1;
        while (last >= fractionStart && digits[last] == '0') last--;
        for (int k = 0; k < fractionStart; k++) buffer[out++] = digits[k];
        if (last >= fractionStart) {
            buffer[out++] = '.';
            for (int k = fractionStart; k <= last; k++) buffer[out++] = digits[k];
        }
    } else {
        while (last >= 0 && digits[last] == '0') last--;
        buffer[out++] = '0';
        buffer[out++] = '.';
        for (int k = 0; k < -x10 - 1; k++) buffer[out++] = '0';
        for (int k = 0; k <= last; k++) buffer[out++] = digits[k];
    }
    buffer[out] = 0;
    return out;
}
