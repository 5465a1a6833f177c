// fuzz_replay: the fuzz target's checks without libFuzzer, for builds made with g++ (the normal
// CI build). Runs trace_invariants' runOne() over every file of the given corpus folders (crash
// files that libFuzzer saved, the seed corpus), then over N mutations of them made by a small
// deterministic mutator (fixed seed: the same N inputs on every run and every machine, since it
// uses mt19937_64 directly and no std:: distributions). On a violation it writes the input to
// --artifacts DIR (default: the current folder), prints the violation and exits 1.
//
// Slow inputs and memory growth fail too: each input's time, peak heap and number of allocations
// are bounded by a constant plus a cost per input byte (kBudget below; generous, since a shared CI
// machine is slow at times, but a quadratic loop or a per-line allocation of the kind issue 11
// found overshoots them by orders of magnitude). Heap is counted when the build has no sanitizer;
// sanitizer builds get twenty times the time.
//
//   fuzz_replay [--mutations N] [--seed S] [--max-len BYTES] [--artifacts DIR] PATH...
//   fuzz_replay --dump FILE     the model of one input, record by record, for triage
#include "fuzz/trace_invariants.h"
#include "tests/support/heap_counter.h"

#include "core/io/input_buffer.h"
#include "core/load/trace/file_builder.h"
#include "core/writer/compress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using dynascope::InputBuffer;

namespace {

// Fragments of the format the mutator splices in (the libFuzzer dictionary, trace.dict, has the
// same ideas): record kinds, context keys, hostile numbers, chromium phases, guard tree lines.
const std::string_view kTokens[] = {
    "V0822 14:00:48.902000 2354971 torch/_dynamo/convert_frame.py:247] ",
    "] {",
    "\t",
    "\n",
    "\r\n",
    "\n\t",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\u0000",
    "\"dynamo_start\": {\"stack\": [{\"line\": 1, \"name\": \"f\", \"filename\": 0}]}",
    "\"compilation_metrics\": {\"co_name\": \"f\", \"graph_op_count\": 1}",
    "\"chromium_event\": {}",
    "\"artifact\": {\"name\": \"recompile_reasons\", \"encoding\": \"json\"}",
    "\"artifact\": {\"name\": \"dynamo_graph_break_reason\", \"encoding\": \"string\"}",
    "\"dynamo_cpp_guards_str\": {}",
    "\"dynamo_guards\": {}",
    "\"str\": [\"/a.py\", 0]",
    "\"frame_id\": ",
    "\"frame_compile_id\": ",
    "\"attempt\": ",
    "\"compiled_autograd_id\": ",
    "\"has_payload\": \"d41d8cd98f00b204e9800998ecf8427e\"",
    "\"filename\": ",
    "\"ph\": \"B\"",
    "\"ph\": \"E\"",
    "\"ph\": \"X\", \"dur\": 1e300",
    "\"ph\": \"i\"",
    "\"ts\": ",
    "\"args\": {\"compile_id\": \"0/1\"}",
    "\"fail_type\": \"E\"",
    "\"restart_reasons\": [\"r\"]",
    "torch_dynamo_resume_in_f_at_",
    "Graph break in user code at /a.py:3\nGraph Break Reason: x\nUser code traceback:\n",
    "+- RootGuardManager\n| +- GuardManager: source=L['x']\n| | +- TENSOR_MATCH: x\n",
    "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3",
    "1e30",
    "-1",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    "1e308",
    "-0",
    "4294967295",
    "\xff\xfe",
    "\xc3\x28",
    std::string_view("\0", 1),
    "<b>bold</b><a href=\"file:///etc/passwd\">x</a>",
};
const char* const kNumbers[] = { "-1", "0", "1e30", "-1e30", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "18446744073709551616", "4294967295", "65535",
    "1.5", "1e308", "nan", "" };

class Mutator {
public:
    explicit Mutator(uint64_t seed)
        : m_rng(seed)
    {
    }

    size_t below(size_t n) { return n ? static_cast<size_t>(m_rng() % n) : 0; }

    std::string mutate(const std::vector<std::string>& corpus, size_t maxLen)
    {
        std::string s = corpus[below(corpus.size())];
        const bool compressed = InputBuffer::sniff(s) != InputBuffer::Compression::None;
        const size_t ops = 1 + below(4);
        for (size_t i = 0; i < ops; ++i)
            apply(s, corpus);
        if (s.size() > maxLen)
            s.resize(maxLen);
        if (!compressed && below(10) == 0) {
            // Compressed input takes another path through InputBuffer; sometimes cut it.
            s = below(2) ? dynascope::compressZstd(s, 1) : dynascope::compressGzip(s);
            if (below(3) == 0)
                s.resize(below(s.size() + 1));
        }
        return s;
    }

private:
    size_t lineStart(const std::string& s)
    {
        size_t p = below(s.size() + 1);
        size_t nl = p ? s.rfind('\n', p - 1) : std::string::npos;
        return nl == std::string::npos ? 0 : nl + 1;
    }

