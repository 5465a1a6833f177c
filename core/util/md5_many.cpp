#include "core/util/md5_many.h"

#include <openssl/evp.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

// The compression function is written once with GCC's vector extensions, for vectors of 4, 8 or
// 16 words, and compiled for SSE2 (the x86-64 baseline), AVX2 and AVX-512: md5Many picks the
// widest one the CPU runs. Each width gets its own vector size, so that a vector is one register
// and the block transposition is the ISA's own shuffles (a 16-word vector on AVX2 made GCC move
// the words one by one: 1.35 GB/s against 3.2 GB/s now, dynascope-bench --md5). Two vectors of
// lanes are hashed side by side (compressLanes): 8, 16 or 32 lanes.
#if defined(__GNUC__) && defined(__x86_64__)
#define DYNASCOPE_MD5_X86 1
#define DYNASCOPE_TARGET(isa) __attribute__((target(isa)))
#else
#define DYNASCOPE_MD5_X86 0
#define DYNASCOPE_TARGET(isa)
#endif

namespace dynascope {

namespace {
constexpr int kMaxLanes = 32;
// (An alias template drops the vector_size attribute: one type per width.)
template <int N> struct VecOf;
template <> struct VecOf<4> {
    typedef uint32_t type __attribute__((vector_size(16)));
};
template <> struct VecOf<8> {
    typedef uint32_t type __attribute__((vector_size(32)));
};
template <> struct VecOf<16> {
    typedef uint32_t type __attribute__((vector_size(64)));
};
template <int N> using Vec = typename VecOf<N>::type;

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
// pair of rows i, i + h (i & h == 0). With two-input shuffles (index N + c is b[c]):
// low[c] = c & h ? b[c - h] : a[c], high[c] = c & h ? b[c] : a[c + h].
template <int N, int H> constexpr uint32_t lowIndex(int c)
{
    return (c & H) ? N + (c - H) : c;
}
template <int N, int H> constexpr uint32_t highIndex(int c)
{
    return (c & H) ? N + c : c + H;
}
#define DYNASCOPE_I4(F) F(0), F(1), F(2), F(3)
#define DYNASCOPE_I8(F) DYNASCOPE_I4(F), F(4), F(5), F(6), F(7)
#define DYNASCOPE_I16(F) DYNASCOPE_I8(F), F(8), F(9), F(10), F(11), F(12), F(13), F(14), F(15)
// Clang's shuffle takes the indices as constant arguments, GCC's as a vector.
#if defined(__clang__)
#define DYNASCOPE_SHUFFLE(a, b, INDICES, F) __builtin_shufflevector(a, b, INDICES(F))
#else
#define DYNASCOPE_SHUFFLE(a, b, INDICES, F) __builtin_shuffle(a, b, V { INDICES(F) })
#endif

template <int N, int H> inline __attribute__((always_inline)) void transposeStep(Vec<N>* r)
{
    using V = Vec<N>;
#define DYNASCOPE_LOW(c) lowIndex<N, H>(c)
#define DYNASCOPE_HIGH(c) highIndex<N, H>(c)
#pragma GCC unroll 16
    for (int i = 0; i < N; ++i) {
        if (i & H)
            continue;
        const V a = r[i], b = r[i + H];
        if constexpr (N == 4) {
            r[i] = DYNASCOPE_SHUFFLE(a, b, DYNASCOPE_I4, DYNASCOPE_LOW);
            r[i + H] = DYNASCOPE_SHUFFLE(a, b, DYNASCOPE_I4, DYNASCOPE_HIGH);
        } else if constexpr (N == 8) {
            r[i] = DYNASCOPE_SHUFFLE(a, b, DYNASCOPE_I8, DYNASCOPE_LOW);
            r[i + H] = DYNASCOPE_SHUFFLE(a, b, DYNASCOPE_I8, DYNASCOPE_HIGH);
        } else {
            r[i] = DYNASCOPE_SHUFFLE(a, b, DYNASCOPE_I16, DYNASCOPE_LOW);
            r[i + H] = DYNASCOPE_SHUFFLE(a, b, DYNASCOPE_I16, DYNASCOPE_HIGH);
        }
    }
#undef DYNASCOPE_LOW
#undef DYNASCOPE_HIGH
}

// K[i] in every lane, so that each step adds it from memory.
struct WideK {
    alignas(64) uint32_t k[64][16];
};
constexpr WideK wideK()
{
    WideK w {};
    for (int i = 0; i < 64; ++i)
        for (int l = 0; l < 16; ++l)
            w.k[i][l] = kK[i];
    return w;
}
constexpr WideK kWideK = wideK();

// One 64-byte block of every lane (rows[lane]): state[k][lane] += MD5 rounds over it. The lanes
// are G groups of N, one vector each, hashed step by step side by side: MD5's steps form one
// chain of dependent operations, and two chains keep the vector units busy where one waits on
// its last result. A block is 16 / N vectors of N words; each N x N square of them (one vector
// per lane of a group) is transposed in registers into N message words of the group's lanes.
// Inlined into a function compiled for the ISA.
template <int N, int G>
inline __attribute__((always_inline)) void compressLanes(
    uint32_t (&state)[4][kMaxLanes], const unsigned char* const* rows)
{
    using V = Vec<N>;
    V m[G][16];
#pragma GCC unroll 2
    for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
        for (int j = 0; j < 16 / N; ++j) {
            V* square = m[g] + j * N;
#pragma GCC unroll 16
            for (int l = 0; l < N; ++l) // little-endian words
                std::memcpy(&square[l], rows[g * N + l] + j * N * 4, sizeof(V));
            if constexpr (N >= 16)
                transposeStep<N, 8>(square);
            if constexpr (N >= 8)
                transposeStep<N, 4>(square);
            transposeStep<N, 2>(square);
            transposeStep<N, 1>(square);
        }
    }
    V v[G][4], a[G], b[G], c[G], d[G];
#pragma GCC unroll 2
    for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k)
            std::memcpy(&v[g][k], &state[k][g * N], sizeof(V));
        a[g] = v[g][0];
        b[g] = v[g][1];
        c[g] = v[g][2];
        d[g] = v[g][3];
    }
