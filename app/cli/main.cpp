// dynascope-cli: summaries, compile reports and exports of TORCH_TRACE logs, from the same core
// as the app. Exit status: 0 success, 1 usage error, 2 an input could not be read (or the output
// could not be written).
#include "app/cli/run_commands.h"
#include "core/export/chrome_trace.h"
#include "core/export/timeline_svg.h"
#include "core/export/trace_subset.h"
#include "core/load/loader.h"
#include "core/report/diff_render.h"
#include "core/report/findings_render.h"
#include "core/report/guard_lab_render.h"
#include "core/report/report_render.h"
#include "core/report/why_render.h"
#include "core/writer/summary_json.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* kSummaryHelp
    = R"(  summary [--json] [--latest] [--run N|newest|all] [--no-verify] [--max-decompressed BYTES]
          PATH...
      Per file, per compile and total counts of a trace (a file, a folder of per-rank files,
      or .zst/.gz; TORCH_LOGS text too, recognised by content; - reads standard input).
      --json prints the JSON document described in docs/cli.md.
      A folder's files are grouped into runs (by time and the ranks they claim; identical
      files are left out as duplicates) and the newest run is read: --run N reads run N (1 =
      the oldest), --run all every file. Files named one by one are always read.
      --latest takes only the newest trace file of a folder; --no-verify skips the payload
      MD5 check. --max-decompressed BYTES refuses a .zst/.gz (or pipe) input that expands past
      BYTES (default 64 GiB).
)";

const char* kReportHelp
    = R"(  report [--format md|html|json] [-o FILE] [--latest] [--run N|newest|all] [--no-verify]
          PATH...
      Compile report: an evidence table, per-frame counts and time by phase, distinct graph
      breaks, recompile reasons grouped by guard with the values that changed, failures and
      diagnostics. Markdown on stdout by default; the format follows -o's extension (.md,
      .html, .json) unless --format says otherwise. The HTML page stands alone.
)";

const char* kDiagnoseHelp
    = R"(  diagnose [--json] [--min-severity note|warning|error] [--latest] [--run N|newest|all]
           [-o FILE] PATH...
      What is wrong in the trace, most costly first: recompiles and the guard that failed,
      graph breaks, failures and the compiler layer that failed, compile time against the run,
      cache misses; each with its evidence and the next step (code where there is some), and
      PyTorch's own GB code and hints. --json prints the "dynascope-findings" document
      (docs/findings.md). Exits 0 once it ran, whatever it found.
)";

const char* kDiffHelp
    = R"(  diff A B [--json | --format md|html|json] [-o FILE] [--fail-on LIST] [--latest]
           [--run N|newest|all]
      What changed between two traces of a program (each a file or a folder): frames matched
      by code object, per frame compiles and recompiles, graph breaks added, removed or moved,
      recompile reasons, guard changes (a size that went dynamic), failures new and fixed,
      compile time per frame and phase beyond the noise, cache hits that became misses, the
      PyTorch version, findings in one run only; most impact first. Markdown by default.
      --fail-on graph-breaks,recompiles,failures,compile-time=20% exits 3 when B is worse
      than A in any of them (for CI); otherwise 0 once it ran.
)";

const char* kWhyHelp = R"(  why [--md] [--folded] [--latest] [--run N|newest|all] [-o FILE] PATH ID
      Why one compile happened and what went wrong, as the app's Why tab says it: the graph
      break it resumes after, the guard that failed (expected and actual, where it was made,
      the values along the frame, the fix), each graph break with PyTorch's words, the
      failure and its layer, the call site. ID: [0/1], 0/1, or #INDEX (position in the
      trace; needed when ids repeat). Plain text by default, --md Markdown; --folded leaves
      the older cache entries' rejections out, as the app does until asked.
)";

