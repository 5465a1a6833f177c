#include "core/util/md5_many.h"

#include <openssl/evp.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

// The compression function is written once with GCC's vector extensions and compiled for
// AVX-512, AVX2 and the baseline (SSE2), picked at load time by the CPU that runs it.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define DYNASCOPE_MD5_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DYNASCOPE_MD5_CLONES
#endif

namespace dynascope {

namespace {
constexpr int kLanes = 16; // = the words of a block: compress() transposes 16 x 16
using Vec = uint32_t __attribute__((vector_size(kLanes * sizeof(uint32_t))));

constexpr uint64_t kScalarShare = 4; // see md5Many

constexpr uint32_t kK[64] = { 0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf,
    0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122,
    0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
    0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905,
    0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44,
    0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
    0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3,
    0x8f0ccc92, 0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82,
    0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };
constexpr int kShift[4][4]
    = { { 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 } };
constexpr uint32_t kInit[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };

// Which message word step i reads.
constexpr int word(int i)
{
    return i < 16 ? i : i < 32 ? (5 * i + 1) % 16 : i < 48 ? (3 * i + 5) % 16 : (7 * i) % 16;
}

// Masks of the transposition in compress(): step h swaps the off-diagonal h x h blocks of each
// pair of rows i, i + h (i & h == 0). With two-input shuffles (index 16 + c is b[c]):
// low[c] = c & h ? b[c - h] : a[c], high[c] = c & h ? b[c] : a[c + h].
template <int H> constexpr uint32_t lowIndex(int c)
{
    return (c & H) ? 16 + (c - H) : c;
}
template <int H> constexpr uint32_t highIndex(int c)
{
    return (c & H) ? 16 + c : c + H;
}
#define DYNASCOPE_INDICES(F, H)                                                                    \
    F<H>(0), F<H>(1), F<H>(2), F<H>(3), F<H>(4), F<H>(5), F<H>(6), F<H>(7), F<H>(8), F<H>(9),      \
        F<H>(10), F<H>(11), F<H>(12), F<H>(13), F<H>(14), F<H>(15)
// Clang's shuffle takes the indices as constant arguments, GCC's as a vector.
#if defined(__clang__)
#define DYNASCOPE_SHUFFLE(a, b, F, H) __builtin_shufflevector(a, b, DYNASCOPE_INDICES(F, H))
#else
#define DYNASCOPE_SHUFFLE(a, b, F, H) __builtin_shuffle(a, b, Vec { DYNASCOPE_INDICES(F, H) })
#endif

template <int H> inline void transposeStep(Vec (&r)[16])
{
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) {
        if (i & H)
            continue;
        const Vec a = r[i], b = r[i + H];
        r[i] = DYNASCOPE_SHUFFLE(a, b, lowIndex, H);
        r[i + H] = DYNASCOPE_SHUFFLE(a, b, highIndex, H);
    }
}

// One 64-byte block of every lane (rows[lane]): state[k][lane] += MD5 rounds over it. The blocks
// are loaded as rows and transposed in registers into the message words of all lanes. Arrays in
// memory, not vectors, cross the call (a vector argument's ABI depends on the clone).
DYNASCOPE_MD5_CLONES
void compress(uint32_t (&state)[4][kLanes], const unsigned char* const (&rows)[kLanes])
{
    Vec m[16];
#pragma GCC unroll 16
    for (int l = 0; l < kLanes; ++l)
        std::memcpy(&m[l], rows[l], sizeof(Vec)); // little-endian words
    transposeStep<8>(m);
    transposeStep<4>(m);
    transposeStep<2>(m);
    transposeStep<1>(m);
    Vec v[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k)
        std::memcpy(&v[k], state[k], sizeof(Vec));
    Vec a = v[0], b = v[1], c = v[2], d = v[3];
#pragma GCC unroll 64
    for (int i = 0; i < 64; ++i) {
        Vec f;
        if (i < 16)
            f = d ^ (b & (c ^ d));
        else if (i < 32)
            f = c ^ (d & (b ^ c));
        else if (i < 48)
            f = b ^ c ^ d;
        else
            f = c ^ (b | ~d);
        f = f + a + kK[i] + m[word(i)];
        const int s = kShift[i / 16][i % 4];
        a = d;
        d = c;
        c = b;
        b = b + ((f << s) | (f >> (32 - s)));
    }
    v[0] += a;
    v[1] += b;
    v[2] += c;
    v[3] += d;
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k)
        std::memcpy(state[k], &v[k], sizeof(Vec));
}

