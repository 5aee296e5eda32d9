#ifndef ARCHIVIST_SUPPORT_H
#define ARCHIVIST_SUPPORT_H

/// Writes `value` exactly as C's `%.17g` (CoreFoundation's XML real format)
/// into `buffer` of `size` bytes (at least 32); returns the length written
/// (without the NUL). Values from 0.001 to 1e17 are formatted with exact
/// 128-bit integer arithmetic (round half to even, as glibc does); others
/// go through snprintf.
int archivist_format_g17(double value, char *buffer, int size);

/// `%.17g` through snprintf, always (the reference the fast path is tested against).
int archivist_format_g17_reference(double value, char *buffer, int size);

/// 1 where `archivist_syncfs` flushes a whole file system (Linux's
/// `syncfs(2)`, which the C library declares only for `_GNU_SOURCE`), else 0.
int archivist_has_syncfs(void);

/// Flushes the file system holding the open file `fd`; -1 where the platform
/// has no `syncfs`.
int archivist_syncfs(int fd);

/// Swaps the files at `a` and `b` in one step (Linux's `renameat2` with
/// `RENAME_EXCHANGE`); -1 with `errno` (`ENOSYS`, `EINVAL` where the platform
/// or file system has no exchange).
int archivist_exchange(const char *a, const char *b);

/// Copies every extended attribute of the file at `from` (links followed)
/// to the open file `to_fd`, counting those copied in `*copied`. Returns 0,
/// or -1 with `errno` of the last attribute that could not be copied (the
/// others are still copied). A file system without extended attributes, or
/// a platform without them, copies none and returns 0.
int archivist_copy_xattrs(const char *from, int to_fd, int *copied);

/// Opens `path` (relative, no `..`) beneath the open folder `dirfd`
/// without following any symbolic link on the way or at the end: Linux's
/// `openat2` with `RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS` where the kernel has
/// it, else one `openat(O_NOFOLLOW)` per component (folders with
/// `O_DIRECTORY`; macOS adds `O_NOFOLLOW_ANY`). `flags` are `open`'s
/// (`O_CLOEXEC` is added). -1 with `errno` (`ELOOP` or `EXDEV` for a link).
int archivist_open_beneath(int dirfd, const char *path, int flags, unsigned mode);

/// `archivist_open_beneath` always through the per-component fallback (for tests).
int archivist_open_beneath_by_components(int dirfd, const char *path, int flags, unsigned mode);

/// Renames `from` to `to`, both in the open folder `dirfd`, only if nothing
/// is at `to` (Linux's `renameat2` with `RENAME_NOREPLACE`, macOS's
/// `renameatx_np` with `RENAME_EXCL`); -1 with `EEXIST` when something is,
/// `ENOSYS`/`EINVAL` where the platform or file system cannot.
int archivist_rename_noreplace_at(int dirfd, const char *from, const char *to);

/// Swaps `a` and `b` in the open folder `dirfd` in one step (`renameat2` with
/// `RENAME_EXCHANGE`, macOS's `RENAME_SWAP`); -1 with `errno` where it cannot.
int archivist_exchange_at(int dirfd, const char *a, const char *b);

/// `archivist_copy_xattrs` from the open file `from_fd`.
int archivist_copy_xattrs_fd(int from_fd, int to_fd, int *copied);

/// Hands back the pages of the main program's relocation table, which the
/// loader reads once at start-up and nothing reads again (a static Swift
/// binary's is over 2 MB): `madvise(MADV_DONTNEED)` on the whole pages of
/// it that lie in a read-only segment of the file, so that they stop
/// counting in the process's resident memory (read again from the file,
/// unchanged, should anything touch them). Returns the bytes handed back;
/// 0 where there is none, or off Linux.
long archivist_release_relocations(void);

/// Has the C library's allocator serve every block of `bytes` or more from
/// a mapping of its own, unmapped when freed, with no adjusting of that
/// threshold (glibc's `mallopt(M_MMAP_THRESHOLD)`). 0, or -1 where the C
/// library has no such setting.
int archivist_map_blocks_from(int bytes);

/// The bytes of the blocks the allocator serves from mappings of their own
/// and the free bytes in its heap (glibc's `mallinfo2()`: `hblkhd` and
/// `fordblks`); 0, or -1 (both -1) where the C library does not say.
int archivist_heap_bytes(long long *mapped, long long *free_in_heap);

#endif
