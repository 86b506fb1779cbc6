/* What a handle call costs, and how calls on different handles scale over threads, from C.
 *
 * 1. Per-call time at 1 frame (mono, 2 sections): sk_biquad_f32_process through its handle;
 *    sk_biquad_reset (the handle lookup with an almost empty body); sk_add_f32 at n = 1 (the
 *    call boundary and argument checks without a handle). Also one 64-frame stereo block.
 * 2. Scaling: every thread calls its own four float biquad handles in turn (order 4 = two
 *    sections, stereo, 64-frame planar blocks), 1 thread then 2 threads, next to a plain compute
 *    loop (the same biquad arithmetic in C on per-thread data, no library call) as the ceiling.
 *    Rounds alternate the four configurations; the best round of each is reported (best-of
 *    filters the noise of a shared machine; alternating keeps all under the same load), with
 *    the CPU time per call (summed over the threads): when the threads share nothing it stays
 *    the same from 1 to 2 threads, even on a machine too loaded for the wall-clock ratio to
 *    reach the core count (compare the ceiling's ratio).
 *
 * Per-call times are thread CPU time (time spent descheduled is not counted).
 *
 *   build/c/handles [rounds]       (default 9)
 *
 * Prints the library file measured (so the same program can run against another build with
 * LD_LIBRARY_PATH), ns per call, calls per second and the 2-thread/1-thread ratios. A benchmark,
 * not a test: the exit status is 0 unless a call fails.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sigkern.h"

#define FRAMES 64
#define CHANNELS 2
#define HANDLES 4
#define SECTIONS 2

static double clock_s(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }

/* CPU time of the calling thread: on a loaded machine, time spent descheduled is not counted */
static double cpu_s(void) { return clock_s(CLOCK_THREAD_CPUTIME_ID); }

/* A 4th-order Butterworth low-pass at 0.2·Nyquist (scipy.signal.butter(4, 0.2, output='sos')). */
static const double SOS[SECTIONS * 6] = {
    0.004824343357716228, 0.009648686715432456, 0.004824343357716228,
    1.0, -1.0485995763626117, 0.2961403575616696,
    1.0, 2.0, 1.0,
    1.0, -1.3209134308194264, 0.6327387928852763,
};

static int check(int rc, const char *what) {
    if (rc != SK_OK) {
        char msg[512];
        sk_last_error_message(msg, sizeof msg);
        fprintf(stderr, "%s failed (%d): %s\n", what, rc, msg);
        exit(1);
    }
    return rc;
}

/* ------------------------------------------------------------------ per-call time */

static double best_ns(void (*body)(void *), void *arg, long calls, int rounds) {
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = cpu_s();
        for (long i = 0; i < calls; i++) body(arg);
        double dt = (cpu_s() - t0) / calls * 1e9;
        if (dt < best) best = dt;
    }
    return best;
}

struct one {
    struct SkBiquad *h;
    float *x, *y;
    size_t n, stride;
};

static void call_process(void *p) {
    struct one *o = p;
    check(sk_biquad_f32_process(o->h, o->x, (ptrdiff_t)o->stride, o->y, (ptrdiff_t)o->stride, o->n),
          "sk_biquad_f32_process");
}

static void call_reset(void *p) {
    struct one *o = p;
    check(sk_biquad_reset(o->h), "sk_biquad_reset");
}

static void call_add(void *p) {
    struct one *o = p;
    check(sk_add_f32(o->x, o->x, o->y, 1), "sk_add_f32");
}

/* ------------------------------------------------------------------ scaling */

struct worker {
    pthread_t tid;
    int use_lib;
    long calls;
    struct SkBiquad *h[HANDLES];
    float x[CHANNELS * FRAMES], y[CHANNELS * FRAMES];
    double z[HANDLES][CHANNELS][SECTIONS][2]; /* state of the plain C loop */
    double sink, cpu;
    pthread_barrier_t *start;
} __attribute__((aligned(128)));

