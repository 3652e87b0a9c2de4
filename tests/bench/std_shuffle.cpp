// Baseline for bench_host: libstdc++'s std::shuffle with std::mt19937 (not
// cryptographic, 19937-bit state), the usual C++ answer.
#include <algorithm>
#include <cstdint>
#include <random>

static std::mt19937 engine(12345u);

extern "C" void baseline_std_shuffle(uint8_t *cards, unsigned n)
{
    std::shuffle(cards, cards + n, engine);
}

extern "C" void baseline_std_shuffle_u16(uint16_t *cards, unsigned n)
{
    std::shuffle(cards, cards + n, engine);
}