#pragma GCC unroll 64
    for (int i = 0; i < 64; ++i) {
        V k;
        std::memcpy(&k, kWideK.k[i], sizeof(V));
        const int s = kShift[i / 16][i % 4];
#pragma GCC unroll 2
        for (int g = 0; g < G; ++g) {
            V f;
            if (i < 16)
                f = d[g] ^ (b[g] & (c[g] ^ d[g]));
            else if (i < 32)
                f = c[g] ^ (d[g] & (b[g] ^ c[g]));
            else if (i < 48)
                f = b[g] ^ c[g] ^ d[g];
            else
                f = c[g] ^ (b[g] | ~d[g]);
            f = f + a[g] + k + m[g][word(i)];
            a[g] = d[g];
            d[g] = c[g];
            c[g] = b[g];
            b[g] = b[g] + ((f << s) | (f >> (32 - s)));
        }
    }
#pragma GCC unroll 2
    for (int g = 0; g < G; ++g) {
        v[g][0] += a[g];
        v[g][1] += b[g];
        v[g][2] += c[g];
        v[g][3] += d[g];
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k)
            std::memcpy(&state[k][g * N], &v[g][k], sizeof(V));
    }
}

// Arrays in memory, not vectors, cross these calls (a vector argument's ABI depends on the ISA).
using Compress = void (*)(uint32_t (&)[4][kMaxLanes], const unsigned char* const*);

void compress4(uint32_t (&state)[4][kMaxLanes], const unsigned char* const* rows)
{
    compressLanes<4, 2>(state, rows);
}

#if DYNASCOPE_MD5_X86
DYNASCOPE_TARGET("avx2")
void compress8(uint32_t (&state)[4][kMaxLanes], const unsigned char* const* rows)
{
    compressLanes<8, 2>(state, rows);
}

DYNASCOPE_TARGET("avx512f")
void compress16(uint32_t (&state)[4][kMaxLanes], const unsigned char* const* rows)
{
    compressLanes<16, 2>(state, rows);
}
#endif

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

// The kernel of `lanes` lanes; null for none (they read the words of a block little-endian).
Compress kernelOf(int lanes)
{
    if constexpr (std::endian::native != std::endian::little)
        return nullptr;
#if DYNASCOPE_MD5_X86
    if (lanes == 32)
        return compress16;
    if (lanes == 16)
        return compress8;
#endif
    return lanes == 8 ? compress4 : nullptr;
}

void hashInLanes(int laneCount, Compress compress, Md5Message* messages, size_t count)
{
    // Longest first, so that the lanes end on short messages, not on one long one with the
    // others idle. A lane runs at about a third of OpenSSL's speed (all lanes together hash
    // about five times as fast as OpenSSL with 16 lanes, three times with 8): with 16 lanes, a
    // message of share p of the bytes left takes 16p of the batch's time in its lane, against
    // 5p + (1 - p) by OpenSSL before the lanes, so one of more than 1/12 of them (3/4 of the
    // lane count) goes to OpenSSL.
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
        if (m.data.size() * uint64_t(laneCount * 3 / 4) <= total)
            break;
        total -= m.data.size();
        scalarMd5(m);
    }
    alignas(64) uint32_t state[4][kMaxLanes] = {};
    static const unsigned char idle[64] = {}; // what an idle lane hashes (thrown away)
    const unsigned char* rows[kMaxLanes];
    Lane lanes[kMaxLanes];
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
    for (int l = 0; l < laneCount; ++l)
        active += start(l);
    while (active > 0) {
        for (int l = 0; l < laneCount; ++l) {
            const Lane& lane = lanes[l];
            rows[l] = !lane.message ? idle
                : lane.block < lane.full
                ? reinterpret_cast<const unsigned char*>(lane.message->data.data())
                    + lane.block * 64
                : lane.tail + (lane.block - lane.full) * 64;
        }
        compress(state, rows);
        for (int l = 0; l < laneCount; ++l) {
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

} // namespace

std::vector<int> md5ManyWidths()
{
    std::vector<int> widths;
    if constexpr (std::endian::native == std::endian::little) {
#if DYNASCOPE_MD5_X86
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f"))
            widths.push_back(32);
        if (__builtin_cpu_supports("avx2"))
            widths.push_back(16);
#endif
        widths.push_back(8);
    }
    return widths;
}

void md5ManyWith(int lanes, Md5Message* messages, size_t count)
{
    if (const Compress compress = kernelOf(lanes))
        hashInLanes(lanes, compress, messages, count);
    else
        for (size_t i = 0; i < count; ++i)
            scalarMd5(messages[i]);
}

void md5Many(Md5Message* messages, size_t count)
{
    static const int lanes = [] {
        const std::vector<int> widths = md5ManyWidths();
        return widths.empty() ? 0 : widths.front();
    }();
    md5ManyWith(lanes, messages, count);
}

} // namespace dynascope
