#include "core/report/run_summary.h"

#include "core/report/report.h"
#include "core/util/text_format.h"

#include <sstream>

namespace dynascope {

namespace {

// One line of trace text for a terminal: control characters (escape sequences) replaced.
std::string line(std::string_view s, size_t max = 160)
{
    std::string out = text::cleanUtf8(text::firstLine(s));
    if (out.size() > max) {
        size_t cut = max;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
            --cut;
        out = out.substr(0, cut) + "…";
    }
    return out;
}

std::string at(const std::string& file, int64_t lineNo)
{
    if (file.empty())
        return "unknown location";
    return line(text::baseName(file)) + ":" + std::to_string(lineNo);
}

} // namespace

std::string runSummaryText(const Trace& trace, size_t maxItems)
{
    ReportOptions options;
    options.verifyPayloads = false;
    const Report r = buildReport(trace, findFindings(trace), options);
    std::ostringstream out;
    const Evidence& e = r.total;
    auto n = [](uint64_t k, const char* what) {
        return std::to_string(k) + " " + what + (k == 1 ? "" : "s");
    };
    out << n(e.compiles, "compile") << " in " << n(r.frames.size(), "frame") << ", "
        << n(e.recompiles, "recompile") << ", " << n(e.graphBreaks, "graph break") << ", "
        << n(e.failures, "failure");
    if (e.totalCompileUs > 0)
        out << "; " << text::duration(e.totalCompileUs) << " compiling";
    if (e.firstCompile)
        out << " (first compile " << e.firstCompile->id << ": " << text::duration(e.firstCompileUs)
            << ")";
    out << "\n";
    for (size_t i = 0; i < r.failures.size() && i < maxItems; ++i) {
        const FailureEntry& f = r.failures[i];
        out << "  ✕ failure " << f.compile.id << " in " << line(f.function) << " ("
            << at(f.file.empty() ? f.filename : f.file, f.file.empty() ? f.functionLine : f.line)
            << "): " << line(f.type) << ": " << line(f.reason) << "\n";
    }
    for (size_t i = 0; i < r.graphBreaks.size() && i < maxItems; ++i) {
        const GraphBreakGroup& g = r.graphBreaks[i];
        out << "  ⚡ graph break" << (g.count > 1 ? " ×" + std::to_string(g.count) : "") << " at "
            << at(g.file, g.line) << ": " << line(g.reason) << "\n";
    }
    for (size_t i = 0; i < r.recompiles.size() && i < maxItems; ++i) {
        const RecompileGroup& g = r.recompiles[i];
        out << "  ↻ " << g.count << (g.count == 1 ? " recompile" : " recompiles") << " of "
            << line(g.function) << " (" << at(g.filename, g.line) << "): " << line(g.mismatch);
        if (!g.source.empty())
            out << " of " << line(g.source);
        if (!g.chains.empty() && !g.chains.front().values.empty()) {
            std::string chain;
            for (const auto& v : g.chains.front().values)
                chain += (chain.empty() ? "" : " → ") + v;
            out << ": " << line(chain);
        }
        out << "\n";
    }
    const size_t more = (r.failures.size() > maxItems ? r.failures.size() - maxItems : 0)
        + (r.graphBreaks.size() > maxItems ? r.graphBreaks.size() - maxItems : 0)
        + (r.recompiles.size() > maxItems ? r.recompiles.size() - maxItems : 0);
    if (more)
        out << "  … and " << more << " more (dynascope-cli report)\n";
    if (!trace.diagnostics.empty())
        out << "  " << trace.diagnostics.size() << " diagnostics while reading the trace\n";
    return out.str();
}

} // namespace dynascope
