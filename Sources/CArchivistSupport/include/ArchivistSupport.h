#ifndef ARCHIVIST_SUPPORT_H
#define ARCHIVIST_SUPPORT_H

/// Writes `value` as C's `%.17g` (CoreFoundation's XML real format) into
/// `buffer` of `size` bytes; returns the length written (without the NUL).
/// A plain C call, so Swift needs no variadic argument list per number.
int archivist_format_g17(double value, char *buffer, int size);

#endif
