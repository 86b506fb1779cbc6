/* An allocation-counting interposer for tests/realtime/rt_alloc.c.
 *
 * Linked into the test program, these definitions of malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc, memalign, valloc and pvalloc take the place of the C library's
 * for every shared object the program loads (libsigkern.so included: the dynamic linker binds its
 * calls to the program's definitions first). Each forwards to glibc's own implementation
 * (__libc_malloc and friends) and, while rt_count_on is set, counts the call. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc_count.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

volatile int rt_count_on = 0;
volatile uint64_t *rt_counter = 0;

static void count(void) {
    if (rt_count_on && rt_counter) {
        __atomic_fetch_add(rt_counter, 1, __ATOMIC_RELAXED);
    }
}

void *malloc(size_t n) {
    count();
    return __libc_malloc(n);
}

void *calloc(size_t a, size_t b) {
    count();
    return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n) {
    count();
    return __libc_realloc(p, n);
}

void free(void *p) {
    if (p) {
        count();
    }
    __libc_free(p);
}

void *memalign(size_t align, size_t n) {
    count();
    return __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n) {
    count();
    return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n) {
    count();
    if (align < sizeof(void *) || (align & (align - 1)) != 0) {
        return EINVAL;
    }
    void *p = __libc_memalign(align, n);
    if (!p && n) {
        return ENOMEM;
    }
    *out = p;
    return 0;
}

void *valloc(size_t n) {
    count();
    return __libc_memalign(4096, n);
}

void *pvalloc(size_t n) {
    count();
    return __libc_memalign(4096, (n + 4095) & ~(size_t)4095);
}
