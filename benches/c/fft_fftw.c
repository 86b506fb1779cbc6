/* sigkern's real FFT (sk_rfft_f32/f64, sk_irfft_f32/f64) against FFTW's r2c and c2r with
 * FFTW_MEASURE plans, from C.
 *
 * Same buffers for both libraries (FFTW plans made with FFTW_MEASURE on scratch copies, then
 * run on the shared buffers through fftw_execute_dft_r2c / _c2r, which take any buffers of the
 * plan's alignment), same process, alternating runs: each round times a block of sigkern calls
 * then a block of FFTW calls, and the best block per library over all rounds is reported
 * (best-of filters the noise of a shared machine; alternating keeps both under the same load).
 * The result of each library is checked against the other before timing.
 *
 * The inverse rows compare like with like: sigkern's irfft leaves its input untouched and is
 * called unnormalised (SK_NORM_FORWARD: no 1/n on the inverse), FFTW's c2r is planned with
 * FFTW_PRESERVE_INPUT (its default for c2r may overwrite the input).
 *
 *   build/c/fft_fftw [n ...]      (default: every power of two 64..65536)
 *
 * Prints two rows per (precision, n), forward (rfft) and inverse (irfft): µs per transform for
 * each library and sigkern's speed as a multiple of FFTW's (> 1 = sigkern faster). A
 * benchmark, not a test: the exit status is 0 unless a call fails or the results disagree.
 */
#define _POSIX_C_SOURCE 199309L
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sigkern.h"

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* calls per timed block: about 2 ms of work at ~1 ns per point per log2 step */
static int reps_for(size_t n) {
    double work = (double)n * log2((double)n);
    int r = (int)(2e6 / (work > 1 ? work : 1));
    return r < 4 ? 4 : r;
}

#define ROUNDS 15

