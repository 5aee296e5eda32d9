#include <sqlite3.h>

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef O_NOATIME
#define O_NOATIME 01000000
#endif

/// The `open` the unix VFS calls (see archivist_sqlite_keep_access_times):
/// a file opened only for reading is opened with O_NOATIME, which leaves its
/// access time as it was; where that is not permitted (EPERM: the caller
/// neither owns the file nor has CAP_FOWNER), it is opened as usual.
static int archivist_sqlite_open_noatime(const char *path, int flags, int mode) {
    if ((flags & O_ACCMODE) == O_RDONLY) {
        int fd = open(path, flags | O_NOATIME, mode);
        if (fd >= 0 || errno != EPERM) return fd;
    }
    return open(path, flags, mode);
}

/// The `fchown` the unix VFS calls: run as root, SQLite gives a journal or
/// log it opens the database's owner, even one it only opened to read (a
/// journal it checks for being hot), which changes that file's change time.
/// A file open only for reading keeps its owner and times.
static int archivist_sqlite_fchown_writable(int fd, uid_t owner, gid_t group) {
    int flags = fcntl(fd, F_GETFL);
    if (flags != -1 && (flags & O_ACCMODE) == O_RDONLY) return 0;
    return fchown(fd, owner, group);
}

/// Makes SQLite's unix VFS leave the files it only reads as they were (its
/// `xSetSystemCall`, for the whole process): opened with O_NOATIME, and
/// never given an owner. Call it before the first connection opens, once.
/// SQLITE_OK, or an error where the VFS cannot.
static inline int archivist_sqlite_keep_access_times(void) {
    sqlite3_vfs *vfs = sqlite3_vfs_find("unix");
    if (vfs == 0 || vfs->iVersion < 3 || vfs->xSetSystemCall == 0) return SQLITE_ERROR;
    int rc = vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)archivist_sqlite_open_noatime);
    if (rc != SQLITE_OK) return rc;
    return vfs->xSetSystemCall(vfs, "fchown", (sqlite3_syscall_ptr)archivist_sqlite_fchown_writable);
}
#endif
