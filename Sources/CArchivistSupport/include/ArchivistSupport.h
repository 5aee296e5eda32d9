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

#endif
