// The report as one standalone HTML page: inline CSS, no scripts, no external resources (no
// fonts, images or links off the page), so it can be attached to an issue or opened offline.
// Every string that came from the trace goes through text::htmlEscape(); the only unescaped
// values in attributes are numbers this file computes. Status colours and glyphs are the
// Okabe-Ito set of shared/docs/ux.md (never colour alone); phases use lighter tints per layer.
#include "core/report/report_render.h"
#include "core/util/text_format.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace dynascope {

namespace {
using text::htmlEscape;

constexpr size_t kMaxDiagnostics = 200;
constexpr size_t kMaxTracebackLines = 60;

const char* kCss = R"css(
:root{--fg:#1d232a;--muted:#5c6670;--line:#d8dde3;--bg:#ffffff;--panel:#f6f8fa;
--ok:#009E73;--gb:#E69F00;--re:#0072B2;--fail:#D55E00;--empty:#999999;--missing:#CC79A7;
--hit:#56B4E9;--miss:#F0E442}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1180px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:18px;margin:32px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:0 0 6px}
.meta{color:var(--muted);margin:0 0 4px}
nav{margin:10px 0 0;font-size:13px}
nav a{color:var(--re);margin-right:14px;text-decoration:none}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:6px 0 8px;white-space:pre-wrap;word-break:break-word;max-height:420px;overflow:auto}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:8px 0 14px}
.card{border:1px solid var(--line);border-left:5px solid #b8c0c8;border-radius:6px;padding:8px 12px;background:var(--panel)}
.card .n{font-size:22px;font-weight:650;line-height:1.2}
.card .l{color:var(--muted);font-size:12px}
.card.re{border-left-color:var(--re)}.card.gb{border-left-color:var(--gb)}.card.fail{border-left-color:var(--fail)}
.card.ok{border-left-color:var(--ok)}.card.hit{border-left-color:var(--hit)}.card.miss{border-left-color:var(--miss)}
.card.zero .n{color:var(--muted)}
table{border-collapse:collapse;width:100%;margin:6px 0 10px}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;background:var(--panel)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.chip{display:inline-block;border-radius:10px;padding:0 7px;margin:1px 2px 1px 0;font-size:12px;white-space:nowrap;color:#fff;font-family:ui-monospace,Menlo,Consolas,monospace}
.s-ok{background:var(--ok)}.s-graph_break{background:var(--gb);color:#1d232a}.s-error{background:var(--fail)}
.s-recompile{background:var(--re)}.s-empty{background:var(--empty)}.s-missing{background:var(--missing);color:#1d232a}
.g{font-weight:700}
.c-re{color:var(--re)}.c-gb{color:#a86f00}.c-fail{color:var(--fail)}.c-ok{color:var(--ok)}
.item{border:1px solid var(--line);border-left:5px solid #b8c0c8;border-radius:6px;padding:10px 14px;margin:10px 0;background:#fff}
.item.gb{border-left-color:var(--gb)}.item.re{border-left-color:var(--re)}.item.fail{border-left-color:var(--fail)}
.count{float:right;font-weight:650;color:var(--muted)}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0 6px}
.kv dt{color:var(--muted)}.kv dd{margin:0}
.chain{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px;margin:6px 0 8px}
.chain .v{display:inline-block;border:1px solid var(--re);color:var(--re);border-radius:4px;padding:0 6px;margin:2px 0}
.chain .arrow{color:var(--muted);margin:0 6px}
.bar{display:flex;height:12px;min-width:160px;border-radius:3px;overflow:hidden;background:#eef1f4}
.bar span{display:block;height:100%}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:var(--muted);margin:4px 0 10px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.p-dynamo_tracing{background:#7fb3d5}.p-guards{background:#aed0e6}.p-dynamo_other{background:#d4e6f1}
.p-backend{background:#bfbfbf}.p-aot_autograd{background:#c3b1d9}.p-inductor{background:#9fd4b4}
.p-inductor_codegen{background:#5fb487}.p-autotuning{background:#f2cf8b}.p-cache{background:#a8dcf3}
.p-cudagraphs{background:#e6b3cf}.p-other{background:#dddddd}
.p-unattributed{background:repeating-linear-gradient(45deg,#eceff2 0 4px,#ffffff 4px 8px)}
details summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin:4px 0}
.muted{color:var(--muted)}
code.fn{font-weight:650}
footer{margin-top:36px;color:var(--muted);font-size:12px}
@media (prefers-color-scheme:dark){:root{--fg:#e3e7eb;--muted:#9aa4ae;--line:#3a424b;--bg:#16191d;--panel:#1f242a}
.item{background:#1b1f24}.bar{background:#2a3037}td,th{border-color:var(--line)}}
)css";

std::string esc(std::string_view s)
{
    return htmlEscape(s);
}

std::string where(const std::string& file, int64_t line)
{
    if (file.empty())
        return "<span class=\"muted\">unknown location</span>";
    return "<code title=\"" + esc(file) + "\">" + esc(text::baseName(file)) + ":"
        + std::to_string(line) + "</code>";
}

const char* glyph(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok:
        return "✓";
    case CompileStatus::GraphBreak:
        return "⚡";
    case CompileStatus::Error:
        return "✕";
    case CompileStatus::Empty:
        return "∅";
    case CompileStatus::Missing:
        break;
    }
    return "?";
}

const char* statusWords(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok:
        return "compiled";
    case CompileStatus::GraphBreak:
        return "graph break";
    case CompileStatus::Error:
        return "failed";
    case CompileStatus::Empty:
        return "empty graph";
    case CompileStatus::Missing:
        break;
    }
    return "metrics missing (cut log?)";
}

// A compile as a coloured chip: its status, except that a recompile that compiled shows as a
// recompile (blue ↻), as in the app's tree.
std::string chip(const CompileRef& c, bool withRank)
{
    bool recompiled = c.recompile && c.status == CompileStatus::Ok;
    std::string cls = recompiled ? "recompile" : toString(c.status);
    std::string words = recompiled ? "recompiled" : statusWords(c.status);
    return "<span class=\"chip s-" + cls + "\" title=\"" + words + " (compile #"
        + std::to_string(c.index) + ")\">" + (recompiled ? "↻" : glyph(c.status)) + " "
        + esc(compileLabel(c, withRank)) + "</span>";
}

std::string chips(const std::vector<CompileRef>& list, bool withRank, size_t max = 40)
{
    std::string s;
    for (size_t i = 0; i < list.size() && i < max; ++i)
        s += chip(list[i], withRank);
    if (list.size() > max)
        s += "<span class=\"muted\"> … " + std::to_string(list.size() - max) + " more</span>";
    return s;
}

std::string phaseBar(const PhaseTimes& p, double total)
{
    if (!(total > 0))
        return "<span class=\"muted\">no timing</span>";
    std::string s = "<div class=\"bar\">";
    for (size_t i = 0; i < kPhaseGroupCount; ++i) {
        if (!(p[i] > 0))
            continue;
        char width[32];
        std::snprintf(width, sizeof width, "%.3f", 100.0 * p[i] / total);
        auto g = static_cast<PhaseGroup>(i);
        s += std::string("<span class=\"p-") + phaseGroupId(g) + "\" style=\"width:" + width
            + "%\" title=\"" + phaseGroupLabel(g) + ": " + text::duration(p[i]) + " ("
            + text::percent(p[i] / total) + ")\"></span>";
    }
    return s + "</div>";
}

std::string phaseLegend(const PhaseTimes& p, double total)
{
    std::string s = "<div class=\"legend\">";
    for (size_t i = 0; i < kPhaseGroupCount; ++i) {
        if (!(p[i] > 0))
            continue;
        auto g = static_cast<PhaseGroup>(i);
        s += std::string("<span><i class=\"p-") + phaseGroupId(g) + "\"></i>" + phaseGroupLabel(g)
            + " " + text::duration(p[i]);
        if (total > 0)
            s += " (" + text::percent(p[i] / total) + ")";
        s += "</span>";
    }
    return s + "</div>";
}

std::string card(const std::string& cls, const std::string& value, const std::string& label,
    const std::string& sub = {})
{
    std::string s = "<div class=\"card " + cls + "\"><div class=\"n\">" + value
        + "</div><div class=\"l\">" + label + "</div>";
    if (!sub.empty())
        s += "<div class=\"l\">" + sub + "</div>";
    return s + "</div>";
}

std::string cacheText(const CacheCounts& c)
{
    auto rate = c.hitRate();
    if (!rate)
        return c.bypasses ? std::to_string(c.bypasses) + " bypassed" : "–";
    return text::percent(*rate);
}

std::string cacheDetail(const CacheCounts& c)
{
    std::string s
        = "▲ " + std::to_string(c.hits) + " hit · ▼ " + std::to_string(c.misses) + " miss";
    if (c.bypasses)
        s += " · " + std::to_string(c.bypasses) + " bypass";
    return s;
}

void evidenceCards(std::ostringstream& out, const Evidence& e, bool withRank)
{
    auto n = [](uint64_t v) { return std::to_string(v); };
    out << "<div class=\"cards\">";
    out << card(e.compiles ? "ok" : "zero", n(e.compiles), "compiles");
    out << card(e.recompiles ? "re" : "zero", "<span class=\"g c-re\">↻</span> " + n(e.recompiles),
        "recompiles");
    out << card(e.graphBreaks ? "gb" : "zero",
        "<span class=\"g c-gb\">⚡</span> " + n(e.graphBreaks), "graph breaks");
    out << card(e.failures ? "fail" : "zero", "<span class=\"g c-fail\">✕</span> " + n(e.failures),
        "failures");
    out << card("", text::duration(e.totalCompileUs), "total compile time");
    out << card("", e.firstCompile ? text::duration(e.firstCompileUs) : "–", "first compile",
        e.firstCompile ? esc(compileLabel(*e.firstCompile, withRank)) + " "
                + esc(text::utcTime(e.firstCompileStartUs))
                       : std::string());
    auto rate = e.cache.hitRate();
    out << card(!rate      ? "zero"
            : *rate >= 0.5 ? "hit"
                           : "miss",
        cacheText(e.cache), "cache hit rate", cacheDetail(e.cache));
    if (e.kernels.any())
        out << card("", std::to_string(e.kernels.generated), "kernels generated",
            esc(kernelSentence(e.kernels)));
    out << "</div>";
}
} // namespace

std::string reportHtml(const Report& rep)
{
    std::ostringstream out;
    const bool ranks = rep.files.size() > 1;
    std::string title = rep.files.size() == 1 ? std::string(text::baseName(rep.files[0].path))
                                              : std::to_string(rep.files.size()) + " files";
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<meta name=\"generator\" content=\""
        << esc(rep.generator) << "\">\n<title>torch.compile report: " << esc(title)
        << "</title>\n<style>" << kCss << "</style>\n</head>\n<body>\n<main>\n";
    out << "<header>\n<h1>torch.compile report</h1>\n<p class=\"meta\">";
    if (std::string folder = commonFolder(rep); !folder.empty()) {
        out << rep.files.size() << " files in <code>" << esc(folder) << "</code>";
    } else {
        for (size_t i = 0; i < rep.files.size(); ++i) {
            const auto& f = rep.files[i];
            out << (i ? " · " : "") << "<code>" << esc(f.path) << "</code>";
            if (f.rank)
                out << " (rank " << *f.rank << ")";
        }
    }
    out << "</p>\n<nav><a href=\"#findings\">Findings</a><a href=\"#evidence\">Evidence</a><a "
           "href=\"#frames\">Frames</a>"
           "<a href=\"#graph-breaks\">Graph breaks</a><a href=\"#recompiles\">Recompiles</a>"
           "<a href=\"#failures\">Failures</a><a href=\"#diagnostics\">Diagnostics</a></nav>\n"
           "</header>\n";

    // Findings: what is wrong, most costly first (core/analysis/findings.h).
    out << "<section id=\"findings\">\n<h2>Findings</h2>\n";
    if (rep.findings.empty())
        out << "<p class=\"muted\">None: nothing in this trace calls for a change.</p>\n";
    for (size_t i = 0; i < rep.findings.size(); ++i) {
        const Finding& f = rep.findings[i].finding;
        const char* cls = f.severity == FindingSeverity::Error ? "item fail"
            : f.severity == FindingSeverity::Warning           ? "item"
                                                               : "item muted";
        out << "<div class=\"" << cls << "\"><h3>" << i + 1 << ". <span class=\"mono\">"
            << toString(f.severity) << " " << esc(toString(f.rule)) << "</span> " << esc(f.title)
            << "</h3>\n";
        if (!rep.findings[i].compiles.empty())
            out << "<p>" << chips(rep.findings[i].compiles, ranks, 12) << "</p>\n";
        out << "<dl class=\"kv\">";
        for (const auto& [k, v] : f.evidence)
            out << "<dt>" << esc(k) << "</dt><dd>" << esc(v) << "</dd>";
        if (!f.why.empty())
            out << "<dt>Why it matters</dt><dd>" << esc(f.why) << "</dd>";
        if (!f.hint.empty())
            out << "<dt>Next step</dt><dd>" << esc(f.hint) << "</dd>";
        out << "</dl>\n";
        if (!f.code.empty())
            out << "<pre>" << esc(f.code) << "</pre>\n";
        if (!f.explanation.empty())
            out << "<details><summary>PyTorch"
                << (f.gbCode.empty() ? std::string() : " (" + esc(f.gbCode) + ")")
                << "</summary><pre>" << esc(f.explanation) << "</pre></details>\n";
        out << "</div>\n";
    }
    out << "</section>\n";

    // Evidence.
    out << "<section id=\"evidence\">\n<h2>Evidence</h2>\n";
    evidenceCards(out, rep.total, ranks);
    if (rep.files.size() > 1) {
        out << "<table><thead><tr><th>File</th><th class=\"num\">Rank</th><th "
               "class=\"num\">Compiles</th><th class=\"num\">Recompiles</th><th "
               "class=\"num\">Graph "
               "breaks</th><th class=\"num\">Failures</th><th class=\"num\">Total compile "
               "time</th><th class=\"num\">First compile</th><th class=\"num\">Cache hit "
               "rate</th><th class=\"num\">Diagnostics</th></tr></thead><tbody>\n";
        for (const auto& f : rep.files) {
            const Evidence& e = f.evidence;
            out << "<tr><td><code title=\"" << esc(f.path) << "\">" << esc(text::baseName(f.path))
                << "</code></td><td class=\"num\">" << (f.rank ? std::to_string(*f.rank) : "–")
                << "</td><td class=\"num\">" << e.compiles << "</td><td class=\"num\">"
                << e.recompiles << "</td><td class=\"num\">" << e.graphBreaks
                << "</td><td class=\"num\">" << e.failures << "</td><td class=\"num\">"
                << text::duration(e.totalCompileUs) << "</td><td class=\"num\">"
                << (e.firstCompile ? text::duration(e.firstCompileUs) : "–")
                << "</td><td class=\"num\">" << cacheText(e.cache) << "</td><td class=\"num\">"
                << f.diagnostics << "</td></tr>\n";
        }
        out << "</tbody></table>\n";
    }
    if (rep.total.compilesWithoutStart)
        out << "<p class=\"muted\">" << rep.total.compilesWithoutStart
            << " compile(s) were rebuilt from records whose <code>dynamo_start</code> is missing; "
               "they are not counted as compiles.</p>\n";
    if (rep.total.totalCompileUs > 0) {
        out << "<h3>Time by phase</h3>\n" << phaseBar(rep.total.phases, rep.total.totalCompileUs);
        out << phaseLegend(rep.total.phases, rep.total.totalCompileUs);
    }
    out << "</section>\n";

    // Frames.
    out << "<section id=\"frames\">\n<h2>Frames</h2>\n";
    if (rep.frames.empty())
        out << "<p class=\"muted\">No compiled frames.</p>\n";
    else {
        out << "<table><thead><tr>" << (ranks ? "<th class=\"num\">Rank</th>" : "")
            << "<th>Function</th><th class=\"num\">Compiles</th><th "
               "class=\"num\">Recompiles</th><th class=\"num\">Graph breaks</th><th "
               "class=\"num\">Failures</th><th class=\"num\">First compile</th><th "
               "class=\"num\">Total</th><th>Time by phase</th><th class=\"num\">Cache</th><th "
               "class=\"num\">Guards</th></tr></thead><tbody>\n";
        for (const FrameEntry* fp : framesByCompileTime(rep)) {
            const FrameEntry& f = *fp;
            const Evidence& e = f.evidence;
            out << "<tr>";
            if (ranks)
                out << "<td class=\"num\">" << (f.rank ? std::to_string(*f.rank) : "–") << "</td>";
            out << "<td><code class=\"fn\">" << esc(f.function) << "</code> "
                << where(f.filename, f.line);
            if (!f.callerFile.empty())
                out << "<br><span class=\"muted\">called from " << where(f.callerFile, f.callerLine)
                    << " in <code>" << esc(f.callerFunction) << "</code></span>";
            out << "<br>" << chips(f.compiles, false) << "</td>";
            out << "<td class=\"num\">" << e.compiles << "</td><td class=\"num\">" << e.recompiles
                << "</td><td class=\"num\">" << e.graphBreaks << "</td><td class=\"num\">"
                << e.failures << "</td><td class=\"num\">"
                << (e.firstCompile ? text::duration(e.firstCompileUs) : "–")
                << "</td><td class=\"num\">" << text::duration(e.totalCompileUs) << "</td><td>"
                << phaseBar(e.phases, e.totalCompileUs) << "</td><td class=\"num\" title=\""
                << cacheDetail(e.cache) << "\">" << cacheText(e.cache) << "</td><td class=\"num\">"
                << (f.guardCount ? std::to_string(*f.guardCount) : "–") << "</td></tr>\n";
        }
        out << "</tbody></table>\n";
        out << "<p class=\"muted\">Frames by total compile time. Time by phase: each moment of a "
               "compile goes to the innermost "
               "chromium span covering it, grouped by compiler layer; the parts add up to the "
               "compile time.</p>\n";
    }
    out << "</section>\n";

    // Graph breaks.
    uint64_t breakTotal = 0;
    for (const auto& g : rep.graphBreaks)
        breakTotal += g.count;
    out << "<section id=\"graph-breaks\">\n<h2><span class=\"g c-gb\">⚡</span> Graph breaks</h2>\n";
    if (rep.graphBreaks.empty())
        out << "<p class=\"muted\">None.</p>\n";
    else
        out << "<p class=\"muted\">" << rep.graphBreaks.size() << " distinct, " << breakTotal
            << " in all (deduplicated by reason and user line).</p>\n";
    for (const auto& g : rep.graphBreaks) {
        out << "<div class=\"item gb\"><span class=\"count\">× " << g.count << "</span><h3>"
            << esc(text::firstLine(g.reason)) << "</h3>\n<dl class=\"kv\"><dt>Where</dt><dd>"
            << where(g.file, g.line);
        if (!g.file.empty())
            out << " <span class=\"muted mono\">" << esc(g.file) << "</span>";
        out << "</dd><dt>In</dt><dd><code>" << esc(g.function) << "</code> "
            << chips(g.compiles, ranks) << "</dd>";
        if (!g.resumes.empty())
            out << "<dt>Resumes in</dt><dd>" << chips(g.resumes, ranks) << "</dd>";
        out << "</dl>\n";
        if (g.reason.find('\n') != std::string::npos)
            out << "<pre>" << esc(g.reason) << "</pre>\n";
        if (!g.traceback.empty())
            out << "<details><summary>User code traceback</summary><pre>"
                << esc(text::headLines(g.traceback, kMaxTracebackLines)) << "</pre></details>\n";
        out << "</div>\n";
    }
    out << "</section>\n";

    // Recompiles.
    out << "<section id=\"recompiles\">\n<h2><span class=\"g c-re\">↻</span> Recompiles</h2>\n";
    if (rep.recompiles.empty())
        out << "<p class=\"muted\">None.</p>\n";
    else
        out << "<p class=\"muted\">" << rep.recompiles.size() << " group(s), "
            << rep.total.recompiles
            << " recompile(s) in all (grouped by failed guard, guarded source and frame).</p>\n";
    for (const auto& g : rep.recompiles) {
        out << "<div class=\"item re\"><span class=\"count\">× " << g.count << "</span><h3>";
        if (g.mismatch == "unknown")
            out << "No recompile reason logged";
        else {
            out << (g.guardKind.empty() ? std::string("Guard")
                                        : "<code>" + esc(g.guardKind) + "</code>")
                << " " << esc(g.mismatch) << " mismatch";
            if (!g.source.empty())
                out << " on <code>" << esc(g.source) << "</code>";
        }
        out << " in <code>" << esc(g.function) << "</code> " << where(g.filename, g.line)
            << "</h3>\n";
        for (const auto& c : g.chains) {
            out << "<div class=\"chain\">";
            if (ranks && c.rank)
                out << "<span class=\"muted\">rank " << *c.rank << ": </span>";
            for (size_t k = 0; k < c.values.size(); ++k)
                out << (k ? "<span class=\"arrow\">→</span>" : "") << "<span class=\"v\">"
                    << esc(c.values[k]) << "</span>";
            out << "</div>\n";
        }
        if (!g.guardExpr.empty()) {
            out << "<p class=\"muted\">Failed guard in "
                << (g.steps.front().earlier ? esc(compileLabel(*g.steps.front().earlier, ranks))
                                            : std::string("the earlier compile"));
            if (!g.guardWhere.empty())
                out << ", made at <code>" << esc(g.guardWhere) << "</code>";
            out << ":</p><pre>" << esc(g.guardKind + ": " + g.guardExpr) << "</pre>\n";
        }
        out << "<table><thead><tr><th>Recompile</th><th>Against</th><th>Reason</th></tr></thead>"
               "<tbody>\n";
        for (const auto& s : g.steps) {
            out << "<tr><td>" << chip(s.compile, ranks) << "</td><td>"
                << (s.earlier ? chip(*s.earlier, ranks) : std::string("–")) << "</td><td><code>"
                << esc(text::firstLine(s.detail)) << "</code>";
            if (s.otherReasons)
                out << " <span class=\"muted\">(+" << s.otherReasons
                    << " against older entries)</span>";
            out << "</td></tr>\n";
        }
        out << "</tbody></table></div>\n";
    }
    out << "</section>\n";

    // Failures.
    out << "<section id=\"failures\">\n<h2><span class=\"g c-fail\">✕</span> Failures</h2>\n";
    if (rep.failures.empty())
        out << "<p class=\"muted\">None.</p>\n";
    for (const auto& f : rep.failures) {
        out << "<div class=\"item fail\"><h3>" << chip(f.compile, ranks) << " <code>"
            << esc(f.function) << "</code>: <code>" << esc(f.type) << "</code></h3>\n"
            << "<dl class=\"kv\"><dt>Function</dt><dd>" << where(f.filename, f.functionLine)
            << "</dd>";
        if (!f.file.empty())
            out << "<dt>User frame</dt><dd>" << where(f.file, f.line)
                << " <span class=\"muted mono\">" << esc(f.file) << "</span></dd>";
        out << "</dl>\n";
        if (!f.reason.empty())
            out << "<pre>" << esc(f.reason) << "</pre>\n";
        if (!f.traceback.empty())
            out << "<details><summary>Traceback</summary><pre>"
                << esc(text::headLines(f.traceback, kMaxTracebackLines)) << "</pre></details>\n";
        out << "</div>\n";
    }
    out << "</section>\n";

    // Diagnostics.
    out << "<section id=\"diagnostics\">\n<h2>Diagnostics</h2>\n";
    if (rep.diagnostics.empty())
        out << "<p class=\"muted\">None"
            << (rep.payloadsVerified ? "" : " (payload hashes not verified)") << ".</p>\n";
    else {
        out << "<p class=\"muted\">" << rep.diagnostics.size()
            << " problem(s) found while reading; loading kept everything that parsed"
            << (rep.payloadsVerified ? "" : " (payload hashes not verified)") << ".</p>\n";
        out << "<table><thead><tr><th>File</th><th class=\"num\">Line</th><th>Code</th>"
               "<th>Message</th></tr></thead><tbody>\n";
        for (size_t i = 0; i < rep.diagnostics.size() && i < kMaxDiagnostics; ++i) {
            const auto& d = rep.diagnostics[i];
            out << "<tr><td><code title=\"" << esc(d.file) << "\">" << esc(text::baseName(d.file))
                << "</code></td><td class=\"num\">" << d.line << "</td><td><code>"
                << toString(d.code) << "</code></td><td>" << esc(d.message) << "</td></tr>\n";
        }
        out << "</tbody></table>\n";
        if (rep.diagnostics.size() > kMaxDiagnostics)
            out << "<p class=\"muted\">… and " << rep.diagnostics.size() - kMaxDiagnostics
                << " more (the JSON report lists all).</p>\n";
    }
    out << "</section>\n<footer>Generated by " << esc(rep.generator)
        << ". Compile ids are PyTorch's; the number after # is the compile's position in the "
           "trace (ids repeat after <code>torch._dynamo.reset()</code>).</footer>\n"
           "</main>\n</body>\n</html>\n";
    return out.str();
}

} // namespace dynascope