    void apply(std::string& s, const std::vector<std::string>& corpus)
    {
        const size_t pos = below(s.size() + 1);
        switch (below(11)) {
        case 0: // overwrite a byte
            if (!s.empty())
                s[below(s.size())] = static_cast<char>(m_rng());
            break;
        case 1: { // insert a token
            s.insert(pos, kTokens[below(std::size(kTokens))]);
            break;
        }
        case 2: // delete a range
            s.erase(pos, 1 + below(64));
            break;
        case 3: { // duplicate a range elsewhere
            if (s.empty())
                break;
            size_t from = below(s.size());
            std::string chunk = s.substr(from, 1 + below(256));
            s.insert(below(s.size() + 1), chunk);
            break;
        }
        case 4: // cut
            s.resize(pos);
            break;
        case 5: { // replace a number
            size_t d = s.find_first_of("0123456789", pos);
            if (d == std::string::npos)
                break;
            size_t e = s.find_first_not_of("0123456789.", d);
            s.replace(d, (e == std::string::npos ? s.size() : e) - d,
                kNumbers[below(std::size(kNumbers))]);
            break;
        }
        case 6: { // splice with another input
            const std::string& other = corpus[below(corpus.size())];
            s = s.substr(0, pos) + other.substr(below(other.size() + 1));
            break;
        }
        case 7: { // move a line
            size_t a = lineStart(s);
            size_t e = s.find('\n', a);
            std::string line = s.substr(a, e == std::string::npos ? e : e - a + 1);
            s.erase(a, line.size());
            s.insert(lineStart(s), line);
            break;
        }
        case 8: { // delete a line
            size_t a = lineStart(s);
            size_t e = s.find('\n', a);
            s.erase(a, e == std::string::npos ? e : e - a + 1);
            break;
        }
        case 9: // deep nesting
            s.insert(pos, std::string(1 + below(5000), below(2) ? '[' : '{'));
            break;
        case 10: { // a line from another input at a line boundary
            const std::string& other = corpus[below(corpus.size())];
            size_t a = 0;
            if (!other.empty()) {
                size_t p = below(other.size());
                size_t nl = other.rfind('\n', p);
                a = nl == std::string::npos ? 0 : nl + 1;
            }
            size_t e = other.find('\n', a);
            s.insert(lineStart(s), other.substr(a, e == std::string::npos ? e : e - a + 1));
            break;
        }
        }
    }