const char* kGuardsHelp
    = R"(  guards [--json] [--latest] [--run N|newest|all] [-o FILE] PATH --frame NAME|[ID]|#INDEX
           --input DESCRIPTION...
      The guard lab: would this input reuse one of the frame's compiles or recompile? Each
      compile is a cache entry; like Dynamo, the newest is checked first and the first whose
      guards all pass runs. Per entry: reused, or the first guard that fails (expected and
      actual), or "not known" with the facts that would settle it; then the verdict, the
      recompile limit left and what automatic dynamic would make dynamic. DESCRIPTION, one or
      more (--input again, or ";"): "x: f32[48, 128]", "x: bf16[8, 3, 224, 224] cuda
      channels_last requires_grad", "x: f32[8, 128] stride=[256, 1] dynamic=0", "k: 7",
      "training: False", "grad: off", "autocast: cuda bf16"; "x.size(0) in 1..512" answers
      for every size (a table, and the fewest mark_dynamic calls for one compile). What the
      input does not say comes from the recorded call. --json prints the
      "dynascope-guard-lab" document (docs/cli.md).
)";

const char* kExportHelp
    = R"(  export chrome [--latest] [--run N|newest|all] [--no-phases] -o OUT.json PATH...
      Chrome trace JSON (Perfetto, chrome://tracing): a track per rank and frame, an event per
      compile with its phases, instants for graph breaks, recompiles, failures and cache events.
  export svg [--width N] [--latest] [--run N|newest|all] -o OUT.svg PATH...
      A small timeline picture (standalone SVG, N pixels wide, default 720): a lane per frame
      (the 12 busiest), each compile a bar in its status colour with marks for graph breaks,
      failures and recompiles, and its id, status and reasons on hover.
  export subset --compiles ID[,ID...] [--redact] [--latest] [--run N|newest|all] -o OUT.log
          PATH...
      A TORCH_TRACE file with only the selected compiles' records (and the string-table entries
      they use). IDs: [0/1], 0/1, or #INDEX (position in the trace; needed when ids repeat).
      --redact drops payloads (chromium events kept) and replaces file paths and function
      names with placeholders (/redacted/file1.py, fn1).
      -o - writes to stdout; an output that is one of the inputs is refused.
)";

const char* kUsageTail = R"(
Options:
  -h, --help      Show this help (COMMAND --help: that command's help)
  --version       Show the version

Exit status: 0 on success, 1 on a usage error (an unknown compile id included), 2 when an input
cannot be read or the output cannot be written, 3 when diff --fail-on finds B worse than A.
record exits with the program's status (127: the command was not found); probe with 0 once it
has run every configuration, whatever they did.
Diagnostics go to stderr as file:line: message.
)";

void printUsage(const char* commandHelp)
{
    std::cout << "Usage: dynascope-cli COMMAND [OPTIONS] PATH...\n\n";
    if (commandHelp)
        std::cout << commandHelp << kUsageTail;
    else
        std::cout << "Commands:\n"
                  << kSummaryHelp << kDiagnoseHelp << kWhyHelp << kGuardsHelp << kReportHelp
                  << kDiffHelp << kExportHelp << dynascope::cli::kRecordHelp
                  << dynascope::cli::kProbeHelp << kUsageTail;
}

int usageError(const std::string& message)
{
    std::cerr << "dynascope-cli: " << message << "\nTry 'dynascope-cli --help'.\n";
    return 1;
}

