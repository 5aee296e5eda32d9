#include "ArchivistSupport.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int archivist_map_blocks_from(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 0 : -1;
}

int archivist_heap_bytes(long long *mapped, long long *free_in_heap) {
    struct mallinfo2 info = mallinfo2();
    *mapped = (long long)info.hblkhd;
    *free_in_heap = (long long)info.fordblks;
    return 0;
}
#else

int archivist_map_blocks_from(int bytes) {
    (void)bytes;
    return -1;
}

int archivist_heap_bytes(long long *mapped, long long *free_in_heap) {
    *mapped = -1;
    *free_in_heap = -1;
    return -1;
}
#endif
