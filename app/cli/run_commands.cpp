// dynascope-cli record and probe. The program runs through core/run/child_process (the one module
// that starts processes): argv as the user typed it, never a shell, with TORCH_TRACE (and for
// the probe PYTHONPATH and DYNASCOPE_PROBE_CONFIG) set.
#include "app/cli/run_commands.h"

#include "core/load/loader.h"
#include "core/report/probe_report.h"
#include "core/report/run_summary.h"
#include "core/run/child_process.h"
#include "core/run/probe_session.h"
#include "core/run/run_folder.h"
#include "core/util/text_format.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace fs = std::filesystem;

namespace dynascope::cli {

const char* kRecordHelp = R"(  record [-o DIR] -- CMD ARGS...
      Runs CMD with TORCH_TRACE pointing at a fresh folder (default ./dynascope-runs/DATE-TIME;
      DIR must be new or empty), passes stdin, stdout and stderr through and forwards signals
      (Ctrl+C reaches the program directly), then prints where the trace is and its summary
      on stderr. Exits with the program's status (a program killed by signal N: 128+N; after
      SIGINT, SIGTERM, SIGHUP or SIGPIPE dynascope-cli ends by that signal too).
)";

const char* kProbeHelp
    = R"(  probe [--backends LIST] [--check] [--steps N] [--dynamic] [--user-cache] [-o DIR]
        -- CMD ARGS...
      Runs a Python program once without torch.compile and once per backend (LIST, default
      eager,aot_eager,inductor; "program" keeps the program's own arguments), each with its own
      trace in DIR (default ./dynascope-runs/probe-DATE-TIME), and prints the evidence table and
      the ladder's verdict: which compiler layer first fails, first call against steady state,
      and after how many calls compiling paid for itself. --check compares each compiled
      callable's outputs with eager (torch.testing.assert_close); --steps N times the N calls
      after the first (default 10); --dynamic adds the last backend with dynamic=True;
      --user-cache keeps the user's Inductor cache (default: a fresh one per run). Writes
      DIR/probe-report.md and DIR/probe-report.json.
  probe --report DIR [--json]
      The report of an earlier probe folder again (Markdown, or the JSON document).
)";

namespace {

int usageError(const std::string& message)
{
    std::cerr << "dynascope-cli: " << message << "\nTry 'dynascope-cli --help'.\n";
    return 1;
}

void say(const std::string& text)
{
    std::cerr << "dynascope-cli: " << text << "\n" << std::flush;
}

// Options before the command: "-o DIR", "-oDIR", "--output=DIR", flags, "--" ends them; the first
// word that is no option starts the command.
struct Parsed {
    std::vector<std::pair<std::string, std::string>> options; // name, value ("" for flags)
    std::vector<std::string> command;
    std::string error;
};

Parsed parseRunArgs(const std::vector<std::string>& args, const std::vector<std::string>& valued,
    const std::vector<std::string>& flags)
{
    Parsed p;
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (!a.starts_with("-") || a == "-")
            break;
        bool matched = false;
        for (const auto& name : valued) {
            if (a == name) {
                if (i + 1 >= args.size()) {
                    p.error = name + " needs a value";
                    return p;
                }
                p.options.emplace_back(name, args[++i]);
                matched = true;
            } else if (name.starts_with("--") && a.starts_with(name + "=")) {
                p.options.emplace_back(name, a.substr(name.size() + 1));
                matched = true;
            } else if (name.size() == 2 && a.size() > 2 && a.starts_with(name) && a[1] != '-') {
                p.options.emplace_back(name, a.substr(2));
                matched = true;
            }
            if (matched)
                break;
        }
        for (const auto& name : flags) {
            if (!matched && a == name) {
                p.options.emplace_back(name, "");
                matched = true;
            }
        }
        if (!matched) {
            p.error = "unknown option '" + a + "'";
            return p;
        }
    }
    p.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    return p;
}