int summary(const std::vector<std::string>& args)
{
    bool json = false;
    dynascope::LoadOptions options;
    dynascope::SummaryOptions summaryOptions;
    std::vector<std::string> paths;
    bool wantLimit = false, wantRun = false;
    for (const auto& a : args) {
        if (wantRun) {
            wantRun = false;
            if (!dynascope::parseRunChoice(a, options))
                return usageError("--run needs a run number, 'newest' or 'all', not '" + a + "'");
        } else if (wantLimit) {
            // --max-decompressed BYTES: LoadOptions::maxDecompressedBytes (zip bombs, /dev/zero).
            wantLimit = false;
            size_t end = 0;
            try {
                options.maxDecompressedBytes = std::stoull(a, &end);
            } catch (const std::exception&) {
                end = 0;
            }
            if (end == 0 || end != a.size() || a.starts_with("-"))
                return usageError("--max-decompressed needs a number of bytes, not '" + a + "'");
        } else if (a == "--max-decompressed")
            wantLimit = true;
        else if (a == "--json")
            json = true;
        else if (a == "--latest")
            options.newestOnly = true;
        else if (a == "--run")
            wantRun = true;
        else if (a == "--no-verify")
            summaryOptions.verifyPayloads = false;
        else if (a.starts_with("-") && a != "-")
            return usageError("unknown option '" + a + "' for summary");
        else
            paths.push_back(a);
    }
    if (wantLimit)
        return usageError("--max-decompressed needs a number of bytes");
    if (wantRun)
        return usageError("--run needs a run number, 'newest' or 'all'");
    if (paths.empty())
        return usageError("summary needs at least one PATH");
    // The payload hashes are checked as the files are scanned, on the scanning threads; the
    // check below only reports what the load found.
    options.verifyPayloads = summaryOptions.verifyPayloads;
    auto result = dynascope::load(paths, options);
    if (!result.errors.empty()) {
        for (const auto& e : result.errors)
            std::cerr << e.format() << "\n";
        return 2;
    }
    const auto& trace = *result.trace;
    for (const auto& d : trace.diagnostics)
        std::cerr << d.format() << "\n";
    dynascope::Trace::PayloadCheck check;
    if (summaryOptions.verifyPayloads) {
        check = trace.verifyPayloads();
        summaryOptions.check = &check;
        for (const auto& d : check.diagnostics)
            std::cerr << d.format() << "\n";
    }
    std::string out = json ? dynascope::summaryJson(trace, summaryOptions)
                           : dynascope::summaryText(trace, summaryOptions);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

// Loads the inputs; prints diagnostics to stderr. Returns nullopt (exit 2) when an input cannot
// be read.
std::optional<dynascope::LoadResult> loadInputs(
    const std::vector<std::string>& paths, const dynascope::LoadOptions& options)
{
    auto result = dynascope::load(paths, options);
    if (!result.errors.empty() || !result.trace) {
        for (const auto& e : result.errors)
            std::cerr << e.format() << "\n";
        return std::nullopt;
    }
    for (const auto& d : result.trace->diagnostics)
        std::cerr << d.format() << "\n";
    return result;
}

// Whether `output` names one of the trace's input files (an existing file, compared by identity).
bool isInput(const std::string& output, const dynascope::Trace& trace)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(output, ec))
        return false;
    for (const auto& f : trace.files) {
        std::error_code ec2;
        if (fs::equivalent(output, f.path, ec2) && !ec2)
            return true;
    }
    return false;
}

// Writes data to `output` ("-" or "" = stdout). Returns the exit status.
int writeOutput(const std::string& output, const std::string& data)
{
    if (output.empty() || output == "-") {
        std::fwrite(data.data(), 1, data.size(), stdout);
        return std::fflush(stdout) == 0 ? 0 : 2;
    }
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    if (!out) {
        std::cerr << "dynascope-cli: " << output << ": cannot open for writing\n";
        return 2;
    }
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) {
        std::cerr << "dynascope-cli: " << output << ": write failed\n";
        return 2;
    }
    return 0;
}

// Takes the value of an option given as "-o VALUE", "-oVALUE" or "--output=VALUE".
bool optionValue(const std::vector<std::string>& args, size_t& i, const std::string& shortName,
    const std::string& longName, std::string& value, bool& missing)
{
    const std::string& a = args[i];
    missing = false;
    if (a == shortName || a == longName) {
        if (i + 1 >= args.size()) {
            missing = true;
            return true;
        }
        value = args[++i];
        return true;
    }
    if (!longName.empty() && a.starts_with(longName + "=")) {
        value = a.substr(longName.size() + 1);
        return true;
    }
    if (!shortName.empty() && shortName.size() == 2 && a.starts_with(shortName) && a.size() > 2
        && a[1] != '-') {
        value = a.substr(2);
        return true;
    }
    return false;
}

