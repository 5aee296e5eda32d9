#define _GNU_SOURCE
#include "ArchivistSupport.h"
#include <stddef.h>
#include <stdint.h>

#if defined(__linux__)
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

/// The main program's relocation table (`DT_RELA`/`DT_RELASZ`, or
/// `DT_REL`/`DT_RELSZ`), when it lies inside a read-only loaded segment.
static int find_relocations(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    uintptr_t *range = data;
    const ElfW(Phdr) *dynamic = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = &info->dlpi_phdr[i];
    }
    if (dynamic == NULL) return 1;
    uintptr_t base = (uintptr_t)info->dlpi_addr, table = 0, length = 0;
    for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)(base + dynamic->p_vaddr); d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_RELA: case DT_REL: table = (uintptr_t)d->d_un.d_ptr; break;
        case DT_RELASZ: case DT_RELSZ: length = (uintptr_t)d->d_un.d_val; break;
        default: break;
        }
    }
    if (table == 0 || length == 0) return 1;
    // The loader may have made the address absolute in place, or not.
    if (table < base) table += base;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || (p->p_flags & PF_W) != 0) continue;
        uintptr_t start = base + p->p_vaddr, end = start + p->p_filesz;
        if (table >= start && table < end && length <= end - table) {
            range[0] = table;
            range[1] = table + length;
        }
    }
    return 1;  // the first object is the main program: stop there
}

long archivist_release_relocations(void) {
    uintptr_t range[2] = {0, 0};
    dl_iterate_phdr(find_relocations, range);
    long page = sysconf(_SC_PAGESIZE);
    if (range[1] == 0 || page <= 0) return 0;
    uintptr_t start = (range[0] + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t end = range[1] & ~((uintptr_t)page - 1);
    if (end <= start) return 0;
    if (madvise((void *)start, end - start, MADV_DONTNEED) != 0) return 0;
    return (long)(end - start);
}

#else

long archivist_release_relocations(void) { return 0; }

#endif