std::string absolute(const std::string& path)
{
    std::error_code ec;
    auto p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

std::string currentDirectory()
{
    std::error_code ec;
    return fs::current_path(ec).string();
}

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string secondsText(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

std::string bytesText(uint64_t b)
{
    char buf[32];
    if (b >= (1u << 20))
        std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(b) / (1 << 20));
    else
        std::snprintf(buf, sizeof buf, "%.0f KB", static_cast<double>(b) / 1024);
    return buf;
}

// Runs one command to its end with signals forwarded; fills the record.
run::ExitStatus runToEnd(run::SpawnOptions spawn, run::RunRecord& record, bool* started)
{
    record.command = spawn.argv;
    record.workingDirectory = currentDirectory();
    record.startedUs = run::nowUs();
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    bool notFound = false;
    // Signals sent between the spawn and the forwarder wait, then go to the child.
    auto held = std::make_optional<run::ForwardedSignalsBlocked>();
    run::ChildProcess child = run::ChildProcess::spawn(spawn, &error, &notFound);
    if (!child.valid()) {
        *started = false;
        record.spawnError = error;
        say(error);
        return run::ExitStatus { false, notFound ? 127 : 126, 0, false };
    }
    *started = true;
    run::ExitStatus status;
    {
        run::SignalForwarder forward(child.pid());
        held.reset();
        status = child.wait();
    }
    record.seconds = secondsSince(t0);
    record.exit = status;
    return status;
}

void reportRecording(const std::string& folder, const run::RunRecord& record)
{
    std::cerr << "\n";
    say(run::joinCommandLine(record.command) + " " + record.exit->describe() + " after "
        + secondsText(record.seconds));
    const auto files = run::runTraceFiles(folder);
    if (files.empty()) {
        say("no trace in " + folder
            + ": the program wrote none. PyTorch writes its trace when TORCH_TRACE is set and "
              "something is compiled (import torch, then a torch.compile call runs); a program "
              "that sets TORCH_TRACE itself writes there instead.");
        return;
    }
    uint64_t bytes = 0;
    for (const auto& f : files) {
        std::error_code ec;
        bytes += fs::file_size(f, ec);
    }
    say("trace: " + folder + " (" + std::to_string(files.size())
        + (files.size() == 1 ? " file, " : " files, ") + bytesText(bytes) + ")");
    auto loaded = load(files);
    if (!loaded.trace) {
        for (const auto& e : loaded.errors)
            std::cerr << e.format() << "\n";
        return;
    }
    std::cerr << runSummaryText(*loaded.trace);
    say("open it: dynascope " + run::joinCommandLine({ folder }) + "   (or: dynascope-cli report "
        + run::joinCommandLine({ folder }) + ")");
}

// Where the probe's Python helper is: $DYNASCOPE_PYTHON_DIR, the installed share/dynascope/python
// next to this program, or the source tree's resources/python for a build tree.
std::string probeHelperDir()
{
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("DYNASCOPE_PYTHON_DIR"); env && *env)
        candidates.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path bin = exe.parent_path();
        candidates.push_back(bin / "../share/dynascope/python");
        candidates.push_back(bin / "../../resources/python");
        candidates.push_back(bin / "../../../resources/python");
    }
    for (const auto& c : candidates) {
        std::error_code e2;
        if (fs::is_regular_file(c / "dynascope_probe.py", e2)
            && fs::is_regular_file(c / "sitecustomize.py", e2))
            return fs::canonical(c, e2).string();
    }
    return {};
}

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        size_t end = s.find(',', pos);
        if (end == std::string::npos)
            end = s.size();
        std::string item = s.substr(pos, end - pos);
        while (!item.empty() && item.front() == ' ')
            item.erase(item.begin());
        while (!item.empty() && item.back() == ' ')
            item.pop_back();
        if (!item.empty())
            out.push_back(item);
        pos = end + 1;
    }
    return out;
}