// The arguments of the commands that read traces and write a document: -o FILE, --latest,
// --run N|newest|all and PATHs. Returns -1 when args[i] is one of them (taken), else a usage
// error's exit status.
int commonArgument(const std::vector<std::string>& args, size_t& i, const std::string& command,
    dynascope::LoadOptions& options, std::string& output, std::vector<std::string>& paths)
{
    const std::string& a = args[i];
    std::string value;
    bool missing = false;
    if (optionValue(args, i, "-o", "--output", value, missing)) {
        if (missing || value.empty())
            return usageError("-o needs a file name");
        output = value;
    } else if (a == "--latest") {
        options.newestOnly = true;
    } else if (optionValue(args, i, "", "--run", value, missing)) {
        if (missing || !dynascope::parseRunChoice(value, options))
            return usageError("--run needs a run number, 'newest' or 'all'");
    } else if (a.starts_with("-") && a != "-") {
        return usageError("unknown option '" + a + "' for " + command);
    } else {
        paths.push_back(a);
    }
    return -1;
}

// The format asked for, else the one -o's extension names (.html, .htm, .json), else Markdown.
dynascope::ReportFormat formatFor(
    std::optional<dynascope::ReportFormat> given, const std::string& output)
{
    if (given)
        return *given;
    const std::string ext = std::filesystem::path(output).extension().string();
    if (ext == ".html" || ext == ".htm")
        return dynascope::ReportFormat::Html;
    if (ext == ".json")
        return dynascope::ReportFormat::Json;
    return dynascope::ReportFormat::Markdown;
}

int diagnose(const std::vector<std::string>& args)
{
    dynascope::LoadOptions options;
    bool json = false;
    dynascope::FindingSeverity minSeverity = dynascope::FindingSeverity::Note;
    std::string output;
    std::vector<std::string> paths;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string value;
        bool missing = false;
        if (optionValue(args, i, "", "--min-severity", value, missing)) {
            const auto named = dynascope::severityNamed(value);
            if (!named)
                return usageError("--min-severity takes note, warning or error");
            minSeverity = *named;
        } else if (a == "--json") {
            json = true;
        } else if (int rc = commonArgument(args, i, "diagnose", options, output, paths); rc >= 0) {
            return rc;
        }
    }
    if (paths.empty())
        return usageError("diagnose needs at least one PATH");
    auto loaded = loadInputs(paths, options);
    if (!loaded)
        return 2;
    if (!output.empty() && output != "-" && isInput(output, *loaded->trace))
        return usageError("the output " + output + " is one of the inputs");
    auto found = dynascope::findFindings(*loaded->trace);
    std::erase_if(found, [&](const dynascope::Finding& f) { return f.severity < minSeverity; });
    return writeOutput(output,
        json ? dynascope::findingsJson(*loaded->trace, found) : dynascope::findingsText(found));
}

