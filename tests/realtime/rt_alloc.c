/* The real-time guarantee of sigkern's streaming calls, checked.
 *
 * For every streaming handle kind (biquad, FIR in direct and FFT form, lfilter, resampler with
 * ratio ramps and flushes, envelope, compressor with sidechain, gate, limiter, loudness meter
 * with true peak, STFT stream, online Kaldi fbank, sliding-window CMN stream, YIN stream, time-stretch stream) and the stateful streaming functions (gain ramp, dither), in one
 * and two channels, planar and interleaved where offered, and blocks of 1, 64, 512 and
 * RT_MAX_BLOCK frames: a child process creates the handle, reserves it for RT_MAX_BLOCK frames
 * (which also keeps its calls on the calling thread), runs 50 warm-up calls, then
 *
 *   - installs a seccomp filter under which any system call but exit_group raises SIGSYS (its
 *     handler records the call's number and exits), and
 *   - counts every malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign,
 *     valloc and pvalloc (tests/realtime/alloc_count.c, linked into this program),
 *
 * over thousands of steady-state calls. The parent fails the test on any allocation, any system
 * call (a worker thread woken, a contended lock, a page mapped) or any call that does not return
 * SK_OK. The count itself is checked first: a deliberate malloc in the window must be seen. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc_count.h"
#include "sigkern.h"

#define RT_MAX_BLOCK 2048
#define WARMUP 50

/* What a child leaves for the parent (shared memory). */
typedef struct {
    uint64_t allocs;
    long syscall_nr;
    int status;
    int line;
    int seccomp;
} Report;

static Report *g_report;

static void on_sigsys(int sig, siginfo_t *info, void *ctx) {
    (void)sig;
    (void)ctx;
    g_report->syscall_nr = info->si_syscall;
    syscall(SYS_exit_group, 3);
}

/* Starts the measured window: from here on, any system call but exit_group is fatal and every
 * allocation is counted. */
static void window_begin_with(int seccomp) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, NULL);
    struct sock_filter prog[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    };
    struct sock_fprog fp = {(unsigned short)(sizeof prog / sizeof prog[0]), prog};
    g_report->seccomp = seccomp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) == 0;
    rt_counter = &g_report->allocs;
    rt_count_on = 1;
}

static void window_begin(void) { window_begin_with(1); }

/* Ends the window and the child (nothing after it may make a system call but exit_group). */
static void window_end(void) {
    rt_count_on = 0;
    syscall(SYS_exit_group, 0);
}

#define CHECK(call)                                                                              \
    do {                                                                                         \
        int32_t st_ = (call);                                                                    \
        if (st_ != SK_OK) {                                                                      \
            g_report->status = st_;                                                              \
            g_report->line = __LINE__;                                                           \
            syscall(SYS_exit_group, 4);                                                          \
        }                                                                                        \
    } while (0)

/* One case: a handle kind, channel count, layout (0 planar, 1 interleaved) and block size. */
typedef struct {
    const char *kind;
    size_t ch;
    int inter;
    size_t block;
} Case;

static float xf[2 * RT_MAX_BLOCK], yf[2 * 4 * RT_MAX_BLOCK + 4096], kf[2 * RT_MAX_BLOCK];
static double xd[2 * RT_MAX_BLOCK], yd[2 * 4 * RT_MAX_BLOCK + 4096];
static int16_t y16[2 * RT_MAX_BLOCK];

static void fill(void) {
    uint32_t s = 12345;
    for (size_t i = 0; i < 2 * RT_MAX_BLOCK; i++) {
        s = s * 1664525u + 1013904223u;
        double v = ((double)(s >> 8) / 16777216.0 - 0.5) * 1.6;
        xf[i] = (float)v;
        xd[i] = v;
        kf[i] = (float)(0.5 * v);
    }
}

static size_t calls_for(size_t block) { return block >= 1024 ? 400 : 2000; }

