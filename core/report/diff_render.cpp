#include "core/report/diff_render.h"

#include "core/util/text_format.h"
#include "core/writer/json_fields.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace dynascope {

namespace {
using json = nlohmann::ordered_json;

json countsJson(const RunCounts& n)
{
    return { { "compiles", n.compiles }, { "recompiles", n.recompiles },
        { "graph_breaks", n.graphBreaks }, { "failures", n.failures },
        { "compile_us", jsonfields::us(n.compileUs) }, { "cache_hits", n.cacheHits },
        { "cache_misses", n.cacheMisses } };
}

json changeJson(const DiffChange& c)
{
    return { { "kind", c.kind }, { "a", c.a }, { "b", c.b }, { "text", c.text },
        { "worse", c.worse } };
}

std::string joined(const std::vector<std::string>& v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + v[i];
    return s;
}
} // namespace

std::string diffJson(const TraceDiff& d, const DiffInputs& in)
{
    json doc;
    doc["format"] = "dynascope-diff";
    doc["version"] = kDiffJsonVersion;
    doc["generator"] = std::string("dynascope ") + DYNASCOPE_VERSION;
    doc["a"] = { { "inputs", in.a },
        { "pytorch_version", d.versionA.empty() ? json(nullptr) : json(d.versionA) },
        { "totals", countsJson(d.a) } };
    doc["b"] = { { "inputs", in.b },
        { "pytorch_version", d.versionB.empty() ? json(nullptr) : json(d.versionB) },
        { "totals", countsJson(d.b) } };
    doc["changed_frames"] = d.changedFrames();
    json run = json::array();
    for (const auto& c : d.runChanges)
        run.push_back(changeJson(c));
    doc["run_changes"] = std::move(run);
    json frames = json::array();
    for (const auto& f : d.frames) {
        json changes = json::array();
        for (const auto& c : f.changes)
            changes.push_back(changeJson(c));
        frames.push_back({ { "status", toString(f.status) }, { "label", f.label },
            { "rank", jsonfields::orNull(f.rank) },
            { "matched_by", f.matchedBy.empty() ? json(nullptr) : json(f.matchedBy) },
            { "frame_a", f.frameA == kNone ? json(nullptr) : json(f.frameA) },
            { "frame_b", f.frameB == kNone ? json(nullptr) : json(f.frameB) },
            { "a", countsJson(f.a) }, { "b", countsJson(f.b) },
            { "changes", std::move(changes) } });
    }
    doc["frames"] = std::move(frames);
    // Trace text may hold invalid UTF-8: replaced (U+FFFD), never thrown (fuzz_replay found it).
    return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string diffMarkdown(const TraceDiff& d, const DiffInputs& in)
{
    std::ostringstream out;
    out << "# torch.compile: run against run\n\n";
    out << "A: " << text::mdCode(joined(in.a)) << "  \nB: " << text::mdCode(joined(in.b)) << "\n\n";
    out << "| | A | B |\n| --- | ---: | ---: |\n";
    if (!d.versionA.empty() || !d.versionB.empty())
        out << "| PyTorch | " << text::mdCode(d.versionA, true) << " | "
            << text::mdCode(d.versionB, true) << " |\n";
    auto row = [&](const char* what, uint64_t a, uint64_t b) {
        out << "| " << what << " | " << a << " | " << b << " |\n";
    };
    row("Compiles", d.a.compiles, d.b.compiles);
    row("Recompiles", d.a.recompiles, d.b.recompiles);
    row("Graph breaks", d.a.graphBreaks, d.b.graphBreaks);
    row("Failures", d.a.failures, d.b.failures);
    out << "| Compile time | " << text::duration(d.a.compileUs) << " | "
        << text::duration(d.b.compileUs) << " |\n";
    row("Cache hits", d.a.cacheHits, d.b.cacheHits);
    row("Cache misses", d.a.cacheMisses, d.b.cacheMisses);
    out << "\n";
    const size_t changed = d.changedFrames();
    if (changed == 0 && d.runChanges.empty()) {
        out << "Nothing changed: the same frames compiled the same way, times within the noise "
               "threshold.\n";
        return out.str();
    }
    out << "## What changed\n\n"
        << changed << " of " << d.frames.size()
        << " frame(s) changed, most impact first. ✗ marks a change for the worse.\n\n";
    for (const auto& c : d.runChanges)
        out << "- " << (c.worse ? "✗ " : "") << "**" << c.kind << "**: " << text::mdCode(c.text)
            << "\n";
    if (!d.runChanges.empty())
        out << "\n";
    for (const auto& f : d.frames) {
        if (f.status == FrameDiff::Status::Same)
            continue;
        out << "### " << text::mdCode(f.label) << " (" << toString(f.status)
            << (f.rank ? ", rank " + std::to_string(*f.rank) : std::string()) << ")\n\n";
        for (const auto& c : f.changes)
            out << "- " << (c.worse ? "✗ " : "") << "**" << c.kind << "**: " << text::mdCode(c.text)
                << "\n";
        out << "\n";
    }
    return out.str();
}

std::string diffHtml(const TraceDiff& d, const DiffInputs& in)
{
    using text::htmlEscape;
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<title>torch.compile: run against run</title>\n<style>"
           "body{font:14px system-ui,sans-serif;margin:24px;max-width:1100px}"
           "code{font-family:monospace}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
           "td:first-child,th:first-child{text-align:left}.worse{color:#b00}"
           "</style>\n</head>\n<body>\n<h1>torch.compile: run against run</h1>\n";
    out << "<p>A: <code>" << htmlEscape(joined(in.a)) << "</code><br>B: <code>"
        << htmlEscape(joined(in.b)) << "</code></p>\n";
    out << "<table><tr><th></th><th>A</th><th>B</th></tr>\n";
    auto row = [&](const char* what, const std::string& a, const std::string& b) {
        out << "<tr><td>" << what << "</td><td>" << htmlEscape(a) << "</td><td>" << htmlEscape(b)
            << "</td></tr>\n";
    };
    row("PyTorch", d.versionA, d.versionB);
    row("Compiles", std::to_string(d.a.compiles), std::to_string(d.b.compiles));
    row("Recompiles", std::to_string(d.a.recompiles), std::to_string(d.b.recompiles));
    row("Graph breaks", std::to_string(d.a.graphBreaks), std::to_string(d.b.graphBreaks));
    row("Failures", std::to_string(d.a.failures), std::to_string(d.b.failures));
    row("Compile time", text::duration(d.a.compileUs), text::duration(d.b.compileUs));
    out << "</table>\n<h2>What changed</h2>\n";
    if (d.changedFrames() == 0 && d.runChanges.empty())
        out << "<p>Nothing changed.</p>\n";
    auto list = [&](const std::vector<DiffChange>& changes) {
        out << "<ul>\n";
        for (const auto& c : changes)
            out << "<li" << (c.worse ? " class=\"worse\"" : "") << "><b>" << htmlEscape(c.kind)
                << "</b>: " << htmlEscape(c.text) << "</li>\n";
        out << "</ul>\n";
    };
    if (!d.runChanges.empty())
        list(d.runChanges);
    for (const auto& f : d.frames) {
        if (f.status == FrameDiff::Status::Same)
            continue;
        out << "<h3><code>" << htmlEscape(f.label) << "</code> (" << toString(f.status)
            << (f.rank ? ", rank " + std::to_string(*f.rank) : std::string()) << ")</h3>\n";
        list(f.changes);
    }
    out << "</body>\n</html>\n";
    return out.str();
}

} // namespace dynascope