int diff(const std::vector<std::string>& args)
{
    dynascope::LoadOptions options;
    std::optional<dynascope::ReportFormat> format;
    std::string output, failOnList;
    std::vector<std::string> paths;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string value;
        bool missing = false;
        if (optionValue(args, i, "", "--format", value, missing)) {
            format = dynascope::parseReportFormat(value);
            if (!format)
                return usageError("--format takes md, html or json");
        } else if (optionValue(args, i, "", "--fail-on", value, missing)) {
            if (missing || value.empty())
                return usageError("--fail-on needs a list, e.g. graph-breaks,compile-time=20%");
            failOnList = value;
        } else if (a == "--json") {
            format = dynascope::ReportFormat::Json;
        } else if (int rc = commonArgument(args, i, "diff", options, output, paths); rc >= 0) {
            return rc;
        }
    }
    if (paths.size() != 2)
        return usageError("diff needs two paths, A and B");
    std::optional<dynascope::FailOn> failOn;
    if (!failOnList.empty()) {
        std::string error;
        failOn = dynascope::parseFailOn(failOnList, error);
        if (!failOn)
            return usageError(error);
    }
    auto a = loadInputs({ paths[0] }, options);
    if (!a)
        return 2;
    auto b = loadInputs({ paths[1] }, options);
    if (!b)
        return 2;
    if (!output.empty() && output != "-"
        && (isInput(output, *a->trace) || isInput(output, *b->trace)))
        return usageError("the output " + output + " is one of the inputs");
    const auto findingsA = dynascope::findFindings(*a->trace);
    const auto findingsB = dynascope::findFindings(*b->trace);
    const auto d = dynascope::diffTraces({ *a->trace, findingsA }, { *b->trace, findingsB });
    const dynascope::DiffInputs inputs { { paths[0] }, { paths[1] } };
    const auto f = formatFor(format, output);
    const std::string text = f == dynascope::ReportFormat::Json ? dynascope::diffJson(d, inputs)
        : f == dynascope::ReportFormat::Html                    ? dynascope::diffHtml(d, inputs)
                                             : dynascope::diffMarkdown(d, inputs);
    if (int rc = writeOutput(output, text); rc != 0)
        return rc;
    if (failOn) {
        const auto worse = dynascope::regressions(d, *failOn);
        for (const auto& w : worse)
            std::cerr << "dynascope-cli diff: B is worse: " << w << "\n";
        if (!worse.empty())
            return 3;
    }
    return 0;
}

int report(const std::vector<std::string>& args)
{
    dynascope::LoadOptions options;
    dynascope::ReportOptions reportOptions;
    std::optional<dynascope::ReportFormat> format;
    std::string output;
    std::vector<std::string> paths;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string value;
        bool missing = false;
        if (optionValue(args, i, "", "--format", value, missing)) {
            if (missing)
                return usageError("--format needs a value (md, html or json)");
            format = dynascope::parseReportFormat(value);
            if (!format)
                return usageError("unknown report format '" + value + "' (md, html or json)");
        } else if (a == "--no-verify") {
            reportOptions.verifyPayloads = false;
        } else if (int rc = commonArgument(args, i, "report", options, output, paths); rc >= 0) {
            return rc;
        }
    }
    if (paths.empty())
        return usageError("report needs at least one PATH");
    format = formatFor(format, output);
    options.verifyPayloads = reportOptions.verifyPayloads; // as for summary
    auto loaded = loadInputs(paths, options);
    if (!loaded)
        return 2;
    if (!output.empty() && output != "-" && isInput(output, *loaded->trace))
        return usageError("refusing to overwrite the input file '" + output + "'");
    auto rep = dynascope::buildReport(
        *loaded->trace, dynascope::findFindings(*loaded->trace), reportOptions);
    return writeOutput(output, dynascope::renderReport(rep, *format));
}

int why(const std::vector<std::string>& args)
{
    dynascope::LoadOptions options;
    dynascope::WhyOptions whyOptions;
    whyOptions.showAllRejections = true;
    bool markdown = false;
    std::string output;
    std::vector<std::string> positional;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--md")
            markdown = true;
        else if (args[i] == "--folded")
            whyOptions.showAllRejections = false;
        else if (int rc = commonArgument(args, i, "why", options, output, positional); rc >= 0)
            return rc;
    }
    if (positional.size() != 2)
        return usageError("why needs a PATH and a compile ID, e.g. why trace.log [0/1]");
    auto loaded = loadInputs({ positional[0] }, options);
    if (!loaded)
        return 2;
    const dynascope::Trace& trace = *loaded->trace;
    auto selection = dynascope::selectCompiles(trace, positional[1]);
    if (!selection.error.empty())
        return usageError(selection.error);
    if (selection.compiles.size() != 1)
        return usageError("why takes one compile ID, not '" + positional[1] + "'");
    const auto doc = dynascope::whyDocument(trace, selection.compiles.front(), whyOptions);
    return writeOutput(output, markdown ? dynascope::whyMarkdown(doc) : dynascope::whyText(doc));
}

