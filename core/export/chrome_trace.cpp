#include "core/export/chrome_trace.h"

#include "core/util/text_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

using nlohmann::ordered_json;

namespace {
// Integer microseconds: exact, and written without an exponent. A hostile trace's times can be
// 1e308 or NaN: they are clamped to +-2^61 us (73,000 years), where llround is defined and the
// difference of two values cannot overflow (UBSan found phase durations that did).
int64_t us(double v)
{
    constexpr double kLimit = 2305843009213693952.0; // 2^61
    if (std::isnan(v))
        return 0;
    return static_cast<int64_t>(std::llround(std::clamp(v, -kLimit, kLimit)));
}

std::string where(const std::string& file, int64_t line)
{
    return text::codePlace(file, line);
}

class EventWriter {
public:
    explicit EventWriter(std::ostream& out)
        : m_out(out)
    {
        m_out << "{\"traceEvents\": [\n";
    }
    void add(const ordered_json& ev)
    {
        m_out << (m_first ? "" : ",\n")
              << ev.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        m_first = false;
    }
    void finish() { m_out << "\n], \"displayTimeUnit\": \"ms\"}\n"; }

private:
    std::ostream& m_out;
    bool m_first = true;
};

// A time for an event of compile c logged by `record`: its glog time when it falls inside the
// compile, else `fallback`.
double eventTime(const Trace& t, const Compile& c, uint32_t record, double fallback)
{
    if (record == kNone)
        return fallback;
    double logged = t.glogEpochUs(record);
    if (logged > 0 && logged >= c.startUs - 1000 && logged <= c.endUs + 1000)
        return std::clamp(logged, c.startUs, std::max(c.startUs, c.endUs));
    return fallback;
}
} // namespace

int64_t chromePid(const Trace& t, uint32_t file)
{
    // Ranks that exactly one file has keep their number; the other files take the smallest
    // numbers no such rank uses, in file order.
    auto uniqueRank = [&](uint32_t f) -> std::optional<int64_t> {
        const auto& rank = t.files[f].rank;
        if (!rank || *rank < 0)
            return std::nullopt;
        for (uint32_t i = 0; i < t.files.size(); ++i)
            if (i != f && t.files[i].rank == rank)
                return std::nullopt;
        return rank;
    };
    if (auto r = uniqueRank(file))
        return *r;
    std::vector<int64_t> taken;
    for (uint32_t i = 0; i < t.files.size(); ++i)
        if (auto r = uniqueRank(i))
            taken.push_back(*r);
    int64_t next = 0;
    for (uint32_t i = 0; i <= file; ++i) {
        if (uniqueRank(i))
            continue;
        while (std::find(taken.begin(), taken.end(), next) != taken.end())
            ++next;
        if (i == file)
            return next;
        ++next;
    }
    return next;
}