std::string configJson(const ProbeConfig& c, bool check, int64_t steps)
{
    // Names are plain identifiers (probeConfigs checks them): no escaping needed.
    return "{\"name\": \"" + c.name + "\", \"backend\": \"" + c.backend + "\", \"dynamic\": "
        + (c.dynamic ? "true" : "false") + ", \"check\": " + (check ? "true" : "false")
        + ", \"steps\": " + std::to_string(steps) + "}";
}

bool writeFile(const fs::path& path, const std::string& data)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
    out.close();
    if (!out)
        say("cannot write " + path.string());
    return static_cast<bool>(out);
}

int probeReport(const std::string& folder, bool json)
{
    std::string error;
    auto session = loadProbeSession(folder, &error);
    if (!session) {
        say(error);
        return 2;
    }
    const auto report = buildProbeReport(*session);
    const std::string out = json ? probeReportJson(report) : probeReportMarkdown(report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 2;
}

} // namespace

int record(const std::vector<std::string>& args)
{
    Parsed p = parseRunArgs(args, { "-o", "--output" }, {});
    if (!p.error.empty())
        return usageError(p.error + " for record");
    if (p.command.empty())
        return usageError("record needs a command: dynascope-cli record [-o DIR] -- CMD ARGS...");
    std::string folder;
    for (const auto& [name, value] : p.options)
        folder = value;
    if (folder.empty() && !p.options.empty())
        return usageError("-o needs a folder");
    if (folder.empty())
        folder = run::defaultRunFolder();
    std::string error;
    if (!run::prepareRunFolder(folder, &error)) {
        say(error);
        return 1;
    }
    folder = absolute(folder);
    say("recording into " + folder + " (TORCH_TRACE)");
    run::SpawnOptions spawn;
    spawn.argv = p.command;
    spawn.setEnvironment = { { "TORCH_TRACE", folder } };
    run::RunRecord record;
    record.traceFolder = folder;
    bool started = false;
    const run::ExitStatus status = runToEnd(spawn, record, &started);
    if (!run::writeRunRecord(folder, record, &error))
        say(error);
    if (started)
        reportRecording(folder, record);
    run::exitLike(status);
}

