#include "core/analysis/findings.h"

#include "core/analysis/findings_rules.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <unordered_map>

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

namespace {
// The title without its " on rank N" (and N), or nullopt when it names no rank.
std::optional<std::pair<std::string, int64_t>> withoutRank(const std::string& text)
{
    static const std::string key = " on rank ";
    const size_t p = text.find(key);
    if (p == std::string::npos)
        return std::nullopt;
    const size_t digits = p + key.size();
    size_t end = digits;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
    if (end == digits || end - digits > 18)
        return std::nullopt;
    return std::make_pair(text.substr(0, p) + '\x01' + text.substr(end),
        std::stoll(text.substr(digits, end - digits)));
}

// The same finding on several ranks (a graph break every rank takes) is one finding that names
// the ranks ("on ranks 0-255"): a 256-rank job listed it 256 times. Findings match when their
// rule, user line and title are the same once the rank is taken out; the first one's evidence
// stands for all, compiles and count are the sums, the cost is the largest rank's (ranks compile
// at the same time: a job waits for its slowest rank, not for the sum). The rank rules compare
// ranks and are left as they are.
void mergeAcrossRanks(std::vector<Finding>& out)
{
    std::unordered_map<std::string, size_t> firstOf;
    std::vector<std::vector<int64_t>> ranks;
    std::vector<std::string> stripped;
    std::vector<Finding> merged;
    for (Finding& f : out) {
        const auto bare = f.rule.starts_with("rank-") || f.rule == "straggler"
            ? std::nullopt
            : withoutRank(f.title);
        if (!bare) {
            merged.push_back(std::move(f));
            ranks.emplace_back();
            stripped.emplace_back();
            continue;
        }
        const std::string key
            = f.rule + '\n' + bare->first + '\n' + f.userFile + ':' + std::to_string(f.userLine);
        auto [it, added] = firstOf.try_emplace(key, merged.size());
        if (added) {
            merged.push_back(std::move(f));
            ranks.push_back({ bare->second });
            stripped.push_back(bare->first);
            continue;
        }
        Finding& into = merged[it->second];
        ranks[it->second].push_back(bare->second);
        into.compiles.insert(into.compiles.end(), f.compiles.begin(), f.compiles.end());
        into.costUs = std::max(into.costUs, f.costUs); // ranks compile side by side
        into.count += f.count;
    }
    for (size_t i = 0; i < merged.size(); ++i) {
        if (ranks[i].size() < 2)
            continue;
        Finding& f = merged[i];
        const std::string names = rankRanges(ranks[i]);
        const size_t mark = stripped[i].find('\x01');
        const std::string firstRank = std::to_string(ranks[i].front());
        f.title = stripped[i].substr(0, mark) + " on " + names + stripped[i].substr(mark + 1);
        if (auto label = withoutRank(f.frameLabel))
            f.frameLabel = label->first.substr(0, label->first.find('\x01')) + " on " + names;
        std::sort(f.compiles.begin(), f.compiles.end());
        f.evidence.insert(f.evidence.begin(),
            { "ranks",
                names + " (" + std::to_string(ranks[i].size()) + "; evidence of rank " + firstRank
                    + ")" });
    }
    out = std::move(merged);
}
} // namespace

std::vector<Finding> findFindings(const Trace& trace, std::stop_token stop)
{
    findings::Context cx { trace, stop, {} };
    findings::recompileRules(cx);
    findings::breakRules(cx);
    findings::costRules(cx);
    findings::probeRules(cx);
    findings::rankRules(cx);
    mergeAcrossRanks(cx.out);
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