void writeChromeTrace(const Trace& t, std::ostream& out, const ChromeTraceOptions& options)
{
    EventWriter w(out);
    // Metadata: process and thread names, sorted by rank and frame order.
    for (uint32_t fi = 0; fi < t.files.size(); ++fi) {
        const TraceFile& f = t.files[fi];
        int64_t pid = chromePid(t, fi);
        std::string base = f.path.substr(f.path.find_last_of("/\\") + 1);
        std::string name = f.rank ? "rank " + std::to_string(*f.rank) : base;
        if (f.rank && pid != *f.rank)
            name += " (" + base + ")"; // two files say the same rank
        w.add({ { "name", "process_name" }, { "ph", "M" }, { "pid", pid }, { "tid", 0 },
            { "args", { { "name", name } } } });
        w.add({ { "name", "process_sort_index" }, { "ph", "M" }, { "pid", pid }, { "tid", 0 },
            { "args", { { "sort_index", fi } } } });
    }
    for (const Frame& fr : t.frames) {
        int64_t pid = chromePid(t, fr.file);
        // "scale example.py:36"; what the trace does not say is left out.
        std::string name = fr.coName.empty() ? std::string("(unknown function)") : fr.coName;
        if (const std::string place = where(fr.coFilename, fr.coFirstLineno); !place.empty())
            name += " " + place;
        w.add({ { "name", "thread_name" }, { "ph", "M" }, { "pid", pid }, { "tid", fr.index },
            { "args", { { "name", name } } } });
        w.add({ { "name", "thread_sort_index" }, { "ph", "M" }, { "pid", pid }, { "tid", fr.index },
            { "args", { { "sort_index", fr.index } } } });
    }

    double lastEnd = 0;
    for (const Compile& c : t.compiles) {
        int64_t pid = chromePid(t, c.file);
        uint32_t tid = c.frame == kNone ? 0 : c.frame;
        // A compile with no time at all is placed at the end of the previous one, zero long.
        bool timed = c.timeSource != TimeSource::None && c.startUs > 0;
        double start = timed ? c.startUs : lastEnd;
        double dur = timed ? c.durationUs() : 0;
        if (timed)
            lastEnd = std::max(lastEnd, c.endUs);
        std::string id = c.id.display();

        ordered_json args;
        args["compile_id"] = id;
        args["index"] = c.index;
        args["status"] = toString(c.status);
        args["co_name"] = c.coName;
        if (std::string place = where(c.coFilename, c.coFirstLineno); !place.empty())
            args["file:line"] = std::move(place);
        args["time_source"] = toString(c.timeSource);
        ordered_json reasons = ordered_json::array();
        for (const auto& r : c.recompileReasons)
            reasons.push_back(r.text);
        args["recompile_reasons"] = std::move(reasons);
        ordered_json breaks = ordered_json::array();
        for (const auto& gb : c.graphBreaks)
            breaks.push_back(gb.reason.substr(0, gb.reason.find('\n'))
                + (gb.file.empty() ? "" : " (" + where(gb.file, gb.line) + ")"));
        args["graph_break_reasons"] = std::move(breaks);
        args["failure"] = c.failure ? ordered_json(c.failure->type + ": " + c.failure->reason)
                                    : ordered_json(nullptr);
        if (c.guardCount)
            args["guard_count"] = *c.guardCount;
        ordered_json ev;
        ev["name"] = id + " " + c.coName;
        ev["cat"] = "compile";
        ev["ph"] = "X";
        ev["ts"] = us(start);
        ev["dur"] = us(dur);
        ev["pid"] = pid;
        ev["tid"] = tid;
        ev["cname"] = c.status == CompileStatus::Error ? "terrible"
            : c.status == CompileStatus::GraphBreak    ? "bad"
            : c.isRecompile()                          ? "yellow"
                                                       : "good";
        ev["args"] = std::move(args);
        w.add(ev);

        if (options.phases) {
            for (const PhaseSpan& p : c.phases) {
                ordered_json pe;
                pe["name"] = p.name();
                pe["cat"] = p.category().empty() ? std::string("phase") : std::string(p.category());
                pe["ph"] = "X";
                pe["ts"] = us(p.startUs);
                pe["dur"] = std::max<int64_t>(0, us(p.endUs) - us(p.startUs));
                pe["pid"] = pid;
                pe["tid"] = tid;
                ordered_json pa;
                pa["compile_id"] = id;
                if (p.openEnd)
                    pa["open_end"] = true;
                if (p.openStart)
                    pa["open_start"] = true;
                pe["args"] = std::move(pa);
                w.add(pe);
            }
        }

        auto instant = [&](const std::string& name, const char* cat, double ts, ordered_json a) {
            a["compile_id"] = id;
            w.add({ { "name", name }, { "cat", cat }, { "ph", "i" }, { "s", "t" }, { "ts", us(ts) },
                { "pid", pid }, { "tid", tid }, { "args", std::move(a) } });
        };
        if (c.isRecompile() && c.startRecord != kNone) {
            ordered_json a;
            a["reasons"] = ordered_json::array();
            for (const auto& r : c.recompileReasons)
                a["reasons"].push_back(r.text);
            instant("recompile " + id, "recompile", start, std::move(a));
        }
        for (const auto& gb : c.graphBreaks) {
            ordered_json a;
            a["reason"] = gb.reason;
            if (std::string place = where(gb.file, gb.line); !place.empty())
                a["file:line"] = std::move(place);
            if (gb.resumeCompile != kNone)
                a["resume_compile"] = t.compiles[gb.resumeCompile].id.display();
            instant("graph break", "graph_break", eventTime(t, c, gb.record, start + dur),
                std::move(a));
        }
        if (c.failure) {
            ordered_json a;
            a["type"] = c.failure->type;
            a["reason"] = c.failure->reason;
            if (std::string place = where(c.failure->file, c.failure->line); !place.empty())
                a["file:line"] = std::move(place);
            instant("failure: " + c.failure->type, "failure", start + dur, std::move(a));
        }
        for (const auto& ce : c.cacheEvents) {
            const char* kind = ce.kind == CacheKind::Hit ? "hit"
                : ce.kind == CacheKind::Miss             ? "miss"
                                                         : "bypass";
            ordered_json a;
            a["cache"] = ce.cache;
            double ts = ce.tsUs > 0 ? ce.tsUs : start + dur;
            instant(ce.cache + " " + kind, "cache", ts, std::move(a));
        }
    }
    w.finish();
}

} // namespace dynascope