int guards(const std::vector<std::string>& args)
{
    dynascope::LoadOptions options;
    bool json = false, haveFrame = false;
    std::string output, frameKey;
    std::vector<std::string> inputs, paths;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string value;
        bool missing = false;
        if (args[i] == "--json")
            json = true;
        else if (optionValue(args, i, "", "--frame", value, missing)) {
            if (missing || value.empty())
                return usageError("--frame needs a function name, [FRAME_ID] or #INDEX");
            frameKey = value;
            haveFrame = true;
        } else if (optionValue(args, i, "", "--input", value, missing)) {
            if (missing)
                return usageError("--input needs a description, e.g. \"x: f32[48, 128]\"");
            inputs.push_back(value);
        } else if (int rc = commonArgument(args, i, "guards", options, output, paths); rc >= 0)
            return rc;
    }
    if (paths.size() != 1)
        return usageError("guards needs one PATH, e.g. guards trace.log --frame scale --input ...");
    if (!haveFrame)
        return usageError("guards needs --frame NAME|[ID]|#INDEX");
    if (inputs.empty())
        return usageError("guards needs --input DESCRIPTION, e.g. --input \"x: f32[48, 128]\"");
    // A description it cannot read is a usage error before any file is read.
    for (const std::string& text : inputs) {
        dynascope::GuardInput probe;
        std::string error;
        if (!dynascope::parseGuardInput(text, probe, error))
            return usageError("--input '" + text + "': " + error);
    }
    auto loaded = loadInputs(paths, options);
    if (!loaded)
        return 2;
    std::string error;
    const auto answer = dynascope::askGuardLab(*loaded->trace, frameKey, inputs, json, error);
    if (!answer)
        return usageError(error);
    return writeOutput(output, *answer);
}

