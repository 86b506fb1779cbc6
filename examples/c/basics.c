/*
 * basics.c: every basic sigkern kernel (copy, fill, add, sub, mul, div, scale, axpy, clip, abs,
 * sum, mean, min, max, peak, rms, dot; f32 and f64) run on one second of a synthetic 48 kHz
 * signal, each result checked against a plain C double-precision reference.
 *
 * Tolerances (u = FLT_EPSILON or DBL_EPSILON of the type under test, n elements):
 *   copy, fill, abs, clip, min, max, peak      exact (they only move or select values)
 *   add, sub, mul, div, scale                  exact: each is one IEEE operation, so the result
 *                                              must equal the correctly rounded reference
 *   axpy (y += a*x, multiply then add)         |err| <= u * (|a*x| + |result|)  per element
 *   sum f32, dot f32                           |err| <= 14 u * sum|x|  (15 u * sum|a*b|)
 *   sum f64, dot f64                           |err| <= (15 + log2(n/512)) u * sum|x|  (+1 u
 *                                              for dot's rounded products)
 *   mean                                       the sum's bound / n, plus u * |mean|
 *   rms f32                                    |err| <= u * rms  (squares summed in double)
 *   rms f64                                    |err| <= ((15 + log2(n/512)) / 2 + 2) u * rms
 * These are the bounds the header documents. The references for sums and dots are compensated
 * (Neumaier / Dot2) sums in double, accurate far beyond every bound above.
 *
 * Each kernel runs twice: on the whole buffer, and on a sub-buffer that starts one element in
 * and has an odd length (unaligned start, SIMD tail). Exits 1 if any check fails.
 */
#include "sigkern.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000
#define PI 3.14159265358979323846

static int g_checks;
static int g_failed;
static int g_print_all = 1; /* print every row, or only failures */

/* ---------------------------------------------------------------- signal */

/* Numerical Recipes LCG: deterministic noise in [-1, 1). */
static uint32_t g_lcg = 12345u;
static double lcg_noise(void) {
    g_lcg = g_lcg * 1664525u + 1013904223u;
    return (double)(g_lcg >> 8) / 16777216.0 * 2.0 - 1.0;
}

/* x: 440 Hz + 1 kHz tones + noise. env: a slow positive envelope (never near 0, so div is
 * well defined). */
static void make_signal(double *x, double *env, size_t n) {
    for (size_t i = 0; i < n; i++) {
        double t = (double)i / RATE;
        x[i] = 0.5 * sin(2 * PI * 440 * t) + 0.25 * sin(2 * PI * 1000 * t) + 0.05 * lcg_noise();
        env[i] = 0.8 + 0.15 * sin(2 * PI * 3 * t) + 0.01 * lcg_noise();
    }
}

/* ------------------------------------------------------------ references */

/* Neumaier-compensated sum of v[0..n). */
static double ref_sum(const double *v, size_t n) {
    double s = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        double t = s + v[i];
        c += fabs(s) >= fabs(v[i]) ? (s - t) + v[i] : (v[i] - t) + s;
        s = t;
    }
    return s + c;
}

/* Dot2 (Ogita, Rump, Oishi): products split exactly with fma, then a compensated sum. */
static double ref_dot(const double *a, const double *b, size_t n) {
    double s = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        double p = a[i] * b[i];
        double pe = fma(a[i], b[i], -p);
        double t = s + p;
        double z = t - s;
        c += (s - (t - z)) + (p - z) + pe;
        s = t;
    }
    return s + c;
}

static double sum_abs(const double *v, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += fabs(v[i]);
    return s * (1 + 2 * n * DBL_EPSILON); /* an upper bound despite its own rounding */
}

static double log2_blocks(size_t n) { return n > 512 ? log2((double)n / 512) : 0; }

/* ----------------------------------------------------------------- checks */

static void report(const char *kernel, const char *type, size_t n, const char *result,
                   double err, double tol, int ok) {
    g_checks++;
    if (!ok) g_failed++;
    if (g_print_all || !ok)
        printf("  %-6s %-4s %6zu  %-22s %10.3g %10.3g  %s\n", kernel, type, n, result, err, tol,
               ok ? "ok" : "FAIL");
}