/* The same arithmetic in plain C: transposed direct form II, double state, per channel. */
static void plain_biquad(struct worker *w, int k) {
    for (int c = 0; c < CHANNELS; c++) {
        const float *x = w->x + c * FRAMES;
        float *y = w->y + c * FRAMES;
        for (int t = 0; t < FRAMES; t++) {
            double v = x[t];
            for (int s = 0; s < SECTIONS; s++) {
                const double *q = SOS + 6 * s;
                double *z = w->z[k][c][s];
                double o = q[0] * v + z[0];
                z[0] = q[1] * v - q[4] * o + z[1];
                z[1] = q[2] * v - q[5] * o;
                v = o;
            }
            y[t] = (float)v;
        }
    }
}

static void *work(void *p) {
    struct worker *w = p;
    pthread_barrier_wait(w->start);
    double c0 = cpu_s();
    for (long i = 0; i < w->calls; i++) {
        int k = (int)(i % HANDLES);
        if (w->use_lib) {
            check(sk_biquad_f32_process(w->h[k], w->x, FRAMES, w->y, FRAMES, FRAMES),
                  "sk_biquad_f32_process");
        } else {
            plain_biquad(w, k);
        }
        w->x[i % (CHANNELS * FRAMES)] += 1e-3f * w->y[0];
    }
    w->cpu = cpu_s() - c0;
    w->sink = w->y[FRAMES - 1];
    return NULL;
}

/* Worker threads run SCHED_FIFO (as audio threads do) when the process may use it: then the two
 * threads really run at the same time even on a busy machine, which is what shows contention.
 * Otherwise (no permission) they run SCHED_OTHER. */
static int fifo = 1;
static pthread_attr_t fifo_attr;

static void init_fifo(void) {
    struct sched_param sp = {.sched_priority = 10};
    if (pthread_attr_init(&fifo_attr) || pthread_attr_setinheritsched(&fifo_attr, PTHREAD_EXPLICIT_SCHED) ||
        pthread_attr_setschedpolicy(&fifo_attr, SCHED_FIFO) || pthread_attr_setschedparam(&fifo_attr, &sp))
        fifo = 0;
}

/* calls per second of `threads` threads, each making `calls` calls; `*cpu_ns` gets the CPU time
 * per call, summed over the threads */
