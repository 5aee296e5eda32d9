// Opening, renaming and linking relative to an open folder, without
// following symbolic links: what a batch checked is what it reads and writes.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "ArchivistSupport.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <stdint.h>
#include <sys/syscall.h>
#endif

#if defined(__linux__)
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
// openat2(2)'s argument and flags (linux/openat2.h; not every C library has it).
struct archivist_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};
#define ARCHIVIST_RESOLVE_NO_MAGICLINKS 0x02
#define ARCHIVIST_RESOLVE_NO_SYMLINKS 0x04
#define ARCHIVIST_RESOLVE_BENEATH 0x08
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
/// 0 until openat2 was tried; 1 where it works; -1 where the kernel lacks it.
static int openat2_state = 0;
#endif

/// The component fallback: each folder on the way opened with
/// O_DIRECTORY|O_NOFOLLOW, the last component with `flags|O_NOFOLLOW`.
static int open_by_components(int dirfd, const char *path, int flags, unsigned mode) {
    char component[4096];
    int current = dirfd;
    const char *at = path;
    for (;;) {
        while (*at == '/') at++;
        const char *end = strchr(at, '/');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        const char *rest = end;
        while (rest && *rest == '/') rest++;
        int last = !rest || *rest == 0;
        if (length == 0 || length >= sizeof component ||
            (length == 1 && at[0] == '.') || (length == 2 && at[0] == '.' && at[1] == '.')) {
            if (current != dirfd) close(current);
            errno = length == 0 ? ENOENT : EXDEV;
            return -1;
        }
        memcpy(component, at, length);
        component[length] = 0;
        int next;
#if defined(O_NOFOLLOW_ANY)
        int nofollow = O_NOFOLLOW | O_NOFOLLOW_ANY;
#else
        int nofollow = O_NOFOLLOW;
#endif
        if (last) {
            next = openat(current, component, flags | nofollow | O_CLOEXEC, mode);
        } else {
            next = openat(current, component, O_RDONLY | O_DIRECTORY | nofollow | O_CLOEXEC);
        }
        int saved = errno;
        if (current != dirfd) close(current);
        if (next < 0) {
            errno = saved;
            return -1;
        }
        if (last) return next;
        current = next;
        at = rest;
    }
}

int archivist_open_beneath(int dirfd, const char *path, int flags, unsigned mode) {
#if defined(__linux__)
    if (openat2_state >= 0) {
        struct archivist_open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (uint64_t)(unsigned)(flags | O_CLOEXEC);
        how.mode = (flags & O_CREAT) ? mode : 0;
        how.resolve = ARCHIVIST_RESOLVE_BENEATH | ARCHIVIST_RESOLVE_NO_SYMLINKS | ARCHIVIST_RESOLVE_NO_MAGICLINKS;
        long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd >= 0) {
            openat2_state = 1;
            return (int)fd;
        }
        if (errno != ENOSYS && errno != EPERM) return -1;
        // No openat2 (an older kernel, or a sandbox that refuses it).
        if (errno == ENOSYS) openat2_state = -1;
    }
#endif
    return open_by_components(dirfd, path, flags, mode);
}

int archivist_open_beneath_by_components(int dirfd, const char *path, int flags, unsigned mode) {
    return open_by_components(dirfd, path, flags, mode);
}

int archivist_rename_noreplace_at(int dirfd, const char *from, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, dirfd, from, dirfd, to, RENAME_NOREPLACE);
#elif defined(__APPLE__) && defined(RENAME_EXCL)
    return renameatx_np(dirfd, from, dirfd, to, RENAME_EXCL);
#else
    (void)dirfd;
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}

int archivist_exchange_at(int dirfd, const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, dirfd, a, dirfd, b, RENAME_EXCHANGE);
#elif defined(__APPLE__) && defined(RENAME_SWAP)
    return renameatx_np(dirfd, a, dirfd, b, RENAME_SWAP);
#else
    (void)dirfd;
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
#endif
}
