/*
 * errors.c: the sigkern error contract, seen from C.
 *
 * Every bad call below must return its documented status code, leave a precise message for the
 * calling thread (read with sk_last_error_message: length first with NULL/0, then into a buffer
 * of that size + 1), and leave every output untouched: outputs are pre-filled with canary values
 * and compared bit for bit afterwards. Exits 1 if anything differs from the contract.
 */
#include "sigkern.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 16
#define CANARY -12345.5f

static int g_checks;
static int g_failed;

static void fail(const char *what) {
    printf("    FAIL: %s\n", what);
    g_failed++;
}

/* The calling thread's last error message, allocated at its full length (caller frees). */
static char *last_error(void) {
    size_t len = sk_last_error_message(NULL, 0);
    char *msg = malloc(len + 1);
    if (!msg) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    size_t again = sk_last_error_message(msg, len + 1);
    if (again != len || strlen(msg) != len) fail("message length changed between the two calls");
    return msg;
}

/* Checks a status code, prints it with the message, and checks the message mentions `needle`
 * (the function and the offending argument). */
static void expect(const char *title, int32_t rc, int32_t want, const char *needle) {
    g_checks++;
    printf("  %-38s -> %s", title, sk_status_name(rc));
    if (rc != want) {
        printf("\n");
        char buf[96];
        snprintf(buf, sizeof buf, "expected %s", sk_status_name(want));
        fail(buf);
        return;
    }
    if (want == SK_OK) {
        printf("\n");
        return;
    }
    char *msg = last_error();
    printf("%*s\"%s\"\n", (int)(21 - strlen(sk_status_name(rc))), "", msg);
    if (needle && !strstr(msg, needle)) {
        char buf[96];
        snprintf(buf, sizeof buf, "message does not mention \"%s\"", needle);
        fail(buf);
    }
    free(msg);
}

static void fill_canary(float *v, size_t n) {
    for (size_t i = 0; i < n; i++) v[i] = CANARY;
}

static void expect_canary(const char *what, const float *v, size_t n) {
    g_checks++;
    for (size_t i = 0; i < n; i++) {
        if (v[i] != CANARY) {
            char buf[96];
            snprintf(buf, sizeof buf, "%s[%zu] was written (%g)", what, i, (double)v[i]);
            fail(buf);
            return;
        }
    }
}

/* A thread that never failed has an empty message, whatever other threads did. */
static void *fresh_thread(void *arg) {
    *(size_t *)arg = sk_last_error_message(NULL, 0);
    return NULL;
}