    std::mt19937_64 m_rng;
};

bool readFile(const fs::path& p, std::string& out)
{
    std::ifstream f(p, std::ios::binary);
    if (!f)
        return false;
    out.assign(std::istreambuf_iterator<char>(f), {});
    return true;
}

// Triage: what the builder made of one input.
int dump(const fs::path& path)
{
    std::string bytes, error;
    if (!readFile(path, bytes))
        return 2;
    auto buffer = InputBuffer::fromBytes(bytes, 1u << 20, error);
    if (!buffer) {
        std::cout << "fromBytes: " << error << "\n";
        return 0;
    }
    auto t = dynascope::buildFile({ "fuzz.log", buffer, {}, {} });
    for (uint32_t r = 0; r < t->records.size(); ++r) {
        const auto& rec = t->records[r];
        std::cout << "record " << r << " line " << rec.line << " " << t->kindName(r) << " compile "
                  << static_cast<int64_t>(rec.compile == dynascope::kNone ? -1 : rec.compile)
                  << " flags " << rec.flags << " payload " << rec.payloadLength << "\n";
    }
    for (const auto& c : t->compiles) {
        std::cout << "compile " << c.index << " " << c.id.display() << " start " << c.startRecord
                  << " [" << c.startUs << ", " << c.endUs << "] records";
        for (auto r : c.records)
            std::cout << " " << r;
        std::cout << "\n";
        for (const auto& p : c.phases)
            std::cout << "  span " << p.name() << " B " << p.beginRecord << " E " << p.endRecord
                      << " [" << p.startUs << ", " << p.endUs << "]\n";
    }
    for (const auto& d : t->diagnostics)
        std::cout << d.format() << "\n";
    std::cout << dynascope::fuzz::checkTrace(*t, false);
    return 0;
}

// What one input may cost: base + perByte x its size (the decoded size of a compressed input
// can be a thousand times its bytes, so compressed inputs get the decoding limit's room).
struct Budget {
    double baseSeconds = 0.5, secondsPerByte = 50e-6;
    double baseHeap = 8 << 20, heapPerByte = 400;
    double baseAllocations = 20000, allocationsPerByte = 8;
};
constexpr Budget kBudget;

// The input's cost against the budget: "" when within it.
std::string runMeasured(const std::string& bytes, std::string& violation)
{
    namespace t = dynascope::testing;
    const bool compressed = InputBuffer::sniff(bytes) != InputBuffer::Compression::None;
    const double size = static_cast<double>(compressed ? 1u << 20 : bytes.size());
    const int64_t heapBefore = t::liveHeap(), allocationsBefore = t::allocations();
    t::resetPeak();
    const auto t0 = std::chrono::steady_clock::now();
    violation = dynascope::fuzz::runOne(bytes);
    const double secs
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double heap = static_cast<double>(t::peakHeap() - heapBefore);
    const double allocations = static_cast<double>(t::allocations() - allocationsBefore);
    char buf[256];
    // Sanitizer builds run several times slower, and CI runs tests two at a time: their time
    // budget is twenty times wider, so only a runaway input (quadratic, hung) fails there.
    const double slack = t::kHeapCounted ? 1 : 20;
    if (secs > slack * (kBudget.baseSeconds + kBudget.secondsPerByte * size)) {
        std::snprintf(buf, sizeof buf, "too slow: %.2f s for %zu bytes\n", secs, bytes.size());
        return buf;
    }
    if (t::kHeapCounted && heap > kBudget.baseHeap + kBudget.heapPerByte * size) {
        std::snprintf(buf, sizeof buf, "too much heap: %.0f bytes at the peak for %zu bytes\n",
            heap, bytes.size());
        return buf;
    }
    if (t::kHeapCounted
        && allocations > kBudget.baseAllocations + kBudget.allocationsPerByte * size) {
        std::snprintf(buf, sizeof buf, "too many allocations: %.0f for %zu bytes\n", allocations,
            bytes.size());
        return buf;
    }
    return {};
}

int usage()
{
    std::cerr << "usage: fuzz_replay [--mutations N] [--seed S] [--max-len BYTES] "
                 "[--artifacts DIR] PATH...\n";
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    uint64_t mutations = 0, seed = 1, maxLen = 256u << 10;
    fs::path artifacts = ".";
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
        try {
            if (a == "--dump")
                return dump(value());
            else if (a == "--mutations")
                mutations = std::stoull(value());
            else if (a == "--seed")
                seed = std::stoull(value());
            else if (a == "--max-len")
                maxLen = std::stoull(value());
            else if (a == "--artifacts")
                artifacts = value();
            else if (a.starts_with("-"))
                return usage();
            else
                paths.emplace_back(a);
        } catch (const std::exception&) {
            return usage();
        }
    }
    if (paths.empty())
        return usage();

    std::vector<std::pair<std::string, std::string>> inputs; // name, bytes
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<fs::path> files;
            for (auto it = fs::recursive_directory_iterator(p, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
                if (it->is_regular_file(ec))
                    files.push_back(it->path());
            std::sort(files.begin(), files.end());
            for (const auto& f : files) {
                std::string bytes;
                if (readFile(f, bytes))
                    inputs.emplace_back(f.string(), std::move(bytes));
            }
        } else {
            std::string bytes;
            if (!readFile(p, bytes)) {
                std::cerr << "fuzz_replay: cannot read " << p << "\n";
                return 2;
            }
            inputs.emplace_back(p.string(), std::move(bytes));
        }
    }
    if (inputs.empty()) {
        std::cerr << "fuzz_replay: no inputs\n";
        return 2;
    }

    auto fail = [&](const std::string& what, const std::string& bytes, const std::string& v) {
        fs::create_directories(artifacts);
        fs::path out = artifacts / ("fuzz_replay-failure-" + std::to_string(seed) + ".bin");
        std::ofstream(out, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
        std::cerr << "fuzz_replay: invariant violated on " << what << " (input saved as " << out
                  << "):\n"
                  << v;
        return 1;
    };
    const auto t0 = std::chrono::steady_clock::now();
    auto check = [&](const std::string& bytes) {
        std::string violation;
        std::string cost = runMeasured(bytes, violation);
        return violation.empty() ? cost : violation;
    };
    for (const auto& [name, bytes] : inputs)
        if (auto v = check(bytes); !v.empty())
            return fail(name, bytes, v);

    std::vector<std::string> corpus;
    for (auto& [name, bytes] : inputs)
        corpus.push_back(bytes);
    Mutator m(seed);
    for (uint64_t i = 0; i < mutations; ++i) {
        std::string input = m.mutate(corpus, maxLen);
        if (auto v = check(input); !v.empty())
            return fail(
                "mutation " + std::to_string(i) + " (seed " + std::to_string(seed) + ")", input, v);
    }
    const double secs
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("fuzz_replay: %zu corpus inputs and %llu mutations (seed %llu) in %.1f s, no "
                "invariant violated, none over its time or heap budget\n",
        inputs.size(), static_cast<unsigned long long>(mutations),
        static_cast<unsigned long long>(seed), secs);
    return 0;
}