#define BENCH(T, FT, SUFFIX, NEW, RFFT, IRFFT, PLAN_T, PLANR2C, PLANC2R, EXEC, EXECI, DESTROY, MALLOC, FREE, TOL) \
    static int bench_##SUFFIX(size_t n) {                                                           \
        size_t h = n / 2 + 1;                                                                       \
        T *x = MALLOC(sizeof(T) * n), *tmp = MALLOC(sizeof(T) * n);                                 \
        FT *yf = MALLOC(sizeof(FT) * h), *tmpo = MALLOC(sizeof(FT) * h);                            \
        T *ys = MALLOC(sizeof(T) * 2 * h);                                                          \
        T *bs = MALLOC(sizeof(T) * n), *bf = MALLOC(sizeof(T) * n);                                 \
        if (!x || !tmp || !yf || !tmpo || !ys || !bs || !bf) return 1;                              \
        /* FFTW_MEASURE overwrites its buffers while planning: plan on scratch copies */            \
        PLAN_T p = PLANR2C((int)n, tmp, tmpo, FFTW_MEASURE);                                        \
        PLAN_T pi = PLANC2R((int)n, tmpo, tmp, FFTW_MEASURE | FFTW_PRESERVE_INPUT);                 \
        srand(1);                                                                                   \
        for (size_t i = 0; i < n; i++) x[i] = (T)(rand() / (double)RAND_MAX - 0.5);                 \
        struct SkFftPlan *sp = NULL;                                                                \
        if (NEW(SK_FFT_REAL, n, &sp) != SK_OK) return 1;                                            \
        if (RFFT(sp, x, 0, ys, n) != SK_OK) return 1;                                               \
        if (!p || !pi) return 1;                                                                    \
        EXEC(p, x, yf);                                                                             \
        double err = 0, mag = 0;                                                                    \
        for (size_t k = 0; k < h; k++) {                                                            \
            double dr = ys[2 * k] - yf[k][0], di = ys[2 * k + 1] - yf[k][1];                        \
            double e = sqrt(dr * dr + di * di), m = sqrt(yf[k][0] * yf[k][0] + yf[k][1] * yf[k][1]);\
            if (e > err) err = e;                                                                   \
            if (m > mag) mag = m;                                                                   \
        }                                                                                           \
        if (err > TOL * mag) {                                                                      \
            fprintf(stderr, "n=%zu: sigkern and FFTW differ by %g (peak %g)\n", n, err, mag);       \
            return 1;                                                                               \
        }                                                                                           \
        /* inverse of the same spectrum (sigkern's interleaved bins are FFTW's complex array) */    \
        if (IRFFT(sp, ys, SK_NORM_FORWARD, bs, n) != SK_OK) return 1;                               \
        EXECI(pi, (FT *)ys, bf);                                                                    \
        err = 0, mag = 0;                                                                           \
        for (size_t i = 0; i < n; i++) {                                                            \
            double e = fabs((double)bs[i] - bf[i]), m = fabs((double)bf[i]);                        \
            if (e > err) err = e;                                                                   \
            if (m > mag) mag = m;                                                                   \
        }                                                                                           \
        if (err > TOL * mag) {                                                                      \
            fprintf(stderr, "n=%zu: inverse: sigkern and FFTW differ by %g (peak %g)\n", n, err,   \
                    mag);                                                                           \
            return 1;                                                                               \
        }                                                                                           \
        int reps = reps_for(n);                                                                     \
        double best_sk = 1e300, best_fw = 1e300, best_ski = 1e300, best_fwi = 1e300;                \
        for (int r = 0; r < ROUNDS; r++) {                                                          \
            double t0 = now_us();                                                                   \
            for (int i = 0; i < reps; i++) RFFT(sp, x, 0, ys, n);                                   \
            double t1 = now_us();                                                                   \
            for (int i = 0; i < reps; i++) EXEC(p, x, yf);                                          \
            double t2 = now_us();                                                                   \
            for (int i = 0; i < reps; i++) IRFFT(sp, ys, SK_NORM_FORWARD, bs, n);                   \
            double t3 = now_us();                                                                   \
            for (int i = 0; i < reps; i++) EXECI(pi, (FT *)ys, bf);                                 \
            double t4 = now_us();                                                                   \
            if ((t1 - t0) / reps < best_sk) best_sk = (t1 - t0) / reps;                             \
            if ((t2 - t1) / reps < best_fw) best_fw = (t2 - t1) / reps;                             \
            if ((t3 - t2) / reps < best_ski) best_ski = (t3 - t2) / reps;                           \
            if ((t4 - t3) / reps < best_fwi) best_fwi = (t4 - t3) / reps;                           \
        }                                                                                           \
        printf("rfft  %-3s n=%-6zu  sigkern %9.3f us  FFTW_MEASURE %9.3f us  ratio %5.2fx\n",      \
               #SUFFIX, n, best_sk, best_fw, best_fw / best_sk);                                    \
        printf("irfft %-3s n=%-6zu  sigkern %9.3f us  FFTW_MEASURE %9.3f us  ratio %5.2fx\n",      \
               #SUFFIX, n, best_ski, best_fwi, best_fwi / best_ski);                                \
        sk_fft_plan_free(sp);                                                                       \
        DESTROY(p);                                                                                 \
        DESTROY(pi);                                                                                \
        FREE(x); FREE(tmp); FREE(yf); FREE(tmpo); FREE(ys); FREE(bs); FREE(bf);                     \
        return 0;                                                                                   \
    }

BENCH(float, fftwf_complex, f32, sk_fft_plan_f32_new, sk_rfft_f32, sk_irfft_f32, fftwf_plan,
      fftwf_plan_dft_r2c_1d, fftwf_plan_dft_c2r_1d, fftwf_execute_dft_r2c, fftwf_execute_dft_c2r,
      fftwf_destroy_plan, fftwf_malloc, fftwf_free, 1e-5)
BENCH(double, fftw_complex, f64, sk_fft_plan_f64_new, sk_rfft_f64, sk_irfft_f64, fftw_plan,
      fftw_plan_dft_r2c_1d, fftw_plan_dft_c2r_1d, fftw_execute_dft_r2c, fftw_execute_dft_c2r,
      fftw_destroy_plan, fftw_malloc, fftw_free, 1e-12)

int main(int argc, char **argv) {
    size_t sizes[64];
    int count = 0;
    if (argc > 1) {
        for (int i = 1; i < argc && count < 64; i++) sizes[count++] = (size_t)strtoull(argv[i], NULL, 10);
    } else {
        for (size_t n = 64; n <= 65536; n *= 2) sizes[count++] = n;
    }
    printf("sigkern rfft/irfft vs FFTW r2c/c2r (FFTW_MEASURE), best of %d alternating blocks, us per transform\n",
           ROUNDS);
    for (int i = 0; i < count; i++)
        if (sizes[i] < 1 || bench_f32(sizes[i]) || bench_f64(sizes[i])) return 1;
    return 0;
}