int main(void) {
    printf("sigkern %s: error contract\n\n", sk_version());
    /* +1 so that a sub-buffer can start one element in (partial overlap) */
    float a[N], b[N], y[N + 1];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i - 7.5f;
        b[i] = 0.5f * (float)i;
    }
    float out = CANARY;

    fill_canary(y, N + 1);
    expect("sk_add_f32(a, NULL, y, 16)", sk_add_f32(a, NULL, y, N), SK_ERR_NULL_POINTER,
           "sk_add_f32: argument b is NULL but n = 16");
    expect_canary("y", y, N + 1);

    expect("sk_add_f32(NULL, NULL, NULL, 0)", sk_add_f32(NULL, NULL, NULL, 0), SK_OK, NULL);
    expect("sk_sum_f32(NULL, &out, 0)", sk_sum_f32(NULL, &out, 0), SK_OK, NULL);
    g_checks++;
    if (out != 0.0f) fail("the sum of nothing is not 0");
    out = CANARY;

    expect("sk_scale_f32(a, 2, y, SIZE_MAX)", sk_scale_f32(a, 2.0f, y, SIZE_MAX), SK_ERR_LENGTH,
           "argument x");
    expect_canary("y", y, N + 1);

    /* A float pointer one byte off. Built through uintptr_t (implementation-defined, fine on
     * every mainstream ABI) and never dereferenced by us or by the library. */
    float *odd = (float *)(uintptr_t)((uintptr_t)y + 1);
    expect("sk_scale_f32(a, 2, (char *)y + 1, 8)", sk_scale_f32(a, 2.0f, odd, 8),
           SK_ERR_MISALIGNED, "argument y");
    expect_canary("y", y, N + 1);

    /* y = y[0..16) as input, y+1 as output: they share 15 elements but are not the same. */
    fill_canary(y, N + 1);
    expect("sk_add_f32(y, b, y + 1, 16)", sk_add_f32(y, b, y + 1, N), SK_ERR_OVERLAP,
           "overlaps input a");
    expect_canary("y", y, N + 1);

    expect("sk_clip_f32(a, 1, -1, y, 16)", sk_clip_f32(a, 1.0f, -1.0f, y, N),
           SK_ERR_BAD_ARGUMENT, "greater than hi");
    expect("sk_clip_f32(a, NAN, 1, y, 16)", sk_clip_f32(a, NAN, 1.0f, y, N), SK_ERR_BAD_ARGUMENT,
           "NaN");
    expect_canary("y", y, N + 1);

    expect("sk_mean_f32(a, &out, 0)", sk_mean_f32(a, &out, 0), SK_ERR_LENGTH, "empty");
    expect("sk_rms_f32(a, NULL, 16)", sk_rms_f32(a, NULL, N), SK_ERR_NULL_POINTER,
           "argument out");
    expect_canary("out", &out, 1);

    expect("copy(a, y, -1)  [seed]", copy(a, y, -1), SK_ERR_LENGTH, "len = -1");
    expect("copy(a, NULL, 4)  [seed]", copy(a, NULL, 4), SK_ERR_NULL_POINTER, "argument out");
    expect_canary("y", y, N + 1);

    /* process_data on a buffer holding a NaN: refused, buffer left exactly as it was. */
    float data[N], before[N];
    for (int i = 0; i < N; i++) data[i] = 0.1f * (float)(i + 1);
    data[5] = NAN;
    memcpy(before, data, sizeof data);
    expect("process_data(data with NaN at 5, 16)", process_data(data, N), SK_ERR_NON_FINITE,
           "data[5]");
    g_checks++;
    if (memcmp(before, data, sizeof data) != 0) fail("process_data wrote to a refused buffer");

    /* A successful call does not clear the message (like errno). */
    char *kept = last_error();
    expect("sk_add_f32(a, b, y, 16)", sk_add_f32(a, b, y, N), SK_OK, NULL);
    char *still = last_error();
    g_checks++;
    if (strcmp(kept, still) != 0) fail("a successful call changed the last error message");
    g_checks++;
    for (int i = 0; i < N; i++)
        if (y[i] != a[i] + b[i]) {
            fail("sk_add_f32 result is wrong after the errors");
            break;
        }

    /* Truncation: a small buffer gets a NUL-terminated prefix and the full length back. */
    char small[8];
    size_t full = sk_last_error_message(small, sizeof small);
    printf("  %-38s -> %zu bytes, got \"%s\"\n", "sk_last_error_message(buf, 8)", full, small);
    g_checks++;
    if (full != strlen(kept) || strlen(small) != 7 || strncmp(small, kept, 7) != 0)
        fail("truncated message is not the 7-byte prefix");
    free(kept);
    free(still);

    const char *unknown = sk_status_name(12345);
    printf("  %-38s -> %s\n", "sk_status_name(12345)", unknown);
    g_checks++;
    if (strcmp(unknown, "SK_UNKNOWN_STATUS") != 0) fail("unknown status name");

    /* The message is per thread: a new thread has none. */
    pthread_t th;
    size_t other_len = 1;
    if (pthread_create(&th, NULL, fresh_thread, &other_len) != 0 || pthread_join(th, NULL) != 0) {
        fprintf(stderr, "pthread failed\n");
        return 2;
    }
    printf("  %-38s -> %zu\n", "message length in a new thread", other_len);
    g_checks++;
    if (other_len != 0) fail("a fresh thread sees another thread's message");

    printf("\nerrors: %d passed, %d failed\n", g_checks - g_failed, g_failed);
    return g_failed ? 1 : 0;
}