/* Runs one case in the current (child) process. */
static void run_case(const Case *c) {
    const size_t ch = c->ch, n = c->block, calls = calls_for(n);
    const ptrdiff_t stride = (ptrdiff_t)RT_MAX_BLOCK;
    const char *k = c->kind;
    if (!strcmp(k, "alloc-probe")) {
        /* the interposer's self-test: one malloc in the window must be counted (without the
         * filter: glibc's malloc may itself need a system call to grow the heap) */
        window_begin_with(0);
        void *volatile p = malloc(16);
        (void)p;
        window_end();
    } else if (!strcmp(k, "biquad")) {
        const double sos[12] = {0.2, 0.4, 0.2, 1, -0.5, 0.3, 1, -1.2, 1, 1, -0.9, 0.6};
        SkBiquad *h;
        CHECK(sk_biquad_f32_new(sos, ch, &h, 2));
        CHECK(sk_biquad_reserve(h, RT_MAX_BLOCK));
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            if (c->inter) CHECK(sk_biquad_f32_process_interleaved(h, xf, yf, n));
            else CHECK(sk_biquad_f32_process(h, xf, stride, yf, stride, n));
        }
        window_end();
    } else if (!strcmp(k, "fir-direct") || !strcmp(k, "fir-fft")) {
        size_t taps = !strcmp(k, "fir-fft") ? 1025 : 31;
        SkFir *h;
        CHECK(sk_fir_f32_new(kf, &h, taps));
        CHECK(sk_fir_reserve(h, RT_MAX_BLOCK));
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_fir_f32_process(h, xf, yf, n));
        }
        window_end();
    } else if (!strcmp(k, "lfilter")) {
        const double b[4] = {0.1, 0.3, 0.3, 0.1}, a[4] = {1, -0.6, 0.3, -0.05};
        SkLfilter *h;
        CHECK(sk_lfilter_f64_new(b, a, ch, &h, 4, 4));
        CHECK(sk_lfilter_reserve(h, RT_MAX_BLOCK));
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_lfilter_f64_process(h, xd, stride, yd, stride, n));
        }
        window_end();
    } else if (!strcmp(k, "gain-ramp")) {
        /* interleaved frames: one ramp position per sample */
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_gain_ramp_f32(xf, 0.f, 1.f, i * n * ch, (WARMUP + calls) * n * ch, yf,
                                   n * ch));
        }
        window_end();
    } else if (!strcmp(k, "dither")) {
        SkDither d;
        CHECK(sk_dither_init(&d, 7, ch, 1));
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_pcm_to_i16_dither_f32(xf, y16, n * ch, &d));
        }
        window_end();
    } else if (!strncmp(k, "resampler", 9)) {
        /* float HIGH, double HIGH, and float VERY_HIGH (computed in double inside) */
        int wide = !strcmp(k, "resampler-f64");
        SkResampler *h;
        if (wide) CHECK(sk_resampler_f64_new(48000, 44100, ch, SK_RESAMPLE_HIGH, &h));
        else if (!strcmp(k, "resampler-vhq"))
            CHECK(sk_resampler_f32_new(48000, 44100, ch, SK_RESAMPLE_VERY_HIGH, &h));
        else CHECK(sk_resampler_f32_new(48000, 44100, ch, SK_RESAMPLE_HIGH, &h));
        CHECK(sk_resampler_reserve(h, RT_MAX_BLOCK));
        size_t cap = 2 * RT_MAX_BLOCK, consumed, produced;
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            if (i % 97 == 20) {
                /* a ratio ramp away from the exact ratio and back */
                double r = (i / 97) % 2 ? 44100.0 / 48000.0 : 44100.0 / 48000.0 * 1.01;
                CHECK(sk_resampler_set_ratio(h, r, 300));
            }
            {
                /* the size queries a callback sizes its buffers with */
                size_t need;
                CHECK(sk_resampler_output_size(h, &need, n));
                if (need > cap) CHECK(SK_ERR_BUFFER_TOO_SMALL);
            }
            if (i % 331 == 300) {
                size_t fl;
                CHECK(sk_resampler_flush_size(h, &fl));
                if (fl > cap) CHECK(SK_ERR_BUFFER_TOO_SMALL);
                if (wide) {
                    if (c->inter) CHECK(sk_resampler_f64_flush_interleaved(h, yd, &produced, cap));
                    else CHECK(sk_resampler_f64_flush(h, yd, (ptrdiff_t)cap, &produced, cap));
                } else {
                    if (c->inter) CHECK(sk_resampler_f32_flush_interleaved(h, yf, &produced, cap));
                    else CHECK(sk_resampler_f32_flush(h, yf, (ptrdiff_t)cap, &produced, cap));
                }
            }
            if (wide) {
                if (c->inter)
                    CHECK(sk_resampler_f64_process_interleaved(h, xd, yd, &consumed, &produced, n,
                                                               cap));
                else
                    CHECK(sk_resampler_f64_process(h, xd, stride, yd, (ptrdiff_t)cap, &consumed,
                                                   &produced, n, cap));
            } else {
                if (c->inter)
                    CHECK(sk_resampler_f32_process_interleaved(h, xf, yf, &consumed, &produced, n,
                                                               cap));
                else
                    CHECK(sk_resampler_f32_process(h, xf, stride, yf, (ptrdiff_t)cap, &consumed,
                                                   &produced, n, cap));
            }
            if (consumed != n) CHECK(SK_ERR_INTERNAL);
        }
        window_end();
    } else if (!strcmp(k, "envelope") || !strcmp(k, "compressor") || !strcmp(k, "gate") ||
               !strcmp(k, "limiter")) {
        SkDynamics *h;
        const float *key = NULL;
        if (!strcmp(k, "envelope")) CHECK(sk_envelope_new(48000, 5, 50, 1, 0, &h, ch));
        else if (!strcmp(k, "compressor")) {
            CHECK(sk_compressor_new(48000, -20, 4, 6, 5, 50, 2, 1, 0, &h, ch));
            key = kf;
        } else if (!strcmp(k, "gate")) CHECK(sk_gate_new(48000, -30, 4, 1, 50, 10, 0, &h, ch));
        else CHECK(sk_limiter_new(48000, -1, 5, 50, &h, ch));
        CHECK(sk_dynamics_reserve(h, RT_MAX_BLOCK));
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            if (c->inter) CHECK(sk_dynamics_process_interleaved_f32(h, xf, key, yf, n));
            else CHECK(sk_dynamics_process_f32(h, xf, stride, key, stride, yf, stride, n));
        }
        window_end();
    } else if (!strcmp(k, "meter")) {
        SkMeter *h;
        double sp[2], tp[2];
        CHECK(sk_meter_new(NULL, 48000, 1, &h, ch));
        CHECK(sk_meter_reserve(h, RT_MAX_BLOCK));
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            if (c->inter) CHECK(sk_meter_add_interleaved_f32(h, xf, n));
            else CHECK(sk_meter_add_f32(h, xf, stride, n));
            if (i % 50 == 0) CHECK(sk_meter_peaks(h, sp, tp, ch));
        }
        window_end();
    } else if (!strcmp(k, "meter-long")) {
        /* more than the hour a reserved meter keeps exact lists for (at 8 kHz to be quick): the
         * lists fold into histograms inside the window, and the statistics then allocate
         * nothing either */
        SkMeter *h;
        SkLoudnessStats st;
        CHECK(sk_meter_new(NULL, 8000, 0, &h, ch));
        CHECK(sk_meter_reserve(h, RT_MAX_BLOCK));
        size_t long_calls = (size_t)(3700.0 * 8000 / (double)n) + 1;
        for (size_t i = 0; i < WARMUP + long_calls; i++) {
            if (i == WARMUP) window_begin();
            if (c->inter) CHECK(sk_meter_add_interleaved_f32(h, xf, n));
            else CHECK(sk_meter_add_f32(h, xf, stride, n));
        }
        CHECK(sk_meter_stats(h, &st));
        if (!(st.integrated > -70 && st.integrated < 0)) CHECK(SK_ERR_INTERNAL);
        window_end();
    } else if (!strcmp(k, "stft")) {
        enum { NFFT = 512, HOP = 128 };
        static float win[NFFT];
        for (size_t i = 0; i < NFFT; i++) win[i] = (float)(0.5 - 0.5 * cos(2 * M_PI * i / NFFT));
        SkStftStream *h;
        CHECK(sk_stft_stream_f32_new(win, NFFT, HOP, NFFT, 1, 0, 1, 0, &h));
        CHECK(sk_stft_stream_reserve(h, RT_MAX_BLOCK));
        size_t y_len = sizeof yf / sizeof yf[0], frames;
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            size_t need;
            CHECK(sk_stft_stream_push_frames(h, &need, n));
            CHECK(sk_stft_stream_f32_push(h, xf, yf, y_len, &frames, n));
            if (frames != need) CHECK(SK_ERR_INTERNAL);
            if (i % 500 == 499) {
                CHECK(sk_stft_stream_finish_frames(h, &need));
                CHECK(sk_stft_stream_f32_finish(h, yf, y_len, &frames));
                if (frames != need) CHECK(SK_ERR_INTERNAL);
                CHECK(sk_stft_stream_reset(h));
            }
        }
        window_end();
    } else if (!strcmp(k, "stretch")) {
        /* streaming time-stretch: the rate changed every 100 calls, a flush every 500 */
        enum { NFFT = 512, HOP = 128 };
        static double win[NFFT];
        for (size_t i = 0; i < NFFT; i++) win[i] = 0.5 - 0.5 * cos(2 * M_PI * i / NFFT);
        SkStretchStream *s;
        CHECK(sk_stretch_stream_new(win, NFFT, HOP, NFFT, 1, 0, 1.25, 0.8, 1.25, RT_MAX_BLOCK, &s));
        size_t y_len = sizeof yf / sizeof yf[0], max_out, got, total = 0;
        CHECK(sk_stretch_stream_max_out(s, &max_out));
        if (max_out > y_len) CHECK(SK_ERR_INTERNAL);
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            if (i % 100 == 99) CHECK(sk_stretch_stream_set_rate(s, (i / 100) % 2 ? 1.25 : 0.8));
            CHECK(sk_stretch_stream_process_f32(s, xf, n, yf, y_len, &got));
            total += got;
            if (i % 500 == 499) {
                CHECK(sk_stretch_stream_flush_f32(s, yf, y_len, &got));
                total += got;
            }
        }
        if (total == 0) CHECK(SK_ERR_INTERNAL);
        window_end();
    } else if (!strcmp(k, "kaldi-online")) {
        /* online fbank, snip_edges off and dither on (the most work per frame); a finish and a
         * reset every 500 calls */
        SkKaldiOptions o;
        CHECK(sk_kaldi_options_init(&o));
        o.num_mel_bins = 80;
        o.snip_edges = 0;
        o.dither = 1.0;
        SkKaldiOnline *s;
        CHECK(sk_kaldi_online_f32_new(SK_KALDI_FBANK, &o, &s));
        size_t y_len = sizeof yf / sizeof yf[0], frames, need;
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_kaldi_online_accept_frames(s, &need, n));
            CHECK(sk_kaldi_online_f32_accept(s, xf, n, yf, y_len, &frames));
            if (frames != need) CHECK(SK_ERR_INTERNAL);
            if (i % 500 == 499) {
                CHECK(sk_kaldi_online_finish_frames(s, &need));
                CHECK(sk_kaldi_online_f32_finish(s, yf, y_len, &frames));
                if (frames != need) CHECK(SK_ERR_INTERNAL);
                CHECK(sk_kaldi_online_reset(s));
            }
        }
        window_end();
    } else if (!strcmp(k, "sliding-cmn")) {
        /* sliding-window CMN stream of doubles, centred with variance normalisation (a block of
         * n frames of 2 values); a finish and a reset every 500 calls */
        SkSlidingCmnStream *s;
        CHECK(sk_sliding_cmn_stream_f64_new(2, 100, 10, 1, 1, &s));
        size_t y_len = sizeof yd / sizeof yd[0], frames, need;
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_sliding_cmn_stream_push_frames(s, &need, n));
            CHECK(sk_sliding_cmn_stream_f64_push(s, xd, n, yd, y_len, &frames));
            if (frames != need) CHECK(SK_ERR_INTERNAL);
            if (i % 500 == 499) {
                CHECK(sk_sliding_cmn_stream_finish_frames(s, &need));
                CHECK(sk_sliding_cmn_stream_f64_finish(s, yd, y_len, &frames));
                if (frames != need) CHECK(SK_ERR_INTERNAL);
                CHECK(sk_sliding_cmn_stream_reset(s));
            }
        }
        window_end();
    } else if (!strcmp(k, "yin-stream")) {
        /* centred with reflection (the start's reflection and the end's), a finish and a reset
         * every 500 calls */
        SkYinStream *s;
        CHECK(sk_yin_stream_f32_new(22050, 65, 1000, 1024, 256, 0.1, 1, SK_PAD_REFLECT, &s));
        size_t y_len = sizeof yf / sizeof yf[0], frames, need;
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            CHECK(sk_yin_stream_push_frames(s, &need, n));
            CHECK(sk_yin_stream_f32_push(s, xf, n, yf, y_len, &frames));
            if (frames != need) CHECK(SK_ERR_INTERNAL);
            if (i % 500 == 499) {
                CHECK(sk_yin_stream_finish_frames(s, &need));
                CHECK(sk_yin_stream_f32_finish(s, yf, y_len, &frames));
                if (frames != need) CHECK(SK_ERR_INTERNAL);
                CHECK(sk_yin_stream_reset(s));
            }
        }
        window_end();
    } else if (!strcmp(k, "size-queries")) {
        /* the size queries a callback may size its buffers with: their error text is built
         * only when they fail, so a successful call allocates nothing */
        SkMelPlan *mel;
        CHECK(sk_mel_plan_f32_new(16000, 400, 160, 400, SK_WINDOW_HANN, 0, 1, SK_PAD_REFLECT, 2,
                                  80, 0, 8000, 0, 1, &mel));
        size_t sum = 0;
        for (size_t i = 0; i < WARMUP + calls; i++) {
            if (i == WARMUP) window_begin();
            size_t m = n + i % 7, v;
            CHECK(sk_convolve_len(SK_CONV_SAME, &v, m, 31));
            sum += v;
            CHECK(sk_mel_frames(mel, &v, m + 400));
            sum += v;
            CHECK(sk_stft_frames(512, 128, 512, 1, SK_PAD_REFLECT, &v, m + 512));
            sum += v;
            CHECK(sk_istft_len(512, 128, 512, 1, m, &v));
            sum += v;
            CHECK(sk_resample_size(48000, 44100, &v, m));
            sum += v;
            CHECK(sk_upfirdn_size(3, 2, &v, 31, m));
            sum += v;
            CHECK(sk_resample_poly_size(3, 2, &v, m));
            sum += v;
        }
        if (sum == 0) CHECK(SK_ERR_INTERNAL);
        window_end();
    } else {
        fprintf(stderr, "unknown case %s\n", k);
        _exit(2);
    }
}

