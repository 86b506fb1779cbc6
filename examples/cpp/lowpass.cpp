// lowpass.cpp: sigkern from C++17. A small RAII wrapper owns the filter handle, failures become
// exceptions carrying the library's message, and std::vector holds the data.
//
// An order-6 Butterworth low-pass at 1 kHz (sk_butter_sos, scipy's design) filters one second
// of a 200 Hz + 8 kHz mix at 48 kHz, in chunks of 480 samples. Checks: the 8 kHz tone is gone
// (output RMS within 1 % of the 200 Hz tone's 0.5/sqrt(2) after the filter settles); processing
// in chunks equals one call bit for bit; a bad argument throws with the function's name in the
// message. Exits 1 if any check fails.
//
//   c++ -std=c++17 lowpass.cpp $(pkg-config --cflags --libs sigkern) -o lowpass
#include "sigkern.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Throws std::runtime_error("SK_ERR_...: <message>") unless rc is SK_OK.
void check_rc(int32_t rc) {
    if (rc == SK_OK) return;
    std::string msg(sk_last_error_message(nullptr, 0) + 1, '\0');
    sk_last_error_message(&msg[0], msg.size());
    msg.pop_back();  // the terminating NUL
    throw std::runtime_error(std::string(sk_status_name(rc)) + ": " + msg);
}

struct BiquadDeleter {
    void operator()(SkBiquad *h) const noexcept { sk_biquad_free(h); }
};

class Lowpass {
   public:
    Lowpass(unsigned order, double cutoff, double fs) {
        std::vector<double> sos(6 * sk_butter_sections(order, SK_BAND_LOWPASS));
        size_t sections = 0;
        check_rc(sk_butter_sos(order, SK_BAND_LOWPASS, cutoff, 0.0, fs, sos.data(), &sections,
                               sos.size()));
        SkBiquad *h = nullptr;
        check_rc(sk_biquad_f32_new(sos.data(), 1, &h, sections));
        handle_.reset(h);
    }
    // Filters x into y (same length; y may be x), continuing from the previous call.
    void process(const float *x, float *y, size_t n) {
        check_rc(sk_biquad_f32_process(handle_.get(), x, 0, y, 0, n));
    }
    void reset() { check_rc(sk_biquad_reset(handle_.get())); }

   private:
    std::unique_ptr<SkBiquad, BiquadDeleter> handle_;
};

int g_failed = 0;

void expect(bool ok, const char *what) {
    std::printf("  %-58s %s\n", what, ok ? "ok" : "FAIL");
    if (!ok) g_failed++;
}

}  // namespace

int main() {
    std::printf("sigkern %s (%s) from C++\n", sk_version(), sk_simd_level());
    const double fs = 48000.0, pi = 3.14159265358979323846;
    std::vector<float> x(48000);
    for (size_t i = 0; i < x.size(); i++) {
        double t = static_cast<double>(i) / fs;
        x[i] = static_cast<float>(0.5 * std::sin(2 * pi * 200 * t) + 0.5 * std::sin(2 * pi * 8000 * t));
    }

    try {
        Lowpass lp(6, 1000.0, fs);
        std::vector<float> whole(x.size()), chunked(x.size());
        lp.process(x.data(), whole.data(), x.size());
        lp.reset();
        for (size_t at = 0; at < x.size(); at += 480) lp.process(&x[at], &chunked[at], 480);
        expect(whole == chunked, "480-sample chunks equal one call bit for bit");

        float rms = 0;
        const size_t settle = 4800;  // the filter's transient is over after 100 ms
        check_rc(sk_rms_f32(&whole[settle], &rms, whole.size() - settle));
        double want = 0.5 / std::sqrt(2.0);
        std::printf("  output rms %.5f, 200 Hz tone alone %.5f\n", rms, want);
        expect(std::fabs(rms - want) < 0.01 * want, "8 kHz removed, 200 Hz kept (rms within 1 %)");
    } catch (const std::exception &e) {
        std::printf("  unexpected error: %s\n", e.what());
        return 1;
    }

    try {
        Lowpass bad(6, 30000.0, fs);  // above Nyquist
        expect(false, "a cutoff above fs/2 throws");
    } catch (const std::runtime_error &e) {
        std::printf("  caught: %s\n", e.what());
        expect(std::string(e.what()).find("sk_butter_sos") != std::string::npos,
               "a cutoff above fs/2 throws, naming sk_butter_sos");
    }

    std::printf(g_failed ? "FAILED: %d check(s)\n" : "all checks passed\n", g_failed);
    return g_failed ? 1 : 0;
}
