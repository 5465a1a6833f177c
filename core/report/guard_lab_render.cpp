#include "core/report/guard_lab_render.h"

#include "core/analysis/tensor_model.h"
#include "core/model/trace.h"
#include "core/util/text_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace dynascope {

namespace {

std::string joined(const std::vector<std::string>& parts)
{
    std::string s;
    for (const auto& p : parts)
        s += (s.empty() ? "" : ", ") + p;
    return s;
}

// "TENSOR_MATCH on size mismatch at index 0: expected 32, actual 1000"
std::string describe(const GuardCheck& g)
{
    std::string s = g.kind.empty() ? std::string("guard") : g.kind;
    if (!g.what.empty())
        s += ": " + g.what;
    if (!g.expected.empty() || !g.actual.empty())
        s += " (expected " + (g.expected.empty() ? std::string("?") : g.expected) + ", actual "
            + (g.actual.empty() ? std::string("?") : g.actual) + ")";
    return s;
}

nlohmann::ordered_json checkJson(const GuardCheck& g)
{
    nlohmann::ordered_json j;
    j["kind"] = g.kind;
    j["guard"] = g.expr;
    j["outcome"] = toString(g.outcome);
    j["what"] = g.what;
    j["expected"] = g.expected;
    j["actual"] = g.actual;
    if (!g.needs.empty())
        j["needs"] = g.needs;
    return j;
}

} // namespace

std::string guardLabText(
    const GuardLabQuestion& q, const GuardLabAnswer& a, const std::optional<RangeAnswer>& range)
{
    std::ostringstream out;
    const size_t total = std::max(q.entries, a.entries.size());
    out << q.frameLabel << ": " << total << (total == 1 ? " cache entry" : " cache entries")
        << ", checked newest first (the first that matches runs), against: " << q.input << "\n";
    if (range) {
        out << "\n";
        for (const RangeRow& r : range->rows)
            out << "  "
                << (r.lo == r.hi ? std::to_string(r.lo)
                                 : std::to_string(r.lo) + ".." + std::to_string(r.hi))
                << "  " << r.verdict << "\n";
        if (!range->advice.empty())
            out << "\n" << range->advice << "\n";
        return out.str();
    }
    out << "\n";
    for (const EntryAnswer& e : a.entries) {
        out << "  " << e.id << "  ";
        if (e.outcome == GuardOutcome::Pass)
            out << "all " << e.guards << " guards pass";
        else if (e.outcome == GuardOutcome::Fail && e.failed) {
            out << "fails " << describe(*e.failed);
            if (!e.failed->expr.empty())
                out << "\n        " << e.failed->expr;
        } else {
            out << "not known: " << e.unknown.size() << " guard(s) need facts the input does not "
                << "give";
            for (const GuardCheck& g : e.unknown)
                out << "\n        " << (g.kind.empty() ? "guard" : g.kind) << " " << g.expr
                    << (g.needs.empty() ? "" : "  (needs " + joined(g.needs) + ")");
        }
        if (e.notUnderstood)
            out << "\n        (" << e.notUnderstood << " guard(s) of a form the lab does not read)";
        out << "\n";
    }
    if (a.entries.size() < total)
        out << "  (" << total - a.entries.size()
            << (total - a.entries.size() == 1 ? " older entry is" : " older entries are")
            << " not checked: one matched first)\n";
    out << "\nverdict: " << a.verdict << "\n";
    if (a.recompiles && !a.automaticDynamic.empty())
        out << "automatic dynamic: " << a.automaticDynamic << "\n";
    return out.str();
}

std::string guardLabJson(
    const GuardLabQuestion& q, const GuardLabAnswer& a, const std::optional<RangeAnswer>& range)
{
    nlohmann::ordered_json j;
    j["format"] = "dynascope-guard-lab";
    j["format_version"] = 1;
    j["frame"] = q.frameLabel;
    j["input"] = q.input;
    j["cache_entries"] = std::max(q.entries, a.entries.size());
    j["verdict"] = a.verdict;
    j["known"] = a.known;
    j["reused"] = a.reused && *a.reused < a.entries.size()
        ? nlohmann::ordered_json(a.entries[*a.reused].id)
        : nlohmann::ordered_json(nullptr);
    j["recompiles"] = a.recompiles;
    j["recompile_limit"] = a.recompileLimit;
    j["entries_left"] = a.entriesLeft;
    j["automatic_dynamic"] = a.automaticDynamic;
    // What computed the dispatch key sets: c10 of the libtorch this build links, or nothing.
    j["tensor_model"] = *tensorModelLibrary() ? nlohmann::ordered_json(tensorModelLibrary())
                                              : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const EntryAnswer& e : a.entries) {
        nlohmann::ordered_json je;
        je["id"] = e.id;
        je["compile_index"] = e.compile;
        je["outcome"] = toString(e.outcome);
        je["guards"] = e.guards;
        je["passed"] = e.passed;
        je["not_understood"] = e.notUnderstood;
        je["failed"] = e.failed ? checkJson(*e.failed) : nlohmann::ordered_json(nullptr);
        nlohmann::ordered_json unknown = nlohmann::ordered_json::array();
        for (const GuardCheck& g : e.unknown)
            unknown.push_back(checkJson(g));
        je["not_known"] = std::move(unknown);
        entries.push_back(std::move(je));
    }
    j["entries"] = std::move(entries);
    if (range) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const RangeRow& r : range->rows)
            rows.push_back({ { "from", r.lo }, { "to", r.hi }, { "verdict", r.verdict } });
        j["range"] = { { "rows", std::move(rows) }, { "advice", range->advice } };
    }
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<std::string> askGuardLab(const Trace& trace, const std::string& frameKey,
    const std::vector<std::string>& inputs, bool json, std::string& error)
{
    GuardInput input;
    std::string described;
    for (const std::string& text : inputs) {
        std::string bad;
        if (!parseGuardInput(text, input, bad)) {
            error = "'" + text + "': " + bad;
            return std::nullopt;
        }
        described += (described.empty() ? "" : "; ") + text;
    }
    if (input.empty()) {
        error = "no input described, e.g. \"x: f32[48, 128]\"";
        return std::nullopt;
    }
    const auto frame = findGuardFrame(trace, frameKey, error);
    if (!frame) {
        if (error.empty())
            error = "no frame '" + frameKey + "' in the trace";
        return std::nullopt;
    }
    const Frame& f = trace.frames[*frame];
    size_t entries = 0;
    for (uint32_t c : f.compiles)
        entries += bool(trace.compiles[c].guards);
    const GuardLabQuestion q {
        f.coName + " (" + text::codePlace(f.coFilename, f.coFirstLineno) + ")", described, entries
    };
    const GuardLabAnswer answer = evaluateGuards(trace, *frame, input);
    std::optional<RangeAnswer> range;
    if (input.range)
        range = evaluateRange(trace, *frame, input);
    return json ? guardLabJson(q, answer, range) : guardLabText(q, answer, range);
}

} // namespace dynascope
