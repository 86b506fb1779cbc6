/* The counter of tests/realtime/alloc_count.c. */
#ifndef SK_RT_ALLOC_COUNT_H
#define SK_RT_ALLOC_COUNT_H
#include <stdint.h>
/* While non-zero, every allocation call adds one to *rt_counter. */
extern volatile int rt_count_on;
extern volatile uint64_t *rt_counter;
#endif
