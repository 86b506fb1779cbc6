/*
 * kaldi_online.c: streaming Kaldi fbank from C (run by `make c-test` at every SIMD level and
 * under valgrind). A WAV-length buffer (20 s at 16 kHz, a chirp with noise) goes through an
 * online fbank stream in 10 ms chunks, as a capture callback would deliver it, and then in
 * chunks of odd sizes; the frames must equal one offline sk_kaldi_f32 call on the whole buffer
 * bit for bit, dither included. Also: the frame counts announced before each accept, the finish,
 * and the errors (accept after the finish, a too-small output). Exits 1 if anything is off.
 */
#include "sigkern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_passed, g_failed;

static void check(int ok, const char *what) {
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        char msg[256];
        sk_last_error_message(msg, sizeof msg);
        printf("  FAIL: %s (last error: %s)\n", what, msg);
    }
}

#define RATE 16000
#define SECONDS 20
#define N (RATE * SECONDS)
#define BINS 80
#define PI 3.14159265358979323846

/* Streams x through a new stream in chunks of the given sizes (cycled); returns the frames. */
static size_t stream(const SkKaldiOptions *o, const float *x, const size_t *chunks, size_t nc,
                     float *feats, size_t cap) {
    SkKaldiOnline *s = NULL;
    check(sk_kaldi_online_f32_new(SK_KALDI_FBANK, o, &s) == SK_OK, "stream created");
    size_t dim = 0;
    check(sk_kaldi_online_info(s, &dim, NULL, NULL, NULL) == SK_OK && dim == BINS, "dim");
    size_t at = 0, total = 0, c = 0;
    int counts_ok = 1;
    while (at < N) {
        size_t n = chunks[c++ % nc];
        if (n > N - at) n = N - at;
        size_t announced = 0, got = 0;
        sk_kaldi_online_accept_frames(s, &announced, n);
        if (sk_kaldi_online_f32_accept(s, x + at, n, feats + total * dim, cap - total * dim,
                                       &got) != SK_OK)
            counts_ok = 0;
        counts_ok &= got == announced;
        total += got;
        at += n;
    }
    check(counts_ok, "every accept returned the frames announced");
    size_t last = 0, got = 0;
    check(sk_kaldi_online_finish_frames(s, &last) == SK_OK, "finish count");
    check(sk_kaldi_online_f32_finish(s, feats + total * dim, cap - total * dim, &got) == SK_OK &&
              got == last,
          "finish");
    total += got;
    check(sk_kaldi_online_f32_accept(s, x, 160, feats, cap, &got) == SK_ERR_BAD_ARGUMENT,
          "accept after the finish is refused");
    check(sk_kaldi_online_reset(s) == SK_OK, "reset");
    float small[BINS];
    check(sk_kaldi_online_f32_accept(s, x, 4000, small, BINS, &got) == SK_ERR_BUFFER_TOO_SMALL,
          "too small an output is refused");
    check(sk_kaldi_online_free(s) == SK_OK, "freed");
    return total;
}

int main(void) {
    float *x = malloc(N * sizeof *x);
    size_t cap = (N / 160 + 2) * BINS;
    float *offline = malloc(cap * sizeof *offline), *online = malloc(cap * sizeof *online);
    if (!x || !offline || !online) return 1;
    uint32_t r = 1;
    for (size_t i = 0; i < N; i++) {
        double t = (double)i / RATE;
        r = r * 1664525u + 1013904223u;
        x[i] = (float)(0.3 * sin(2 * PI * (200 + 150 * t) * t) +
                       0.01 * ((double)(r >> 8) / 16777216.0 - 0.5));
    }
    int ok_all = 1;
    for (int snip = 1; snip >= 0; snip--) {
        SkKaldiOptions o;
        sk_kaldi_options_init(&o);
        o.num_mel_bins = BINS;
        o.snip_edges = snip;
        o.dither = 1.0;
        o.seed = 42;
        size_t frames = 0, dim = 0;
        check(sk_kaldi_shape(SK_KALDI_FBANK, &o, &frames, &dim, N) == SK_OK, "offline shape");
        check(sk_kaldi_f32(SK_KALDI_FBANK, &o, x, 0, 1, offline, cap, N) == SK_OK, "offline");
        const size_t tenms[] = {160}, odd[] = {1, 999, 37, 4096, 3};
        size_t a = stream(&o, x, tenms, 1, online, cap);
        int same = a == frames && memcmp(online, offline, frames * dim * sizeof(float)) == 0;
        check(same, "10 ms chunks == offline, bit for bit");
        size_t b = stream(&o, x, odd, 5, online, cap);
        int same2 = b == frames && memcmp(online, offline, frames * dim * sizeof(float)) == 0;
        check(same2, "odd chunks == offline, bit for bit");
        ok_all &= same && same2;
        printf("snip_edges=%d: %zu frames of %zu values streamed in 10 ms chunks: %s\n", snip,
               a, dim, same && same2 ? "identical to the offline call" : "DIFFERENT");
    }
    free(x);
    free(offline);
    free(online);
    printf("kaldi_online: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed || !ok_all ? 1 : 0;
}
