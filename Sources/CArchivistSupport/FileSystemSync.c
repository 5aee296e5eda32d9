#if defined(__linux__)
#define _GNU_SOURCE
#include <unistd.h>
#endif
#include "ArchivistSupport.h"

int archivist_has_syncfs(void) {
#if defined(__linux__)
    return 1;
#else
    return 0;
#endif
}

int archivist_syncfs(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    (void)fd;
    return -1;
#endif
}

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#endif
#include <errno.h>

int archivist_exchange(const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
#endif
}
