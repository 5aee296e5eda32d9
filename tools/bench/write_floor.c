/* The safe-write floor of tools/bench/run (compiled into the run's temporary
 * folder): the system calls Archivist's batch writer makes for each file, and
 * nothing else, for W4's `convert --to binary --output-dir`.
 *
 *   write_floor OUTPUT-DIR FILE...
 *
 * For every file, in the order Archivist makes them: before any work, a stat
 * of the input (file or folder, and its identity) and an lstat of the output
 * name (absent, a link, or the input itself); then open, fstat (the identity
 * again, on the descriptor), read and close the input; create a temporary
 * file beside the output (O_CREAT|O_EXCL|O_NOFOLLOW, through the folder's
 * descriptor), flock it (the liveness lock another run's cleanup checks),
 * duplicate the descriptor (the lock outlives the close), write and close.
 * At the end: syncfs of the output's file system, each temporary renamed onto
 * its output name, fsync of the folder, each lock closed. What is written is
 * the input's bytes as read: no parsing and no conversion, so a command's
 * time over this one's is what its own work adds to the system calls its
 * promises (nothing lost, nothing touched) cost. libplist's peer, by
 * contrast, opens each output with O_TRUNC and writes it in place.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: write_floor OUTPUT-DIR FILE...\n");
        return 64;
    }
    int files = argc - 2;
    int dir = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) { perror(argv[1]); return 1; }
    int *locks = calloc(files > 0 ? files : 1, sizeof(int));
    char (*temporary)[64] = calloc(files > 0 ? files : 1, 64);
    if (!locks || !temporary) return 1;
    char *buf = NULL;
    size_t cap = 0;
    struct stat st;
    int pid = (int)getpid();
    for (int i = 0; i < files; i++) {
        const char *base = strrchr(argv[i + 2], '/');
        base = base ? base + 1 : argv[i + 2];
        if (stat(argv[i + 2], &st) != 0) { perror(argv[i + 2]); return 1; }
        fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW);
    }
    for (int i = 0; i < files; i++) {
        int in = open(argv[i + 2], O_RDONLY | O_CLOEXEC);
        if (in < 0 || fstat(in, &st) != 0) { perror(argv[i + 2]); return 1; }
        size_t size = (size_t)st.st_size;
        if (size + 1 > cap) {
            cap = size + 1;
            buf = realloc(buf, cap);
            if (!buf) return 1;
        }
        ssize_t got = read(in, buf, size + 1);
        close(in);
        if (got < 0) { perror(argv[i + 2]); return 1; }
        snprintf(temporary[i], 64, ".f%06d.floor-%d", i, pid);
        int out = openat(dir, temporary[i], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (out < 0) { perror(temporary[i]); return 1; }
        flock(out, LOCK_EX | LOCK_NB);
        locks[i] = fcntl(out, F_DUPFD_CLOEXEC, 0);
        if (write(out, buf, (size_t)got) != got || close(out) != 0) { perror(temporary[i]); return 1; }
    }
    syncfs(dir);
    for (int i = 0; i < files; i++) {
        const char *base = strrchr(argv[i + 2], '/');
        base = base ? base + 1 : argv[i + 2];
        if (renameat(dir, temporary[i], dir, base) != 0) { perror(base); return 1; }
    }
    fsync(dir);
    for (int i = 0; i < files; i++) close(locks[i]);
    close(dir);
    free(buf);
    free(locks);
    free(temporary);
    return 0;
}
