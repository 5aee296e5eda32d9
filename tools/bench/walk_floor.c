/* The object-walk floor of tools/bench/run (compiled into the run's temporary
 * folder): the least work any reader of a binary property list can do.
 *
 *   walk_floor FILE...
 *
 * It maps each file, reads the trailer, and visits every object of the offset
 * table once: reads its marker and length (following the extended-length
 * integer where the marker says so), and for an array, set or dictionary reads
 * every reference and checks that it names an object. It builds nothing,
 * decodes no text, and checks nothing else; it prints a sum of what it read so
 * that no compiler can leave the reads out. A command's time divided by this
 * one's is its distance from the limit, not only from its peers.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t be(const uint8_t *p, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) v = v << 8 | p[i];
    return v;
}

static int walk(const uint8_t *b, size_t n, uint64_t *sum) {
    if (n < 40 || memcmp(b, "bplist0", 7) != 0) return -1;
    const uint8_t *t = b + n - 32;
    unsigned offsetSize = t[6], refSize = t[7];
    uint64_t count = be(t + 8, 8), table = be(t + 24, 8);
    if (offsetSize < 1 || offsetSize > 8 || refSize < 1 || refSize > 8) return -1;
    if (table > n - 32 || count > (n - 32 - table) / offsetSize) return -1;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t at = be(b + table + i * offsetSize, offsetSize);
        if (at >= table) return -1;
        uint8_t marker = b[at];
        unsigned high = marker >> 4;
        uint64_t length = marker & 15;
        uint64_t body = at + 1;
        if (length == 15 && high != 0 && high != 1 && high != 2 && high != 3) {
            /* the length follows as an integer object */
            if (body >= table) return -1;
            unsigned width = 1u << (b[body] & 3);
            if (body + 1 + width > table) return -1;
            length = be(b + body + 1, width);
            body += 1 + width;
        }
        *sum += marker + length;
        if (high == 0xA || high == 0xC || high == 0xD) {
            uint64_t refs = high == 0xD ? length * 2 : length;
            if (refs > (table - body) / refSize) return -1;
            for (uint64_t k = 0; k < refs; k++) {
                uint64_t r = be(b + body + k * refSize, refSize);
                if (r >= count) return -1;
                *sum += r;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    uint64_t sum = 0;
    for (int a = 1; a < argc; a++) {
        int fd = open(argv[a], O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[a]); return 1; }
        size_t n = (size_t)st.st_size;
        const uint8_t *b = n ? mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
        if (n && b == MAP_FAILED) { perror(argv[a]); return 1; }
        if (walk(b, n, &sum) != 0) { fprintf(stderr, "%s: not a binary property list this floor walks\n", argv[a]); return 1; }
        if (n) munmap((void *)b, n);
        close(fd);
    }
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}
