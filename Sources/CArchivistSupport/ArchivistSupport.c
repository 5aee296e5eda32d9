#include "ArchivistSupport.h"
#include <stdio.h>

int archivist_format_g17(double value, char *buffer, int size) {
    int n = snprintf(buffer, (size_t)size, "%.17g", value);
    if (n < 0) return 0;
    return n < size ? n : size - 1;
}
