#include "core/analysis/findings.h"

#include "core/analysis/findings_rules.h"
#include "core/util/text_format.h"

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
        s += " (" + text::codePlace(baseName(f.coFilename), f.coFirstLineno) + ")";
    if (withRank && t.files.size() > 1 && t.files[f.file].rank)
        s += " on rank " + std::to_string(*t.files[f.file].rank);
    return s;
}
} // namespace

std::string Context::codeLabel(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, false, false) : std::string();
}

std::string Context::codeTitle(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, true, false)
                                       : std::string("a frame");
}

std::string Context::frameMention(uint32_t frame) const
{
    return frame < trace.frames.size() ? frameName(trace, frame, true) : std::string("a frame");
}

void Context::setTitle(Finding& f, std::string aboutFrame, std::string rest)
{
    const size_t i = static_cast<size_t>(&f - out.data());
    rankAtOf(i) = aboutFrame.size();
    f.title = std::move(aboutFrame) + rest;
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

Finding& Context::add(Rule rule, FindingSeverity severity, uint32_t frame)
{
    const RuleInfo& info = ruleInfo(rule);
    Finding& f = out.emplace_back();
    rankAt.push_back(std::string::npos);
    f.rule = rule;
    f.severity = severity;
    f.frame = frame;
    f.ladderStep = std::string(info.ladderStep);
    if (frame >= trace.frames.size())
        return f;
    const std::optional<int64_t>& rank = trace.files[trace.frames[frame].file].rank;
    if (info.comparesRanks || trace.files.size() < 2 || !rank) {
        // The rank comparisons name their ranks themselves; the label still says whose frame.
        f.frameLabel = frameName(trace, frame, false);
        return f;
    }
    f.frameLabel = codeLabel(frame);
    f.ranks = { *rank };
    return f;
}

size_t& Context::rankAtOf(size_t finding)
{
    return rankAt[finding];
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
// The words that name a finding's ranks, in its title (where setTitle left their place) and
// after its frame's label: "on rank 3", "on ranks 0-255".
void nameRanks(std::vector<Finding>& out, const std::vector<size_t>& rankAt)
{
    for (size_t i = 0; i < out.size(); ++i) {
        Finding& f = out[i];
        if (f.ranks.empty())
            continue;
        const std::string words = " on " + rankRanges(f.ranks);
        if (rankAt[i] != std::string::npos && rankAt[i] <= f.title.size())
            f.title.insert(rankAt[i], words);
        if (!f.frameLabel.empty())
            f.frameLabel += words;
    }
}

// The same finding on several ranks (a graph break every rank takes) is one finding that names
// the ranks ("on ranks 0-255"): a 256-rank job listed it 256 times. Findings match when their
// rule, user line and title (which does not name the rank: nameRanks() does) are the same; only
// findings whose title is about their frame's code merge. The first one's evidence stands for
// all, compiles and count are the sums, the cost is the largest rank's (ranks compile at the
// same time: a job waits for its slowest rank, not for the sum). The rank rules compare ranks
// and are left as they are.
void mergeAcrossRanks(std::vector<Finding>& out, std::vector<size_t>& rankAt)
{
    std::unordered_map<std::string, size_t> firstOf;
    std::vector<Finding> merged;
    std::vector<size_t> mergedRankAt;
    for (size_t i = 0; i < out.size(); ++i) {
        Finding& f = out[i];
        if (f.ranks.size() != 1 || rankAt[i] == std::string::npos) {
            merged.push_back(std::move(f));
            mergedRankAt.push_back(rankAt[i]);
            continue;
        }
        const std::string key = std::string(toString(f.rule)) + '\n' + f.title + '\n' + f.userFile
            + ':' + std::to_string(f.userLine);
        auto [it, added] = firstOf.try_emplace(key, merged.size());
        if (added) {
            merged.push_back(std::move(f));
            mergedRankAt.push_back(rankAt[i]);
            continue;
        }
        Finding& into = merged[it->second];
        into.ranks.push_back(f.ranks.front());
        into.compiles.insert(into.compiles.end(), f.compiles.begin(), f.compiles.end());
        into.costUs = std::max(into.costUs, f.costUs); // ranks compile side by side
        into.count += f.count;
    }
    for (Finding& f : merged) {
        if (f.ranks.size() < 2)
            continue;
        const std::string firstRank = std::to_string(f.ranks.front());
        std::sort(f.ranks.begin(), f.ranks.end());
        f.ranks.erase(std::unique(f.ranks.begin(), f.ranks.end()), f.ranks.end());
        std::sort(f.compiles.begin(), f.compiles.end());
        f.evidence.insert(f.evidence.begin(),
            { "ranks",
                rankRanges(f.ranks) + " (" + std::to_string(f.ranks.size()) + "; evidence of rank "
                    + firstRank + ")" });
    }
    out = std::move(merged);
    rankAt = std::move(mergedRankAt);
}
} // namespace

std::vector<Finding> findFindings(const Trace& trace, std::stop_token stop)
{
    findings::Context cx { trace, stop, {}, {} };
    findings::recompileRules(cx);
    findings::breakRules(cx);
    findings::costRules(cx);
    findings::kernelRules(cx);
    findings::cudagraphRules(cx);
    findings::probeRules(cx);
    findings::rankRules(cx);
    mergeAcrossRanks(cx.out, cx.rankAt);
    nameRanks(cx.out, cx.rankAt);
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