static double run(struct worker *ws, int threads, int use_lib, long calls, double *cpu_ns) {
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
    for (int t = 0; t < threads; t++) {
        ws[t].use_lib = use_lib;
        ws[t].calls = calls;
        ws[t].start = &start;
        if (!fifo || pthread_create(&ws[t].tid, &fifo_attr, work, &ws[t]) != 0) {
            fifo = 0;
            if (pthread_create(&ws[t].tid, NULL, work, &ws[t]) != 0) exit(1);
        }
    }
    double t0 = now_s();
    pthread_barrier_wait(&start);
    for (int t = 0; t < threads; t++) pthread_join(ws[t].tid, NULL);
    double dt = now_s() - t0;
    pthread_barrier_destroy(&start);
    double cpu = 0;
    for (int t = 0; t < threads; t++) cpu += ws[t].cpu;
    *cpu_ns = cpu / (threads * (double)calls) * 1e9;
    return threads * (double)calls / dt;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 9;
    if (rounds < 1) rounds = 1;
    Dl_info info;
    int32_t (*fp)(struct SkBiquad *) = sk_biquad_reset;
    void *addr;
    memcpy(&addr, &fp, sizeof addr); /* ISO C has no function-to-object pointer cast */
    if (dladdr(addr, &info) && info.dli_fname)
        printf("library: %s\n", info.dli_fname);

    /* 1. per-call time */
    struct one o = {0};
    float *buf = calloc(4 * CHANNELS * FRAMES, sizeof(float));
    if (!buf) return 1;
    o.x = buf;
    o.y = buf + 2 * CHANNELS * FRAMES;
    for (int i = 0; i < CHANNELS * FRAMES; i++) o.x[i] = (float)((i * 37 % 101) / 101.0 - 0.5);
    check(sk_biquad_f32_new(SOS, 1, &o.h, SECTIONS), "sk_biquad_f32_new");
    o.n = 1;
    o.stride = 1;
    long calls = 2000000;
    double t_proc1 = best_ns(call_process, &o, calls, rounds);
    double t_reset = best_ns(call_reset, &o, calls, rounds);
    double t_add = best_ns(call_add, &o, calls, rounds);
    struct one o2 = o;
    check(sk_biquad_f32_new(SOS, CHANNELS, &o2.h, SECTIONS), "sk_biquad_f32_new");
    o2.n = FRAMES;
    o2.stride = FRAMES;
    double t_proc64 = best_ns(call_process, &o2, calls / 4, rounds);
    check(sk_biquad_free(o.h), "sk_biquad_free");
    check(sk_biquad_free(o2.h), "sk_biquad_free");
    printf("ns per call (best of %d rounds):\n", rounds);
    printf("  sk_biquad_f32_process, 1 frame mono, 2 sections   %7.1f\n", t_proc1);
    printf("  sk_biquad_reset (lookup, near-empty body)         %7.1f\n", t_reset);
    printf("  sk_add_f32, n = 1 (no handle)                     %7.1f\n", t_add);
    printf("  sk_biquad_f32_process, 64 frames stereo           %7.1f\n", t_proc64);

    /* 2. scaling */
    struct worker *ws = aligned_alloc(128, 2 * sizeof(struct worker));
    if (!ws) return 1;
    memset(ws, 0, 2 * sizeof(struct worker));
    for (int t = 0; t < 2; t++) {
        for (int k = 0; k < HANDLES; k++)
            check(sk_biquad_f32_new(SOS, CHANNELS, &ws[t].h[k], SECTIONS), "sk_biquad_f32_new");
        for (int i = 0; i < CHANNELS * FRAMES; i++)
            ws[t].x[i] = (float)(((i + t) * 37 % 101) / 101.0 - 0.5);
    }
    long n_lib = 400000, n_plain = 400000;
    double best[2][2] = {{0, 0}, {0, 0}};        /* calls/s, [lib?][threads-1] */
    double cpu[2][2] = {{1e30, 1e30}, {1e30, 1e30}}; /* CPU ns per call */
    double c;
    init_fifo();
    run(ws, 2, 1, n_lib / 10, &c); /* warm-up */
    for (int r = 0; r < rounds; r++) {
        for (int lib = 1; lib >= 0; lib--) {
            for (int th = 1; th <= 2; th++) {
                double v = run(ws, th, lib, lib ? n_lib : n_plain, &c);
                if (v > best[lib][th - 1]) best[lib][th - 1] = v;
                if (c < cpu[lib][th - 1]) cpu[lib][th - 1] = c;
            }
        }
    }
    printf("calls per second, each thread calling its own %d handles in turn "
           "(64-frame stereo blocks, order 4), best of %d rounds, threads %s:\n", HANDLES, rounds,
           fifo ? "SCHED_FIFO" : "SCHED_OTHER (SCHED_FIFO not permitted)");
    printf("  %-34s %12s %12s %8s   %s\n", "", "1 thread", "2 threads", "2T/1T",
           "CPU ns/call 1T, 2T");
    printf("  %-34s %12.0f %12.0f %7.2fx   %7.1f %7.1f\n", "sk_biquad_f32_process", best[1][0],
           best[1][1], best[1][1] / best[1][0], cpu[1][0], cpu[1][1]);
    printf("  %-34s %12.0f %12.0f %7.2fx   %7.1f %7.1f\n", "plain C loop (ceiling)", best[0][0],
           best[0][1], best[0][1] / best[0][0], cpu[0][0], cpu[0][1]);
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < HANDLES; k++) check(sk_biquad_free(ws[t].h[k]), "sk_biquad_free");
    free(ws);
    free(buf);
    return 0;
}
