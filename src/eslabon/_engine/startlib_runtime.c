/*
 * The few symbols of numba's runtime that the C entries' machine code names, for the
 * start-up library (eslabon/_engine/startlib_build.py), where numba is not loaded.
 *
 * Why they are written here: numba's own definitions live in its extension modules,
 * which the dynamic loader cannot bind to without importing numba (about 0.45 s). The
 * entries allocate nothing on their usual paths (their workspace is the scratch buffer
 * the C side passes); the symbols serve rare paths only:
 *
 * - NRT_MemInfo_alloc_aligned / NRT_MemInfo_call_dtor / NRT_Free: a temporary array (an
 *   angle beyond 1e5 rad reduced into a copy). The MemInfo layout is numba's
 *   (numba/core/runtime/nrt.cpp, numba 0.68: refct, dtor, dtor_info, data, size,
 *   external_allocator): compiled code reads `data` and counts references in place.
 *   The block is one malloc; the destructor of an array made here is none.
 * - numba_gil_ensure / numba_gil_release: the GIL around the error report.
 * - numba_unpickle / numba_runtime_build_excinfo_struct / numba_do_raise: an exception
 *   in an entry. numba would rebuild the Python exception from its pickle; here none
 *   is built (that needs numba), so numba's wrapper reports "Exception ignored" and the
 *   entry returns 0, not ENTRY_OK. The C side then calls the general path, which runs
 *   the same kernel through numba and raises the real error.
 *
 * No Python header is needed: the two GIL functions are declared here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef void (*eslabon_dtor)(void *data, size_t size, void *info);

typedef struct {
    size_t refct;
    eslabon_dtor dtor;
    void *dtor_info;
    void *data;
    size_t size;
    void *external_allocator;
} eslabon_meminfo;

extern int PyGILState_Ensure(void);
extern void PyGILState_Release(int state);

void *NRT_MemInfo_alloc_aligned(size_t size, unsigned int align)
{
    if (align == 0 || (align & (align - 1)) != 0)
        return NULL;
    if (size > SIZE_MAX - sizeof(eslabon_meminfo) - align)
        return NULL;
    char *block = malloc(sizeof(eslabon_meminfo) + align + size);
    if (block == NULL)
        return NULL;
    eslabon_meminfo *mi = (eslabon_meminfo *)block;
    uintptr_t data = (uintptr_t)(block + sizeof(eslabon_meminfo));
    data = (data + align - 1) & ~(uintptr_t)(align - 1);
    mi->refct = 1;
    mi->dtor = NULL;
    mi->dtor_info = NULL;
    mi->data = (void *)data;
    mi->size = size;
    mi->external_allocator = NULL;
    return mi;
}

void NRT_MemInfo_call_dtor(eslabon_meminfo *mi)
{
    if (mi->dtor != NULL)
        mi->dtor(mi->data, mi->size, mi->dtor_info);
    free(mi);
}

void NRT_Free(void *ptr)
{
    free(ptr);
}

void numba_gil_ensure(int *state)
{
    *state = PyGILState_Ensure();
}

void numba_gil_release(int *state)
{
    PyGILState_Release(*state);
}

void *numba_unpickle(const char *data, int n, const char *hash)
{
    (void)data;
    (void)n;
    (void)hash;
    return NULL;
}

void *numba_runtime_build_excinfo_struct(void *args, void *info)
{
    (void)args;
    (void)info;
    return NULL;
}

int numba_do_raise(void *excinfo)
{
    (void)excinfo;
    return 0;
}