int exportCommand(const std::vector<std::string>& allArgs)
{
    if (allArgs.empty())
        return usageError("export needs a kind: chrome, svg or subset");
    const std::string kind = allArgs.front();
    if (kind != "chrome" && kind != "svg" && kind != "subset")
        return usageError("unknown export kind '" + kind + "' (chrome, svg or subset)");
    std::vector<std::string> args(allArgs.begin() + 1, allArgs.end());
    dynascope::LoadOptions options;
    std::string output, compiles;
    bool haveCompiles = false, redact = false, phases = true;
    int width = dynascope::TimelineSvgOptions {}.width;
    std::vector<std::string> paths;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string value;
        bool missing = false;
        if (kind == "subset" && optionValue(args, i, "", "--compiles", value, missing)) {
            if (missing)
                return usageError("--compiles needs a list of compile ids");
            compiles += (compiles.empty() ? "" : ",") + value;
            haveCompiles = true;
        } else if (kind == "subset" && a == "--redact")
            redact = true;
        else if (kind == "chrome" && a == "--no-phases")
            phases = false;
        else if (kind == "svg" && optionValue(args, i, "", "--width", value, missing)) {
            const char* end = value.data() + value.size();
            auto [ptr, ec] = std::from_chars(value.data(), end, width);
            if (missing || ec != std::errc() || ptr != end || width < 320 || width > 4000)
                return usageError("--width needs a number of pixels from 320 to 4000");
        } else if (int rc = commonArgument(args, i, "export " + kind, options, output, paths);
                   rc >= 0)
            return rc;
    }
    if (paths.empty())
        return usageError("export " + kind + " needs at least one PATH");
    if (output.empty())
        return usageError("export " + kind + " needs -o OUT (or -o - for stdout)");
    if (kind == "subset" && !haveCompiles)
        return usageError("export subset needs --compiles ID[,ID...]");
    auto loaded = loadInputs(paths, options);
    if (!loaded)
        return 2;
    const dynascope::Trace& trace = *loaded->trace;
    if (output != "-" && isInput(output, trace))
        return usageError("refusing to overwrite the input file '" + output + "'");
    std::ostringstream out;
    if (kind == "chrome") {
        dynascope::ChromeTraceOptions chromeOptions;
        chromeOptions.phases = phases;
        dynascope::writeChromeTrace(trace, out, chromeOptions);
    } else if (kind == "svg") {
        dynascope::TimelineSvgOptions svgOptions;
        svgOptions.width = width;
        for (const std::string& p : paths)
            svgOptions.title += (svgOptions.title.empty() ? "" : ", ")
                + std::filesystem::path(p).filename().string();
        out << dynascope::timelineSvg(trace, svgOptions);
    } else {
        auto selection = dynascope::selectCompiles(trace, compiles);
        if (!selection.error.empty())
            return usageError(selection.error);
        dynascope::SubsetOptions subsetOptions;
        subsetOptions.compiles = selection.compiles;
        subsetOptions.redact = redact;
        auto result = dynascope::writeSubset(trace, subsetOptions, out);
        if (!result.error.empty())
            return usageError(result.error);
        if (result.skipped)
            std::cerr << "dynascope-cli: left out " << result.skipped
                      << " record(s) whose header JSON does not parse (cannot be redacted)\n";
    }
    return writeOutput(output, out.str());
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return usageError("missing command");
    const std::string cmd = args.front();
    const bool helpCommand = cmd == "-h" || cmd == "--help" || cmd == "help";
    // `help COMMAND` and `COMMAND --help` (anywhere before a lone "--", and for record and probe
    // before the program's command) show one command's help.
    const std::string topic = helpCommand ? (args.size() > 1 ? args[1] : "") : cmd;
    bool wantsHelp = helpCommand;
    const bool runsCommand = cmd == "record" || cmd == "probe";
    for (size_t i = 1; i < args.size() && !wantsHelp; ++i) {
        if (args[i] == "--")
            break;
        if (args[i] == "-h" || args[i] == "--help")
            wantsHelp = true;
        else if (runsCommand && !args[i].starts_with("-") && i > 1
            && (args[i - 1] != "-o" && args[i - 1] != "--output" && args[i - 1] != "--backends"
                && args[i - 1] != "--steps" && args[i - 1] != "--report"))
            break; // the program's own words: its --help is its own
        else if (runsCommand && !args[i].starts_with("-") && i == 1)
            break;
    }
    if (wantsHelp) {
        const char* text = topic == "summary" ? kSummaryHelp
            : topic == "diagnose"             ? kDiagnoseHelp
            : topic == "diff"                 ? kDiffHelp
            : topic == "report"               ? kReportHelp
            : topic == "export"               ? kExportHelp
            : topic == "why"                  ? kWhyHelp
            : topic == "guards"               ? kGuardsHelp
            : topic == "record"               ? dynascope::cli::kRecordHelp
            : topic == "probe"                ? dynascope::cli::kProbeHelp
                                              : nullptr;
        if (!text && !topic.empty() && !helpCommand)
            return usageError("unknown command '" + topic + "'");
        printUsage(text);
        return 0;
    }
    if (cmd == "--version") {
        std::cout << "dynascope-cli " << DYNASCOPE_VERSION << "\n";
        return 0;
    }
    args.erase(args.begin());
    if (cmd == "summary")
        return summary(args);
    if (cmd == "report")
        return report(args);
    if (cmd == "diagnose")
        return diagnose(args);
    if (cmd == "diff")
        return diff(args);
    if (cmd == "why")
        return why(args);
    if (cmd == "guards")
        return guards(args);
    if (cmd == "export")
        return exportCommand(args);
    if (cmd == "record")
        return dynascope::cli::record(args);
    if (cmd == "probe")
        return dynascope::cli::probe(args);
    return usageError("unknown command '" + cmd + "'");
}
