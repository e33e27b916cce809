#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
extern "C" {
#include <stdint.h>
#include <stddef.h>
#define D(x) uint64_t x(const uint8_t*, ptrdiff_t, uint16_t*, uint16_t*);
D(cur7) D(cur5) D(w7) D(w5) D(wnt7) D(wnt5) D(h7) D(h5) D(hw7) D(hw5) D(hw8_7) D(hw8_5)
void omp_init(); void omp_batch(const uint8_t*, size_t, int, uint16_t*); long omp_batch_checked(const uint8_t*, size_t, int, uint16_t*);
}
static uint64_t rs = 88172645463325252ull;
static uint64_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
int main(int argc, char** argv) {
    size_t n = argc > 1 ? atol(argv[1]) : 4000000; int rounds = argc > 2 ? atoi(argv[2]) : 15;
    omp_init();
    for (int k : {5, 7}) {
        std::vector<uint8_t> c(n * k);
        for (size_t i = 0; i < n; i++) { uint8_t d[52]; for (int j = 0; j < 52; j++) d[j] = j;
            for (int j = 0; j < k; j++) { int r = j + rnd() % (52 - j); std::swap(d[j], d[r]); c[i * k + j] = d[j]; } }
        std::vector<uint16_t> out(n), ref(n), saved(n);
        omp_batch(c.data(), n, k, ref.data());
        std::vector<std::pair<std::string, std::function<void()>>> runs = {
            {"omp raw", [&]{ omp_batch(c.data(), n, k, out.data()); }},
            {"omp validated", [&]{ omp_batch_checked(c.data(), n, k, out.data()); }},
            {"cur save", [&]{ (k == 7 ? cur7 : cur5)(c.data(), n, out.data(), saved.data()); }},
            {"cur nosave", [&]{ (k == 7 ? cur7 : cur5)(c.data(), n, out.data(), nullptr); }},
            {"word save", [&]{ (k == 7 ? w7 : w5)(c.data(), n, out.data(), saved.data()); }},
            {"word nosave", [&]{ (k == 7 ? w7 : w5)(c.data(), n, out.data(), nullptr); }},
            {"hash save", [&]{ (k == 7 ? h7 : h5)(c.data(), n, out.data(), saved.data()); }},
            {"hash nosave", [&]{ (k == 7 ? h7 : h5)(c.data(), n, out.data(), nullptr); }},
            {"hashword save", [&]{ (k == 7 ? hw7 : hw5)(c.data(), n, out.data(), saved.data()); }},
            {"hashword nosave", [&]{ (k == 7 ? hw7 : hw5)(c.data(), n, out.data(), nullptr); }},
            {"hw8 save", [&]{ (k == 7 ? hw8_7 : hw8_5)(c.data(), n, out.data(), saved.data()); }},
        };
        // check: our values order like omp's
        for (auto& r : runs) { if (r.first.rfind("omp", 0) == 0) continue; r.second();
            std::vector<size_t> idx(n); for (size_t i = 0; i < n; i++) idx[i] = i;
            // monotone map check on a sample
            std::vector<int> m(8000, -1); bool ok = true;
            for (size_t i = 0; i < n; i++) { int v = out[i]; if (m[v] == -1) m[v] = ref[i]; else if (m[v] != ref[i]) ok = false; }
            if (!ok) printf("MISMATCH %s\n", r.first.c_str()); }
        std::vector<std::vector<double>> t(runs.size());
        for (int r = 0; r < rounds; r++) for (size_t v = 0; v < runs.size(); v++) {
            auto a = std::chrono::steady_clock::now(); runs[v].second();
            t[v].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count()); }
        printf("k=%d n=%zu\n", k, n);
        for (size_t v = 0; v < runs.size(); v++) {
            std::vector<double> ra, rv; for (int r = 0; r < rounds; r++) { ra.push_back(t[0][r] / t[v][r]); rv.push_back(t[1][r] / t[v][r]); }
            std::sort(ra.begin(), ra.end()); std::sort(rv.begin(), rv.end());
            double bo = *std::min_element(t[0].begin(), t[0].end()), bv = *std::min_element(t[1].begin(), t[1].end()), bb = *std::min_element(t[v].begin(), t[v].end());
            printf("  best-ratio raw %.3f val %.3f |", bo / bb, bv / bb);
            printf("  %-14s best %7.1f M/s  vs raw %.3f  vs validated %.3f\n", runs[v].first.c_str(), n / *std::min_element(t[v].begin(), t[v].end()) / 1e6, ra[rounds/2], rv[rounds/2]);
        }
    }
}
