#include "core/analysis/findings.h"

#include "core/analysis/findings_rules.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <cstdio>

namespace dynascope {

namespace findings {

std::string formatUs(double us)
{
    return text::duration(us);
}

std::string userName(std::string_view source)
{
    std::string out;
    out.reserve(source.size());
    size_t i = 0;
    auto quoted = [&](std::string_view open, size_t at, std::string& name) {
        if (source.substr(at, open.size()) != open)
            return size_t(0);
        const size_t start = at + open.size();
        const size_t end = source.find("']", start);
        if (end == std::string_view::npos)
            return size_t(0);
        name = std::string(source.substr(start, end - start));
        return end + 2 - at;
    };
    while (i < source.size()) {
        std::string name;
        size_t n = 0;
        if ((n = quoted("L['", i, name)) || (n = quoted("G['", i, name))) {
            out += name;
        } else if ((n = quoted("._modules['", i, name)) || (n = quoted("._parameters['", i, name))
            || (n = quoted("._buffers['", i, name))) {
            out += "." + name;
        } else {
            out += source[i];
            n = 1;
        }
        i += n;
    }
    return out;
}

namespace {
// "scale (train.py:25)", the name in backticks when `quoted` (titles), " on rank N" when the
// trace has several ranks and `withRank`.
std::string frameName(const Trace& t, uint32_t frame, bool quoted, bool withRank = true)
{
    const Frame& f = t.frames[frame];
    const std::string name = f.coName.empty() ? std::string("(unknown function)") : f.coName;
    std::string s = quoted ? "`" + name + "`" : name;
    if (!f.coFilename.empty())
        s += " (" + std::string(baseName(f.coFilename)) + ":" + std::to_string(f.coFirstLineno)
            + ")";
    if (withRank && t.files.size() > 1 && t.files[f.file].rank)
        s += " on rank " + std::to_string(*t.files[f.file].rank);
    return s;
}
} // namespace

std::string Context::frameLabel(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, false) : std::string();
}

std::string Context::frameTitle(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, true) : std::string("a frame");
}

std::string Context::codeLabel(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, false, false) : std::string();
}

std::string Context::codeTitle(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, true, false)
                                       : std::string("a frame");
}

std::string Context::compileList(const std::vector<uint32_t>& compiles) const
{
    std::string s;
    const size_t shown = std::min<size_t>(compiles.size(), 8);
    for (size_t i = 0; i < shown; ++i) {
        if (i)
            s += i + 1 == compiles.size() ? " and " : ", ";
        s += findingCompileLabel(trace, compiles[i]);
    }
    if (compiles.size() > shown)
        s += " and " + std::to_string(compiles.size() - shown) + " more";
    return s;
}

Finding& Context::add(std::string rule, FindingSeverity severity, uint32_t frame)
{
    Finding& f = out.emplace_back();
    f.rule = std::move(rule);
    f.severity = severity;
    f.frame = frame;
    f.frameLabel = frameLabel(frame);
    return f;
}

double Context::durationOf(const std::vector<uint32_t>& compiles) const
{
    double us = 0;
    for (uint32_t c : compiles)
        if (c < trace.compiles.size())
            us += trace.compiles[c].durationUs();
    return us;
}

} // namespace findings

const char* toString(FindingSeverity s)
{
    switch (s) {
    case FindingSeverity::Error:
        return "error";
    case FindingSeverity::Warning:
        return "warning";
    case FindingSeverity::Note:
        break;
    }
    return "note";
}

std::string findingCompileLabel(const Trace& trace, uint32_t compile)
{
    if (compile >= trace.compiles.size())
        return "[?]";
    const Compile& c = trace.compiles[compile];
    std::string s = c.id.display();
    if (trace.files.size() > 1 && trace.files[c.file].rank)
        s += " (rank " + std::to_string(*trace.files[c.file].rank) + ")";
    return s;
}

std::vector<Finding> findFindings(const Trace& trace, std::stop_token stop)
{
    findings::Context cx { trace, stop, {} };
    findings::recompileRules(cx);
    findings::breakRules(cx);
    findings::costRules(cx);
    findings::probeRules(cx);
    findings::rankRules(cx);
    std::stable_sort(cx.out.begin(), cx.out.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity)
            return a.severity > b.severity;
        if (a.costUs != b.costUs)
            return a.costUs > b.costUs;
        return a.count > b.count;
    });
    return std::move(cx.out);
}

FindingCounts countFindings(const std::vector<Finding>& findings)
{
    FindingCounts n;
    for (const auto& f : findings)
        ++(f.severity == FindingSeverity::Error          ? n.errors
                : f.severity == FindingSeverity::Warning ? n.warnings
                                                         : n.notes);
    return n;
}

} // namespace dynascope
