#include "core/report/findings_render.h"

#include "core/report/findings_json.h"
#include "core/util/text_format.h"
#include "core/writer/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace dynascope {

namespace {
// Text that may hold trace text, outside code: markup escaped (text::mdText), and < > as
// entities, so no tag can start (the reports' rule: trace text never reaches Markdown as markup).
std::string mdSafe(std::string_view s)
{
    std::string out;
    for (char c : text::mdText(s)) {
        if (c == '<' || c == '>') {
            out.pop_back(); // mdText's backslash
            out += c == '<' ? "&lt;" : "&gt;";
        } else {
            out += c;
        }
    }
    return out;
}
} // namespace

nlohmann::ordered_json findingJson(
    const Finding& f, nlohmann::ordered_json compiles, nlohmann::ordered_json frame)
{
    using json = nlohmann::ordered_json;
    json j;
    j["rule"] = std::string(toString(f.rule));
    j["severity"] = toString(f.severity);
    j["title"] = f.title;
    j["compiles"] = std::move(compiles);
    j["frame"] = std::move(frame);
    json evidence = json::object();
    for (const auto& [k, v] : f.evidence)
        evidence[k] = v;
    j["evidence"] = evidence;
    j["why"] = f.why;
    j["ladder_step"] = f.ladderStep;
    j["hint"] = f.hint;
    j["code"] = f.code.empty() ? json(nullptr) : json(f.code);
    j["user_line"] = f.userFile.empty() ? json(nullptr)
                                        : json({ { "file", f.userFile }, { "line", f.userLine } });
    j["pytorch"] = { { "gb_code", f.gbCode.empty() ? json(nullptr) : json(f.gbCode) },
        { "explanation", f.explanation.empty() ? json(nullptr) : json(f.explanation) },
        { "hints", f.pytorchHints } };
    j["cost_us"] = jsonfields::us(f.costUs);
    j["count"] = f.count;
    return j;
}

std::string findingsJson(const Trace& trace, const std::vector<Finding>& findings)
{
    using json = nlohmann::ordered_json;
    json doc;
    doc["format"] = "dynascope-findings";
    doc["version"] = kFindingsJsonVersion;
    doc["generator"] = std::string("dynascope ") + DYNASCOPE_VERSION;
    json inputs = json::array();
    for (const auto& f : trace.files)
        inputs.push_back(f.path);
    doc["inputs"] = inputs;
    const FindingCounts n = countFindings(findings);
    doc["counts"] = { { "error", n.errors }, { "warning", n.warnings }, { "note", n.notes } };
    json list = json::array();
    for (const auto& f : findings) {
        json compiles = json::array();
        for (uint32_t c : f.compiles) {
            const Compile& comp = trace.compiles[c];
            compiles.push_back({ { "index", c }, { "id", comp.id.display() },
                { "rank", jsonfields::orNull(trace.files[comp.file].rank) } });
        }
        json frame = nullptr;
        if (f.frame < trace.frames.size()) {
            const Frame& fr = trace.frames[f.frame];
            frame = { { "index", f.frame }, { "function", fr.coName }, { "file", fr.coFilename },
                { "line", fr.coFirstLineno }, { "label", f.frameLabel } };
        }
        json j = findingJson(f, std::move(compiles), std::move(frame));
        list.push_back(std::move(j));
    }
    doc["findings"] = std::move(list);
    // Trace text may hold invalid UTF-8: replaced (U+FFFD), never thrown (fuzz_replay found it).
    return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string findingsText(const std::vector<Finding>& findings)
{
    std::string s;
    if (findings.empty())
        return "No findings: nothing in this trace calls for a change.\n";
    const FindingCounts n = countFindings(findings);
    s += std::to_string(findings.size()) + " finding(s): " + std::to_string(n.errors)
        + " error(s), " + std::to_string(n.warnings) + " warning(s), " + std::to_string(n.notes)
        + " note(s), most costly first\n";
    size_t i = 0;
    for (const auto& f : findings) {
        s += "\n" + std::to_string(++i) + ". " + toString(f.severity) + " ["
            + std::string(toString(f.rule)) + "] " + f.title + "\n";
        for (const auto& [k, v] : f.evidence)
            s += "   " + k + ": " + v + "\n";
        if (!f.why.empty())
            s += "   why: " + f.why + "\n";
        if (!f.hint.empty())
            s += "   next: " + f.hint + "\n";
        if (!f.code.empty())
            s += "       " + f.code + "\n";
        if (!f.gbCode.empty() || !f.explanation.empty()) {
            s += "   PyTorch" + (f.gbCode.empty() ? std::string() : " (" + f.gbCode + ")") + ": "
                + f.explanation + "\n";
            for (const auto& h : f.pytorchHints)
                s += "     hint: " + h + "\n";
        }
    }
    return s;
}

std::string findingMarkdown(const Finding& f)
{
    // Titles, evidence and PyTorch's words carry trace text: escaped or in code (text_format.h).
    std::string s = "**" + std::string(toString(f.severity)) + "** `"
        + std::string(toString(f.rule)) + "`: " + mdSafe(f.title) + "\n\n";
    for (const auto& [k, v] : f.evidence)
        s += "- " + mdSafe(k) + ": " + text::mdCode(v) + "\n";
    if (!f.evidence.empty())
        s += "\n";
    if (!f.why.empty())
        s += "Why it matters: " + mdSafe(f.why) + "\n\n";
    if (!f.hint.empty())
        s += "Next step: " + mdSafe(f.hint) + "\n\n";
    if (!f.code.empty())
        s += text::mdFence(f.code, "python") + "\n";
    if (!f.gbCode.empty() || !f.explanation.empty()) {
        s += "PyTorch" + (f.gbCode.empty() ? std::string() : " (" + mdSafe(f.gbCode) + ")")
            + " says:\n\n" + text::mdFence(f.explanation) + "\n";
        for (const auto& h : f.pytorchHints)
            s += "- Hint: " + text::mdCode(h) + "\n";
        s += "\n";
    }
    return s;
}

std::string findingsMarkdown(const std::vector<Finding>& findings, int headingLevel)
{
    const std::string h(static_cast<size_t>(std::max(1, headingLevel)), '#');
    std::string s = h + " Findings\n\n";
    if (findings.empty())
        return s + "None: nothing in this trace calls for a change.\n\n";
    const FindingCounts n = countFindings(findings);
    s += std::to_string(n.errors) + " error(s), " + std::to_string(n.warnings) + " warning(s), "
        + std::to_string(n.notes) + " note(s), most costly first.\n\n";
    size_t i = 0;
    for (const auto& f : findings)
        s += h + "# " + std::to_string(++i) + ". `" + std::string(toString(f.rule)) + "` ("
            + toString(f.severity) + ")\n\n" + findingMarkdown(f);
    return s;
}

} // namespace dynascope
