#include "ArchivistSupport.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#if defined(__linux__) || defined(__APPLE__)
#include <sys/xattr.h>
#define ARCHIVIST_HAS_XATTR 1
#endif

#if defined(ARCHIVIST_HAS_XATTR)
/// The file attributes are read from: a path (links followed), or an open file when `path` is NULL.
static ssize_t list_names(const char *path, int fd, char *buffer, size_t size) {
#if defined(__APPLE__)
    return path ? listxattr(path, buffer, size, 0) : flistxattr(fd, buffer, size, 0);
#else
    return path ? listxattr(path, buffer, size) : flistxattr(fd, buffer, size);
#endif
}

static ssize_t get_value(const char *path, int fd, const char *name, void *buffer, size_t size) {
#if defined(__APPLE__)
    return path ? getxattr(path, name, buffer, size, 0, 0) : fgetxattr(fd, name, buffer, size, 0, 0);
#else
    return path ? getxattr(path, name, buffer, size) : fgetxattr(fd, name, buffer, size);
#endif
}

static int set_value(int fd, const char *name, const void *value, size_t size) {
#if defined(__APPLE__)
    return fsetxattr(fd, name, value, size, 0, 0);
#else
    return fsetxattr(fd, name, value, size, 0);
#endif
}
#endif

static int copy_xattrs(const char *from, int from_fd, int to_fd, int *copied);

int archivist_copy_xattrs(const char *from, int to_fd, int *copied) {
    return copy_xattrs(from, -1, to_fd, copied);
}

int archivist_copy_xattrs_fd(int from_fd, int to_fd, int *copied) {
    return copy_xattrs(NULL, from_fd, to_fd, copied);
}

static int copy_xattrs(const char *from, int from_fd, int to_fd, int *copied) {
    *copied = 0;
#if defined(ARCHIVIST_HAS_XATTR)
    ssize_t size = list_names(from, from_fd, NULL, 0);
    if (size < 0) return (errno == ENOTSUP || errno == ENOSYS) ? 0 : -1;
    if (size == 0) return 0;
    char *names = malloc((size_t)size);
    if (!names) return -1;
    size = list_names(from, from_fd, names, (size_t)size);
    if (size < 0) {
        int saved = errno;
        free(names);
        errno = saved;
        return -1;
    }
    int failure = 0;
    size_t capacity = 0;
    char *value = NULL;
    for (ssize_t at = 0; at < size;) {
        const char *name = names + at;
        size_t length = strnlen(name, (size_t)(size - at));
        at += (ssize_t)length + 1;
        if (length == 0) continue;
        ssize_t n = get_value(from, from_fd, name, NULL, 0);
        if (n < 0) { failure = errno; continue; }
        if ((size_t)n > capacity) {
            char *grown = realloc(value, (size_t)n);
            if (!grown) { failure = ENOMEM; continue; }
            value = grown;
            capacity = (size_t)n;
        }
        n = get_value(from, from_fd, name, value, (size_t)n);
        if (n < 0) { failure = errno; continue; }
        if (set_value(to_fd, name, value, (size_t)n) != 0) { failure = errno; continue; }
        *copied += 1;
    }
    free(value);
    free(names);
    if (failure) { errno = failure; return -1; }
    return 0;
#else
    (void)from;
    (void)from_fd;
    (void)to_fd;
    return 0;
#endif
}
