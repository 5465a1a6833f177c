#include "core/model/trace.h"

#include "core/io/trace_source.h"
#include "core/model/diagnostic_limiter.h"
#include "core/model/record_payload.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace dynascope {

const char* toString(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok:
        return "ok";
    case CompileStatus::GraphBreak:
        return "graph_break";
    case CompileStatus::Empty:
        return "empty";
    case CompileStatus::Error:
        return "error";
    case CompileStatus::Missing:
        break;
    }
    return "missing";
}

const char* toString(TimeSource s)
{
    switch (s) {
    case TimeSource::Chromium:
        return "chromium";
    case TimeSource::Metrics:
        return "metrics";
    case TimeSource::Glog:
        return "glog";
    case TimeSource::None:
        break;
    }
    return "none";
}

const char* toString(TraceFormat f)
{
    return f == TraceFormat::TorchLogs ? "torch_logs" : "torch_trace";
}

std::vector<int64_t> TraceRun::ranks() const
{
    std::vector<int64_t> out;
    for (const auto& f : files)
        if (f.rank && f.duplicateOf.empty())
            out.push_back(*f.rank);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

uint32_t Trace::fileOf(uint32_t record) const
{
    auto it = std::upper_bound(files.begin(), files.end(), record,
        [](uint32_t r, const TraceFile& f) { return r < f.firstRecord; });
    return it == files.begin() ? 0 : static_cast<uint32_t>(it - files.begin() - 1);
}

double glogEpochUs(const Record& r, int year, int tzOffsetMinutes)
{
    if (r.glogMs == kNone || r.glogDate == 0)
        return 0;
    const unsigned month = r.glogDate / 32, day = r.glogDate % 32;
    if (month < 1 || month > 12 || day < 1)
        return 0;
    using namespace std::chrono;
    const auto days = sys_days(
        year_month_day(std::chrono::year(year), std::chrono::month(month), std::chrono::day(day)))
                          .time_since_epoch()
                          .count();
    return (static_cast<double>(days) * 86400000.0 + r.glogMs - tzOffsetMinutes * 60000.0) * 1000.0;
}

double Trace::glogEpochUs(uint32_t record) const
{
    const TraceFile& f = files[fileOf(record)];
    return dynascope::glogEpochUs(records[record], f.year, f.tzOffsetMinutes);
}

std::string Trace::header(uint32_t record) const
{
    const Record& r = records[record];
    std::string storage;
    const ByteWindow w = readRecordBytes(*files[fileOf(record)].source, r, storage, true);
    return w.empty() ? std::string() : std::string(w.view(r.offset, r.headerLength));
}

std::string Trace::headerJson(uint32_t record) const
{
    return std::string(headerJsonOf(header(record)));
}

std::string Trace::payload(uint32_t record) const
{
    std::string storage;
    const ByteWindow w = readRecordBytes(*files[fileOf(record)].source, records[record], storage);
    return w.empty() ? std::string() : recordPayload(w, records[record]);
}

std::vector<std::string> Trace::sourceProblems() const
{
    std::vector<std::string> out;
    for (const auto& f : files)
        if (f.source)
            if (std::string p = f.source->problem(); !p.empty())
                out.push_back(std::move(p));
    return out;
}

BufferText::BufferText(std::shared_ptr<const TraceSource> source, uint64_t offset, uint32_t length)
    : m_source(std::move(source))
    , m_offset(offset)
    , m_length(length)
{
}

std::string BufferText::text() const
{
    if (!m_source)
        return {};
    std::string storage;
    const ByteWindow w = m_source->read(m_offset, m_length, storage);
    return w.empty() ? std::string() : std::string(w.view(m_offset, w.end - m_offset));
}

struct LazyGuardTree::State {
    std::once_flag once;
    std::atomic<bool> parsed { false }; // set once `tree` holds the parse
    std::shared_ptr<const GuardTree> tree;
    std::shared_ptr<const TraceSource> source;
    Record record;
    bool cppForm = true;

    std::shared_ptr<const GuardTree> parse() const
    {
        std::string storage;
        const ByteWindow w = readRecordBytes(*source, record, storage);
        std::string text = w.empty() ? std::string() : recordPayload(w, record);
        return std::make_shared<const GuardTree>(
            cppForm ? GuardTree::parseCpp(text) : GuardTree::parseJsonList(text));
    }
};

LazyGuardTree::LazyGuardTree(std::shared_ptr<const GuardTree> parsed)
{
    if (!parsed)
        return;
    m_state = std::make_shared<State>();
    m_state->tree = std::move(parsed);
    std::call_once(m_state->once, [this] { m_state->parsed.store(true); });
}

LazyGuardTree LazyGuardTree::fromRecord(
    std::shared_ptr<const TraceSource> source, const Record& record, bool cppForm)
{
    LazyGuardTree t;
    t.m_state = std::make_shared<State>();
    t.m_state->source = std::move(source);
    t.m_state->record = record;
    t.m_state->cppForm = cppForm;
    return t;
}

const GuardTree* LazyGuardTree::get() const
{
    if (!m_state)
        return nullptr;
    State& s = *m_state;
    std::call_once(s.once, [&s] {
        s.tree = s.parse();
        s.parsed.store(true, std::memory_order_release);
    });
    return s.tree.get();
}

std::shared_ptr<const GuardTree> LazyGuardTree::parseTransient() const
{
    if (!m_state)
        return nullptr;
    if (m_state->parsed.load(std::memory_order_acquire))
        return m_state->tree;
    return m_state->parse();
}

bool Trace::payloadHashMatches(uint32_t record) const
{
    std::string storage;
    const ByteWindow w = readRecordBytes(*files[fileOf(record)].source, records[record], storage);
    PayloadHashCheck check;
    return !w.empty() && check.matches(w, records[record]);
}

void PayloadMismatches::add(uint32_t recordInFile, uint64_t line)
{
    ++count;
    if (listed.size() < DiagnosticLimiter::kKeptPerCode) {
        listed.push_back(recordInFile);
        return;
    }
    firstUnlistedLine = count == listed.size() + 1 ? line : std::min(firstUnlistedLine, line);
    lastUnlistedLine = std::max(lastUnlistedLine, line);
}

Trace::PayloadCheck Trace::verifyPayloads() const
{
    PayloadCheck check;
    check.mismatchesPerFile.assign(files.size(), 0);
    std::vector<std::vector<Diagnostic>> perFile(files.size());
    auto work = [&](size_t fi) {
        const TraceFile& f = files[fi];
        PayloadMismatches found;
        if (f.payloadMismatches) {
            found = *f.payloadMismatches; // the loader checked the file as it scanned it
        } else {
            // In batches, hashed side by side (PayloadHashCheck::matchMany), each batch's bytes
            // read from the file in one piece of at most kBatchBytes (more for one huge record).
            constexpr uint64_t kBatchBytes = 16u << 20;
            PayloadHashCheck hashes;
            std::vector<const Record*> batch;
            std::vector<uint8_t> matched;
            std::string storage;
            auto endOf = [](const Record* r) { return r->payloadOffset() + r->payloadLength; };
            auto flush = [&] {
                if (batch.empty())
                    return;
                const uint64_t from = batch.front()->offset;
                const ByteWindow w = f.source->read(from, endOf(batch.back()) - from, storage);
                if (!w.empty()) // else the file changed: its source says so
                    hashes.matchMany(w, batch, matched);
                for (size_t k = 0; !w.empty() && k < batch.size(); ++k)
                    if (!matched[k])
                        found.add(static_cast<uint32_t>(batch[k] - &records[f.firstRecord]),
                            batch[k]->line);
                batch.clear();
            };
            for (uint32_t r = f.firstRecord; r < f.firstRecord + f.recordCount; ++r) {
                if (!records[r].hasPayload() || (records[r].flags & kTruncated))
                    continue;
                if (!batch.empty()
                    && (batch.size() == 1024
                        || endOf(&records[r]) - batch.front()->offset > kBatchBytes))
                    flush();
                batch.push_back(&records[r]);
            }
            flush();
        }
        check.mismatchesPerFile[fi] = found.count;
        // An edited file can mismatch on every payload: list the first few, count the rest.
        DiagnosticLimiter limiter;
        for (uint32_t inFile : found.listed) {
            const uint32_t r = f.firstRecord + inFile;
            if (limiter.keep(Severity::Warning, DiagnosticCode::Md5Mismatch, records[r].line))
                perFile[fi].push_back(
                    { Severity::Warning, DiagnosticCode::Md5Mismatch, f.path, records[r].line,
                        "payload of " + kindName(r)
                            + " does not match its has_payload MD5 (the file was edited); shown as "
                              "is" });
        }
        if (found.count > found.listed.size())
            limiter.countUnlisted(Severity::Warning, DiagnosticCode::Md5Mismatch,
                found.firstUnlistedLine, found.lastUnlistedLine, found.count - found.listed.size());
        limiter.appendAggregates(f.path, perFile[fi]);
    };
    // Threads only for the files the loader did not check.
    const size_t unchecked = static_cast<size_t>(std::count_if(
        files.begin(), files.end(), [](const TraceFile& f) { return !f.payloadMismatches; }));
    unsigned n = std::max(1u,
        std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(unchecked)));
    std::vector<std::thread> pool;
    std::atomic<size_t> next { 0 };
    for (unsigned t = 1; t < n; ++t)
        pool.emplace_back([&] {
            for (size_t i; (i = next++) < files.size();)
                work(i);
        });
    for (size_t i; (i = next++) < files.size();)
        work(i);
    for (auto& t : pool)
        t.join();
    for (auto& d : perFile)
        check.diagnostics.insert(check.diagnostics.end(), d.begin(), d.end());
    return check;
}

uint64_t Trace::compileCount() const
{
    return static_cast<uint64_t>(std::count_if(
        compiles.begin(), compiles.end(), [](const Compile& c) { return c.startRecord != kNone; }));
}

uint64_t Trace::recompileCount() const
{
    return static_cast<uint64_t>(std::count_if(compiles.begin(), compiles.end(),
        [](const Compile& c) { return c.startRecord != kNone && c.isRecompile(); }));
}

uint64_t Trace::graphBreakCount() const
{
    uint64_t n = 0;
    for (const auto& c : compiles)
        n += c.graphBreakCount();
    return n;
}

uint64_t Trace::failureCount() const
{
    return static_cast<uint64_t>(std::count_if(
        compiles.begin(), compiles.end(), [](const Compile& c) { return c.failure.has_value(); }));
}

} // namespace dynascope
