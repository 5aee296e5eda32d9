/* libplist peer for tools/bench/run (compiled into the run's temporary folder).
 *   libplist_peer parse FILE...              read each file (binary or XML)
 *   libplist_peer convert xml|bin OUT FILE... read, write to OUT ('-' = stdout, else a folder)
 */
#include <plist/plist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, uint32_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "%s: read failed\n", path); exit(1); }
    fclose(f);
    *len = (uint32_t)n;
    return buf;
}

static plist_t load(const char *path) {
    uint32_t len;
    char *buf = slurp(path, &len);
    plist_t p = NULL;
    plist_from_memory(buf, len, &p);
    free(buf);
    if (!p) { fprintf(stderr, "%s: not a property list\n", path); exit(1); }
    return p;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "parse") == 0) {
        for (int i = 2; i < argc; i++) plist_free(load(argv[i]));
        return 0;
    }
    if (argc >= 5 && strcmp(argv[1], "convert") == 0) {
        int xml = strcmp(argv[2], "xml") == 0;
        const char *out = argv[3];
        for (int i = 4; i < argc; i++) {
            plist_t p = load(argv[i]);
            char *data = NULL;
            uint32_t len = 0;
            if (xml) plist_to_xml(p, &data, &len); else plist_to_bin(p, &data, &len);
            if (!data) { fprintf(stderr, "%s: cannot write\n", argv[i]); return 1; }
            FILE *f = stdout;
            if (strcmp(out, "-") != 0) {
                const char *base = strrchr(argv[i], '/');
                base = base ? base + 1 : argv[i];
                char name[4096];
                const char *dot = strrchr(base, '.');
                int stem = dot ? (int)(dot - base) : (int)strlen(base);
                snprintf(name, sizeof name, "%s/%.*s.plist", out, stem, base);
                f = fopen(name, "wb");
                if (!f) { perror(name); return 1; }
            }
            fwrite(data, 1, len, f);
            if (f != stdout) fclose(f);
            free(data);
            plist_free(p);
        }
        return 0;
    }
    fprintf(stderr, "usage: libplist_peer parse FILE... | convert xml|bin OUT FILE...\n");
    return 2;
}
