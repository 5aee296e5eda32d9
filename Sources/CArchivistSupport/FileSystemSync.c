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