static int expect_ok(const char *call, int32_t rc) {
    if (rc == SK_OK) return 1;
    char msg[256];
    sk_last_error_message(msg, sizeof msg);
    printf("  %s returned %s: %s\n", call, sk_status_name(rc), msg);
    g_checks++;
    g_failed++;
    return 0;
}

/* Elementwise f32 result vs reference: exact after rounding to float, or |err| <= bound[i]. */
static void check_vec_f32(const char *kernel, int32_t rc, const float *got, const double *ref,
                          const double *bound, size_t n) {
    if (!expect_ok(kernel, rc)) return;
    double worst = 0, tol = 0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        double err = fabs((double)got[i] - ref[i]);
        double lim = bound ? bound[i] : fabs((double)(float)ref[i] - ref[i]);
        int good = bound ? err <= lim : got[i] == (float)ref[i];
        if (!good) ok = 0;
        if (err > worst) worst = err;
        if (lim > tol) tol = lim;
    }
    char res[32];
    snprintf(res, sizeof res, "y[1] = %.7g", n > 1 ? (double)got[1] : 0.0);
    report(kernel, "f32", n, res, worst, tol, ok);
}

/* Elementwise f64 result vs reference: exact, or |err| <= bound[i]. */
static void check_vec_f64(const char *kernel, int32_t rc, const double *got, const double *ref,
                          const double *bound, size_t n) {
    if (!expect_ok(kernel, rc)) return;
    double worst = 0, tol = 0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        double err = fabs(got[i] - ref[i]);
        double lim = bound ? bound[i] : 0;
        if (bound ? !(err <= lim) : got[i] != ref[i]) ok = 0;
        if (err > worst) worst = err;
        if (lim > tol) tol = lim;
    }
    char res[32];
    snprintf(res, sizeof res, "y[1] = %.15g", n > 1 ? got[1] : 0.0);
    report(kernel, "f64", n, res, worst, tol, ok);
}

static void check_scalar(const char *kernel, const char *type, int32_t rc, double got,
                         double ref, double tol, size_t n) {
    if (!expect_ok(kernel, rc)) return;
    double err = fabs(got - ref);
    char res[32];
    snprintf(res, sizeof res, "%.15g", got);
    report(kernel, type, n, res, err, tol, err <= tol);
}

/* -------------------------------------------------------------- f32 suite */

