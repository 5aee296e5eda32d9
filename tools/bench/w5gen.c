/*
 * w5gen: writes W5, a deterministic binary plist of about SIZE megabytes, as
 * it goes (1 MiB writes, nothing held): an array of records
 *   { name: "item0000000042", index: 42, score: 0.42, tags: ["alpha", "beta"], note: 100 bytes }
 * whose keys and tags are shared objects, as CoreFoundation's writer shares
 * equal strings. Every record has the same layout, so each object's offset
 * is computed, not stored.
 *
 *   cc -O2 -o w5gen w5gen.c && ./w5gen 2000 w5.bplist
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char buf[1 << 20];
static size_t used;
static FILE *out;

static void flush(void) {
    if (used && fwrite(buf, 1, used, out) != used) { perror("w5gen: write"); exit(1); }
    used = 0;
}

static void put(const void *p, size_t n) {
    if (used + n > sizeof buf) flush();
    memcpy(buf + used, p, n);
    used += n;
}

static void be(uint64_t v, int width) {
    unsigned char b[8];
    for (int i = 0; i < width; i++) b[i] = (unsigned char)(v >> (8 * (width - 1 - i)));
    put(b, (size_t)width);
}

static void ascii(const char *s) {
    size_t n = strlen(s);
    unsigned char m = (unsigned char)(0x50 | n);  /* short strings only */
    put(&m, 1);
    put(s, n);
}

enum { RECORD_OBJECTS = 6, FIRST_RECORD = 8, REF = 4 };
/* dict (1 + 10 refs), name (1 + 14), index (1 + 8), score (1 + 8), tags (1 + 2 refs), note (3 + 100) */
static const uint64_t sizes[RECORD_OBJECTS] = {1 + 10 * REF, 15, 9, 9, 1 + 2 * REF, 103};
static const char *heads[FIRST_RECORD - 1] = {"name", "index", "score", "tags", "note", "alpha", "beta"};

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: w5gen MEGABYTES OUT\n"); return 64; }
    uint64_t target = (uint64_t)strtoull(argv[1], NULL, 10) * 1000000;
    uint64_t record = 0;
    for (int k = 0; k < RECORD_OBJECTS; k++) record += sizes[k] + 4;  /* + its offset table entry */
    uint64_t n = target / (record + REF);
    if (n < 1) n = 1;
    uint64_t objects = FIRST_RECORD + RECORD_OBJECTS * n;
    if (objects > UINT32_MAX) { fprintf(stderr, "w5gen: too large\n"); return 64; }
    out = fopen(argv[2], "wb");
    if (!out) { perror(argv[2]); return 1; }

    put("bplist00", 8);
    /* Object 0: the array of records (count as a 4-byte integer). */
    unsigned char head[2] = {0xAF, 0x12};
    put(head, 2);
    be(n, 4);
    for (uint64_t r = 0; r < n; r++) be(FIRST_RECORD + RECORD_OBJECTS * r, REF);
    uint64_t rootSize = 6 + REF * n;
    uint64_t sharedSize = 0;
    for (int k = 0; k < FIRST_RECORD - 1; k++) {
        ascii(heads[k]);
        sharedSize += 1 + strlen(heads[k]);
    }
    static const char lorem[] = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ";
    for (uint64_t r = 0; r < n; r++) {
        uint64_t base = FIRST_RECORD + RECORD_OBJECTS * r;
        unsigned char m = 0xD5;
        put(&m, 1);
        for (int k = 0; k < 5; k++) be(1 + k, REF);
        for (int k = 1; k <= 5; k++) be(base + k, REF);
        char name[16];
        snprintf(name, sizeof name, "item%010llu", (unsigned long long)(r % 10000000000ULL));
        ascii(name);
        m = 0x13; put(&m, 1); be(r, 8);
        double score = (double)(r % 1000) / 1000.0;
        uint64_t bits;
        memcpy(&bits, &score, 8);
        m = 0x23; put(&m, 1); be(bits, 8);
        m = 0xA2; put(&m, 1); be(6, REF); be(7, REF);
        unsigned char note[3] = {0x5F, 0x10, 100};
        put(note, 3);
        char text[101];
        size_t start = (size_t)(r % 97);
        for (int i = 0; i < 100; i++) text[i] = lorem[(start + (size_t)i) % (sizeof lorem - 1)];
        snprintf(text, 11, "%010llu", (unsigned long long)(r % 10000000000ULL));
        text[10] = ' ';
        put(text, 100);
    }
    uint64_t table = 8 + rootSize + sharedSize + n * (record - RECORD_OBJECTS * 4);
    /* The offset table: computed from the fixed layout. */
    be(8, 4);
    uint64_t at = 8 + rootSize;
    for (int k = 0; k < FIRST_RECORD - 1; k++) { be(at, 4); at += 1 + strlen(heads[k]); }
    for (uint64_t r = 0; r < n; r++)
        for (int k = 0; k < RECORD_OBJECTS; k++) { be(at, 4); at += sizes[k]; }
    if (at != table) { fprintf(stderr, "w5gen: layout mismatch\n"); return 1; }
    unsigned char trailer[8] = {0, 0, 0, 0, 0, 0, 4, REF};
    put(trailer, 8);
    be(objects, 8);
    be(0, 8);
    be(table, 8);
    flush();
    if (fclose(out) != 0) { perror(argv[2]); return 1; }
    return 0;
}