void scalarMd5(Md5Message& m)
{
    unsigned int length = 0;
    unsigned char digest[EVP_MAX_MD_SIZE];
    if (EVP_Digest(m.data.data(), m.data.size(), digest, &length, EVP_md5(), nullptr) == 1
        && length == 16)
        std::memcpy(m.digest, digest, 16);
    else
        std::memset(m.digest, 0, 16);
}

struct Lane {
    Md5Message* message = nullptr; // null: idle
    uint64_t block = 0, blocks = 0, full = 0; // full: blocks read from the message itself
    unsigned char tail[128]; // the last bytes, padded, and the bit length
};
} // namespace

void md5Many(Md5Message* messages, size_t count)
{
    if constexpr (std::endian::native != std::endian::little) {
        for (size_t i = 0; i < count; ++i)
            scalarMd5(messages[i]);
        return;
    }
    // Longest first, so that the lanes end on short messages, not on one long one with the
    // others idle. A lane runs at a sixteenth of the vector's speed, about a quarter of
    // OpenSSL's: a message of more than a quarter of the bytes left would end with fewer than
    // four lanes busy, slower than OpenSSL hashes it, so OpenSSL does.
    // Ordered by bit width of the length (a counting sort: a comparison sort cost as much as
    // hashing for messages of a few hundred bytes), which is longest first to within 2x.
    constexpr int kWidths = 65;
    size_t first[kWidths + 1] = {};
    uint64_t total = 0;
    auto width = [&](size_t i) { return kWidths - 1 - std::bit_width(messages[i].data.size()); };
    for (size_t i = 0; i < count; ++i) {
        ++first[width(i) + 1];
        total += messages[i].data.size();
    }
    for (int b = 0; b < kWidths; ++b)
        first[b + 1] += first[b];
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i)
        order[first[width(i)]++] = i;
    size_t next = 0;
    for (; next < count; ++next) {
        Md5Message& m = messages[order[next]];
        if (m.data.size() * kScalarShare <= total)
            break;
        total -= m.data.size();
        scalarMd5(m);
    }
    alignas(64) uint32_t state[4][kLanes] = {};
    static const unsigned char idle[64] = {}; // what an idle lane hashes (thrown away)
    const unsigned char* rows[kLanes];
    Lane lanes[kLanes];
    // Gives lane l the next message; false when none is left.
    auto start = [&](int l) {
        Lane& lane = lanes[l];
        lane.message = nullptr;
        if (next < count) {
            Md5Message& m = messages[order[next++]];
            const size_t size = m.data.size();
            lane.message = &m;
            lane.block = 0;
            lane.full = size / 64;
            const size_t rest = size % 64;
            const size_t tailBlocks = rest + 9 <= 64 ? 1 : 2;
            lane.blocks = lane.full + tailBlocks;
            std::memset(lane.tail, 0, sizeof lane.tail);
            std::memcpy(lane.tail, m.data.data() + lane.full * 64, rest);
            lane.tail[rest] = 0x80;
            const uint64_t bits = uint64_t(size) * 8;
            std::memcpy(lane.tail + tailBlocks * 64 - 8, &bits, 8); // little-endian
            for (int k = 0; k < 4; ++k)
                state[k][l] = kInit[k];
            return true;
        }
        return false;
    };
    int active = 0;
    for (int l = 0; l < kLanes; ++l)
        active += start(l);
    while (active > 0) {
        for (int l = 0; l < kLanes; ++l) {
            const Lane& lane = lanes[l];
            rows[l] = !lane.message ? idle
                : lane.block < lane.full
                ? reinterpret_cast<const unsigned char*>(lane.message->data.data())
                    + lane.block * 64
                : lane.tail + (lane.block - lane.full) * 64;
        }
        compress(state, rows);
        for (int l = 0; l < kLanes; ++l) {
            Lane& lane = lanes[l];
            if (!lane.message || ++lane.block < lane.blocks)
                continue;
            for (int k = 0; k < 4; ++k)
                std::memcpy(lane.message->digest + 4 * k, &state[k][l], 4);
            if (!start(l))
                --active;
        }
    }
}

} // namespace dynascope