static void suite_f32(const float *x, const float *env, size_t n) {
    float *y = malloc(n * sizeof *y);
    double *xd = malloc(n * sizeof *xd), *ed = malloc(n * sizeof *ed);
    double *ref = malloc(n * sizeof *ref), *bound = malloc(n * sizeof *bound);
    if (!y || !xd || !ed || !ref || !bound) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++) {
        xd[i] = x[i];
        ed[i] = env[i];
    }
    const float gain = 0.70710678f, alpha = -0.3f, lo = -0.6f, hi = 0.6f;
    float out;

    int32_t rc = sk_copy_f32(x, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = xd[i];
    check_vec_f32("copy", rc, y, ref, NULL, n);

    rc = sk_fill_f32(0.25f, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = 0.25;
    check_vec_f32("fill", rc, y, ref, NULL, n);

    rc = sk_add_f32(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = xd[i] + ed[i];
    check_vec_f32("add", rc, y, ref, NULL, n);

    rc = sk_sub_f32(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = xd[i] - ed[i];
    check_vec_f32("sub", rc, y, ref, NULL, n);

    rc = sk_mul_f32(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = xd[i] * ed[i];
    check_vec_f32("mul", rc, y, ref, NULL, n);

    rc = sk_div_f32(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = xd[i] / ed[i];
    check_vec_f32("div", rc, y, ref, NULL, n);

    rc = sk_scale_f32(x, gain, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = (double)gain * xd[i];
    check_vec_f32("scale", rc, y, ref, NULL, n);

    /* axpy accumulates into y: start from the envelope */
    memcpy(y, env, n * sizeof *y);
    rc = sk_axpy_f32(x, alpha, y, n);
    for (size_t i = 0; i < n; i++) {
        ref[i] = ed[i] + (double)alpha * xd[i];
        bound[i] = FLT_EPSILON * (fabs((double)alpha * xd[i]) + fabs(ref[i]));
    }
    check_vec_f32("axpy", rc, y, ref, bound, n);

    rc = sk_clip_f32(x, lo, hi, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = fmin(fmax(xd[i], lo), hi);
    check_vec_f32("clip", rc, y, ref, NULL, n);

    rc = sk_abs_f32(x, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = fabs(xd[i]);
    check_vec_f32("abs", rc, y, ref, NULL, n);

    /* in place: y == x exactly is allowed for every elementwise kernel */
    memcpy(y, x, n * sizeof *y);
    rc = sk_scale_f32(y, gain, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = (double)gain * xd[i];
    check_vec_f32("scale=", rc, y, ref, NULL, n);

    double sabs = sum_abs(xd, n), s = ref_sum(xd, n);
    rc = sk_sum_f32(x, &out, n);
    check_scalar("sum", "f32", rc, out, s, 14 * FLT_EPSILON * sabs, n);

    rc = sk_mean_f32(x, &out, n);
    check_scalar("mean", "f32", rc, out, s / n,
                 14 * FLT_EPSILON * sabs / n + FLT_EPSILON * fabs(s / n), n);

    double mn = xd[0], mx = xd[0], pk = 0;
    for (size_t i = 0; i < n; i++) {
        mn = fmin(mn, xd[i]);
        mx = fmax(mx, xd[i]);
        pk = fmax(pk, fabs(xd[i]));
    }
    rc = sk_min_f32(x, &out, n);
    check_scalar("min", "f32", rc, out, mn, 0, n);
    rc = sk_max_f32(x, &out, n);
    check_scalar("max", "f32", rc, out, mx, 0, n);
    rc = sk_peak_f32(x, &out, n);
    check_scalar("peak", "f32", rc, out, pk, 0, n);

    double rms = sqrt(ref_dot(xd, xd, n) / n);
    rc = sk_rms_f32(x, &out, n);
    check_scalar("rms", "f32", rc, out, rms, FLT_EPSILON * rms, n);

    for (size_t i = 0; i < n; i++) ref[i] = xd[i] * ed[i]; /* exact: 24 + 24 bits < 53 */
    rc = sk_dot_f32(x, env, &out, n);
    check_scalar("dot", "f32", rc, out, ref_dot(xd, ed, n), 15 * FLT_EPSILON * sum_abs(ref, n),
                 n);

    free(y);
    free(xd);
    free(ed);
    free(ref);
    free(bound);
}

/* -------------------------------------------------------------- f64 suite */

static void suite_f64(const double *x, const double *env, size_t n) {
    double *y = malloc(n * sizeof *y);
    double *ref = malloc(n * sizeof *ref), *bound = malloc(n * sizeof *bound);
    if (!y || !ref || !bound) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    const double gain = 0.7071067811865476, alpha = -0.3, lo = -0.6, hi = 0.6;
    const double growth = 15 + log2_blocks(n);
    double out;

    int32_t rc = sk_copy_f64(x, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = x[i];
    check_vec_f64("copy", rc, y, ref, NULL, n);

    rc = sk_fill_f64(0.25, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = 0.25;
    check_vec_f64("fill", rc, y, ref, NULL, n);

    rc = sk_add_f64(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = x[i] + env[i];
    check_vec_f64("add", rc, y, ref, NULL, n);

    rc = sk_sub_f64(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = x[i] - env[i];
    check_vec_f64("sub", rc, y, ref, NULL, n);

    rc = sk_mul_f64(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = x[i] * env[i];
    check_vec_f64("mul", rc, y, ref, NULL, n);

    rc = sk_div_f64(x, env, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = x[i] / env[i];
    check_vec_f64("div", rc, y, ref, NULL, n);

    rc = sk_scale_f64(x, gain, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = gain * x[i];
    check_vec_f64("scale", rc, y, ref, NULL, n);

    memcpy(y, env, n * sizeof *y);
    rc = sk_axpy_f64(x, alpha, y, n);
    for (size_t i = 0; i < n; i++) {
        ref[i] = env[i] + alpha * x[i];
        bound[i] = DBL_EPSILON * (fabs(alpha * x[i]) + fabs(ref[i]));
    }
    check_vec_f64("axpy", rc, y, ref, bound, n);

    rc = sk_clip_f64(x, lo, hi, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = fmin(fmax(x[i], lo), hi);
    check_vec_f64("clip", rc, y, ref, NULL, n);

    rc = sk_abs_f64(x, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = fabs(x[i]);
    check_vec_f64("abs", rc, y, ref, NULL, n);

    memcpy(y, x, n * sizeof *y);
    rc = sk_scale_f64(y, gain, y, n);
    for (size_t i = 0; i < n; i++) ref[i] = gain * x[i];
    check_vec_f64("scale=", rc, y, ref, NULL, n);

    double sabs = sum_abs(x, n), s = ref_sum(x, n);
    rc = sk_sum_f64(x, &out, n);
    check_scalar("sum", "f64", rc, out, s, growth * DBL_EPSILON * sabs, n);

    rc = sk_mean_f64(x, &out, n);
    check_scalar("mean", "f64", rc, out, s / n,
                 growth * DBL_EPSILON * sabs / n + DBL_EPSILON * fabs(s / n), n);

    double mn = x[0], mx = x[0], pk = 0;
    for (size_t i = 0; i < n; i++) {
        mn = fmin(mn, x[i]);
        mx = fmax(mx, x[i]);
        pk = fmax(pk, fabs(x[i]));
    }
    rc = sk_min_f64(x, &out, n);
    check_scalar("min", "f64", rc, out, mn, 0, n);
    rc = sk_max_f64(x, &out, n);
    check_scalar("max", "f64", rc, out, mx, 0, n);
    rc = sk_peak_f64(x, &out, n);
    check_scalar("peak", "f64", rc, out, pk, 0, n);

    double rms = sqrt(ref_dot(x, x, n) / n);
    rc = sk_rms_f64(x, &out, n);
    check_scalar("rms", "f64", rc, out, rms, (growth / 2 + 2) * DBL_EPSILON * rms, n);

    for (size_t i = 0; i < n; i++) ref[i] = x[i] * env[i];
    rc = sk_dot_f64(x, env, &out, n);
    check_scalar("dot", "f64", rc, out, ref_dot(x, env, n),
                 (growth + 1) * DBL_EPSILON * sum_abs(ref, n), n);

    free(y);
    free(ref);
    free(bound);
}

/* ------------------------------------------------------------------- main */

int main(void) {
    const size_t n = RATE; /* one second */
    printf("sigkern %s, SIMD level %s\n", sk_version(), sk_simd_level());
    printf("signal: %zu samples (1 s at %d Hz): 0.5 sin 440 Hz + 0.25 sin 1 kHz + 0.05 noise;\n"
           "second operand: envelope 0.8 + 0.15 sin 3 Hz + 0.01 noise\n\n",
           n, RATE);

    double *xd = malloc(n * sizeof *xd), *ed = malloc(n * sizeof *ed);
    float *xf = malloc(n * sizeof *xf), *ef = malloc(n * sizeof *ef);
    if (!xd || !ed || !xf || !ef) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    make_signal(xd, ed, n);
    for (size_t i = 0; i < n; i++) {
        xf[i] = (float)xd[i];
        ef[i] = (float)ed[i];
    }

    printf("  %-6s %-4s %6s  %-22s %10s %10s\n", "kernel", "type", "n", "result", "|err|",
           "tolerance");
    suite_f32(xf, ef, n);
    suite_f64(xd, ed, n);
    int first = g_checks;

    /* Again from the second element with an odd length: unaligned start and a SIMD tail. */
    g_print_all = 0;
    suite_f32(xf + 1, ef + 1, n - 4);
    suite_f64(xd + 1, ed + 1, n - 4);
    printf("\n  (\"scale=\" is in place, y == x)\n");
    printf("  again on x+1 with n = %zu (unaligned start, odd tail): %d checks, failures shown "
           "above\n",
           n - 4, g_checks - first);

    free(xd);
    free(ed);
    free(xf);
    free(ef);
    printf("\nbasics: %d passed, %d failed\n", g_checks - g_failed, g_failed);
    return g_failed ? 1 : 0;
}