int probe(const std::vector<std::string>& args)
{
    Parsed p = parseRunArgs(args, { "-o", "--output", "--backends", "--steps", "--report" },
        { "--check", "--dynamic", "--user-cache", "--json" });
    if (!p.error.empty())
        return usageError(p.error + " for probe");
    std::string folder, backends = "eager,aot_eager,inductor", reportDir;
    bool check = false, dynamic = false, userCache = false, json = false;
    int64_t steps = 10;
    for (const auto& [name, value] : p.options) {
        if (name == "-o" || name == "--output")
            folder = value;
        else if (name == "--backends")
            backends = value;
        else if (name == "--report")
            reportDir = value;
        else if (name == "--check")
            check = true;
        else if (name == "--dynamic")
            dynamic = true;
        else if (name == "--user-cache")
            userCache = true;
        else if (name == "--json")
            json = true;
        else if (name == "--steps") {
            size_t end = 0;
            try {
                steps = std::stoll(value, &end);
            } catch (const std::exception&) {
                end = 0;
            }
            if (end == 0 || end != value.size() || steps < 1 || steps > 100000)
                return usageError(
                    "--steps needs a number of calls from 1 to 100000, not '" + value + "'");
        }
    }
    if (!reportDir.empty()) {
        if (!p.command.empty())
            return usageError("probe --report DIR takes no command");
        return probeReport(reportDir, json);
    }
    if (json)
        return usageError("--json goes with probe --report DIR");
    if (p.command.empty())
        return usageError("probe needs a command: dynascope-cli probe [OPTIONS] -- python "
                          "script.py ARGS...");
    std::string error;
    auto configs = probeConfigs(splitList(backends), dynamic, &error);
    if (!configs)
        return usageError(error);
    const std::string helper = probeHelperDir();
    if (helper.empty()) {
        say("the probe's Python helper (dynascope_probe.py) was not found: not in "
            "share/dynascope/python next to this program, nor in $DYNASCOPE_PYTHON_DIR");
        return 2;
    }
    if (folder.empty())
        folder = run::defaultRunFolder({}, "probe-");
    if (!run::prepareRunFolder(folder, &error)) {
        say(error);
        return 1;
    }
    folder = absolute(folder);

    ProbeOptions options;
    options.command = p.command;
    options.workingDirectory = currentDirectory();
    options.startedUs = run::nowUs();
    options.check = check;
    options.steps = steps;
    options.configs = *configs;
    if (!writeFile(fs::path(folder) / kProbeManifestFile, probeManifestJson(options)))
        return 2;

    std::string pythonPath = helper;
    if (const char* old = std::getenv("PYTHONPATH"); old && *old)
        pythonPath += std::string(":") + old;
    std::optional<run::ExitStatus> interrupted;
    const size_t n = configs->size();
    for (size_t k = 0; k < n; ++k) {
        const ProbeConfig& c = (*configs)[k];
        const std::string tag
            = "probe [" + std::to_string(k + 1) + "/" + std::to_string(n) + "] " + c.label();
        const std::string runDir = (fs::path(folder) / c.name).string();
        if (!run::prepareRunFolder(runDir, &error)) {
            say(error);
            return 2;
        }
        run::SpawnOptions spawn;
        spawn.argv = p.command;
        spawn.setEnvironment = { { "TORCH_TRACE", runDir }, { "PYTHONPATH", pythonPath },
            { "DYNASCOPE_PROBE_CONFIG", configJson(c, check, steps) } };
        std::string cache;
        if (!userCache) {
            // A fresh Inductor cache per run (PyTorch's PGO profile of automatic dynamic shapes
            // lives there too), so every run's first call compiles cold and no run sees another's.
            std::error_code tec;
            fs::path tmp = fs::temp_directory_path(tec);
            if (tec)
                tmp = "/tmp";
            std::string tmpl = (tmp / "dynascope-probe-cache-XXXXXX").string();
            if (char* made = ::mkdtemp(tmpl.data())) {
                cache = made;
                spawn.setEnvironment.emplace_back("TORCHINDUCTOR_CACHE_DIR", cache);
            }
        }
        say(tag + ": " + run::joinCommandLine(p.command));
        run::RunRecord record;
        record.traceFolder = runDir;
        record.probeConfig = c.name;
        bool started = false;
        const run::ExitStatus status = runToEnd(spawn, record, &started);
        if (!cache.empty()) {
            std::error_code ec;
            fs::remove_all(cache, ec);
        }
        if (!run::writeRunRecord(runDir, record, &error))
            say(error);
        if (!started)
            return status.code; // 127: not found; the other runs would fail the same way
        say(tag + ": " + status.describe() + " after " + secondsText(record.seconds));
        const int last = run::SignalForwarder::lastSignal();
        if ((status.signaled && (status.signal == SIGINT || status.signal == SIGTERM))
            || last == SIGINT || last == SIGTERM) {
            say("stopped: the remaining configurations are not run");
            interrupted = status.signaled ? status : run::ExitStatus { true, 0, last, false };
            break;
        }
    }

    auto session = loadProbeSession(folder, &error);
    if (!session) {
        say(error);
        return 2;
    }
    const auto report = buildProbeReport(*session);
    const std::string md = probeReportMarkdown(report);
    bool ok = writeFile(fs::path(folder) / "probe-report.md", md);
    ok = writeFile(fs::path(folder) / "probe-report.json", probeReportJson(report)) && ok;
    std::cout << "\n" << md << std::flush;
    std::cerr << "\n";
    say("verdict: " + text::cleanUtf8(report.verdict.text));
    say("report: " + (fs::path(folder) / "probe-report.md").string() + " and probe-report.json; "
        + "open the runs: dynascope " + run::joinCommandLine({ folder }));
    if (interrupted)
        run::exitLike(*interrupted);
    return ok ? 0 : 2;
}

} // namespace dynascope::cli