int main(void) {
    fill();
    g_report = mmap(NULL, sizeof(Report), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                    -1, 0);
    if (g_report == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    static const char *kinds[] = {"biquad",   "fir-direct", "fir-fft", "lfilter",  "gain-ramp",
                                  "dither",   "resampler",  "resampler-f64", "resampler-vhq", "envelope",
                                  "compressor", "gate",     "limiter", "meter",    "stft",
                                  "kaldi-online", "sliding-cmn", "stretch", "yin-stream",
                                  "size-queries"};
    /* kinds with one channel only, or without an interleaved form */
    static const char *mono_only[] = {"fir-direct", "fir-fft", "stft", "kaldi-online",
                                      "sliding-cmn", "stretch", "yin-stream", "size-queries"};
    static const char *planar_only[] = {"fir-direct", "fir-fft", "lfilter", "gain-ramp", "dither",
                                        "stft",       "kaldi-online", "sliding-cmn",
                                        "stretch", "yin-stream", "size-queries"};
    const size_t blocks[] = {1, 64, 512, RT_MAX_BLOCK};
    int failures = 0, cases = 0, seccomp_ok = 1;
    const Case extra[] = {{"meter-long", 1, 0, RT_MAX_BLOCK}, {"meter-long", 2, 1, RT_MAX_BLOCK}};

    /* the probe: the counter must see an allocation in the window */
    Case probe = {"alloc-probe", 1, 0, 1};
    Case all[512];
    int n_all = 0;
    all[n_all++] = probe;
    for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
        int mono = 0, planar = 0;
        for (size_t j = 0; j < sizeof mono_only / sizeof mono_only[0]; j++)
            mono |= !strcmp(kinds[ki], mono_only[j]);
        for (size_t j = 0; j < sizeof planar_only / sizeof planar_only[0]; j++)
            planar |= !strcmp(kinds[ki], planar_only[j]);
        for (size_t ch = 1; ch <= (mono ? 1u : 2u); ch++)
            for (int inter = 0; inter <= (planar ? 0 : 1); inter++)
                for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
                    all[n_all++] = (Case){kinds[ki], ch, inter, blocks[b]};
    }

    for (size_t j = 0; j < sizeof extra / sizeof extra[0]; j++) all[n_all++] = extra[j];
    for (int i = 0; i < n_all; i++) {
        const Case *c = &all[i];
        memset(g_report, 0, sizeof *g_report);
        g_report->syscall_nr = -1;
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            run_case(c);
            _exit(5); /* not reached: every case ends in window_end */
        }
        int ws;
        if (waitpid(pid, &ws, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
        char what[160] = "";
        int ok;
        if (i == 0) {
            ok = code == 0 && g_report->allocs == 1;
            snprintf(what, sizeof what, "the interposer counted %llu allocations of 1",
                     (unsigned long long)g_report->allocs);
        } else if (code == 3) {
            ok = 0;
            snprintf(what, sizeof what, "system call %ld in the window", g_report->syscall_nr);
        } else if (code == 4) {
            ok = 0;
            snprintf(what, sizeof what, "a call returned %d (rt_alloc.c line %d): %s",
                     g_report->status, g_report->line, sk_status_name(g_report->status));
        } else if (code != 0) {
            ok = 0;
            snprintf(what, sizeof what, "the child ended with %d", code);
        } else {
            ok = g_report->allocs == 0;
            snprintf(what, sizeof what, "%llu allocation calls in the window",
                     (unsigned long long)g_report->allocs);
        }
        if (i > 0) seccomp_ok &= g_report->seccomp;
        cases++;
        if (!ok) failures++;
        if (!ok || getenv("RT_VERBOSE"))
            printf("%-4s %-14s ch=%zu %-11s block=%-5zu %s\n", ok ? "ok" : "FAIL", c->kind, c->ch,
                   c->inter ? "interleaved" : "planar", c->block, what);
    }
    if (!seccomp_ok)
        printf("note: seccomp was not available, so system calls were not checked\n");
    printf("rt_alloc: %d of %d cases real-time safe (no allocation%s in the window)\n",
           cases - failures, cases, seccomp_ok ? ", no system call" : "");
    return failures ? 1 : 0;
}
