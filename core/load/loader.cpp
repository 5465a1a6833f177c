#include "core/load/loader.h"

#include "core/load/finish/append_trace.h"

#include "core/io/input_buffer.h"
#include "core/io/trace_source.h"
#include "core/load/logs/torch_logs.h"
#include "core/load/runs.h"
#include "core/load/trace/file_builder.h"
#include "core/parse/content_kind.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace dynascope {

namespace fs = std::filesystem;

namespace {
constexpr size_t kHeadBytes = 1u << 20;

bool isTraceName(const std::string& name)
{
    if (!name.starts_with("dedicated_log_torch_trace"))
        return false;
    return name.ends_with(".log") || name.ends_with(".log.zst") || name.ends_with(".log.gz")
        || name.ends_with(".zst") || name.ends_with(".gz");
}
// File names in the order people count them: rank_2 before rank_10 (runs of digits compared
// as numbers), so 256 ranks list as 0, 1, 2, ... rather than 0, 1, 10, 100.
bool naturalLess(const std::string& a, const std::string& b)
{
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
        const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (da && db) {
            size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
                ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
                ++je;
            // Without leading zeros, a longer run is a larger number.
            size_t ia = i, jb = j;
            while (ia + 1 < ie && a[ia] == '0')
                ++ia;
            while (jb + 1 < je && b[jb] == '0')
                ++jb;
            if (ie - ia != je - jb)
                return ie - ia < je - jb;
            if (int c = a.compare(ia, ie - ia, b, jb, je - jb); c != 0)
                return c < 0;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    if (a.size() - i != b.size() - j)
        return a.size() - i < b.size() - j;
    return a < b; // equal up to leading zeros: any fixed order
}
} // namespace

std::vector<std::string> expandInputs(const std::vector<std::string>& paths,
    const LoadOptions& options, std::vector<Diagnostic>& errors)
{
    std::vector<std::string> out;
    for (const auto& p : paths) {
        if (p == "-") { // standard input (dynascope-cli summary -)
            out.push_back(p);
            continue;
        }
        std::error_code ec;
        auto st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            errors.push_back(
                { Severity::Error, DiagnosticCode::IoError, p, 0, "no such file or folder" });
            continue;
        }
        if (!fs::is_directory(st)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::pair<fs::file_time_type, std::string>> found;
        for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code fec;
            // A symlink with a trace's name whose target is gone (or unreadable) is kept, so
            // that opening it reports the file by name instead of skipping it without a word
            // (tst_hostile::unreadableFile).
            if (!it->is_regular_file(fec) && !it->is_symlink(fec))
                continue;
            if (it->is_symlink(fec) && fs::exists(it->status(fec)) && !it->is_regular_file(fec))
                continue; // a link to a folder or a FIFO
            std::string name = it->path().filename().string();
            if (isTraceName(name))
                found.emplace_back(it->last_write_time(fec), it->path().string());
        }
        if (ec) {
            errors.push_back({ Severity::Error, DiagnosticCode::IoError, p, 0,
                "cannot list the folder: " + ec.message() });
            continue;
        }
        if (found.empty()) {
            const bool tlparseOutput = fs::exists(fs::path(p) / "index.html", ec)
                && fs::exists(fs::path(p) / "raw.log", ec);
            errors.push_back({ Severity::Error,
                tlparseOutput ? DiagnosticCode::NotATrace : DiagnosticCode::IoError, p, 0,
                tlparseOutput
                    ? "the folder is tlparse's output, not a TORCH_TRACE folder: open raw.log in "
                      "it (the log tlparse read), or the TORCH_TRACE folder it came from"
                    : "the folder holds no dedicated_log_torch_trace*.log files" });
            continue;
        }
        if (options.newestOnly) {
            auto newest = std::max_element(found.begin(), found.end());
            out.push_back(newest->second);
            continue;
        }
        std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return naturalLess(a.second, b.second); });
        for (auto& f : found)
            out.push_back(f.second);
    }
    return out;
}

bool parseRunChoice(const std::string& text, LoadOptions& options)
{
    if (text == "newest" || text == "all") {
        options.run = text == "all" ? RunChoice::All : RunChoice::Newest;
        return true;
    }
    size_t end = 0;
    unsigned long n = 0;
    try {
        n = std::stoul(text, &end);
    } catch (const std::exception&) {
        return false;
    }
    if (end != text.size() || n == 0 || n > UINT32_MAX || text.starts_with("-"))
        return false;
    options.run = RunChoice::Number;
    options.runNumber = static_cast<uint32_t>(n);
    return true;
}

namespace {

// Groups the files that opened into runs, leaves out duplicates and the runs not chosen (their
// parts are freed), and records the runs and notices in `trace`. Returns each file's run number
// (0: not loaded). An unknown run number is an error in `errors`.
std::vector<uint32_t> chooseRuns(const std::vector<std::string>& files,
    const std::vector<std::string>& given, std::vector<std::unique_ptr<Trace>>& parts,
    const LoadOptions& options, Trace& trace, std::vector<Diagnostic>& errors)
{
    // A file without epoch fields has glog times without a year (the builder leaves 1970): it
    // is read in the year and zone most of the other files have, so it groups with them.
    std::map<std::pair<int, int>, size_t> zones;
    for (const auto& part : parts)
        if (part && !part->files.empty() && part->files[0].year != 1970)
            ++zones[{ part->files[0].year, part->files[0].tzOffsetMinutes }];
    std::pair<int, int> common { 1970, 0 };
    size_t commonCount = 0;
    for (const auto& [zone, n] : zones)
        if (n > commonCount) {
            common = zone;
            commonCount = n;
        }
    std::vector<RunCandidate> candidates;
    std::vector<size_t> partOf;
    for (size_t i = 0; i < files.size(); ++i) {
        if (!parts[i] || parts[i]->files.empty())
            continue;
        const TraceFile& f = parts[i]->files[0];
        const bool yearKnown = f.year != 1970;
        auto [start, end] = fileTimeSpan(*parts[i], yearKnown ? f.year : common.first,
            yearKnown ? f.tzOffsetMinutes : common.second);
        candidates.push_back({ files[i], f.rank, start, end, f.bytes, f.source });
        partOf.push_back(i);
    }
    RunGrouping g = groupRuns(candidates);
    const std::set<std::string> named(given.begin(), given.end());
    std::vector<bool> fromFolder(candidates.size());
    uint32_t newest = 0; // the newest run that holds a file found in a folder
    for (size_t c = 0; c < candidates.size(); ++c) {
        fromFolder[c] = !named.contains(candidates[c].path);
        if (fromFolder[c] && g.runOf[c] != 0)
            newest = std::max(newest, g.runOf[c]);
    }
    uint32_t chosen = options.run == RunChoice::Number ? options.runNumber : newest;
    if (options.run == RunChoice::Number && (chosen == 0 || chosen > g.runs.size())) {
        errors.push_back({ Severity::Error, DiagnosticCode::OtherRuns,
            given.empty() ? std::string() : given.front(), 0,
            "there is no run " + std::to_string(chosen) + ": the inputs hold "
                + std::to_string(g.runs.size()) + (g.runs.size() == 1 ? " run" : " runs") });
        chosen = newest;
    }
    std::vector<uint32_t> runOfPart(files.size(), 0);
    for (size_t c = 0; c < candidates.size(); ++c) {
        const size_t i = partOf[c];
        const bool keep = g.duplicateOf[c] < 0
            && (!fromFolder[c] || options.run == RunChoice::All || g.runOf[c] == chosen);
        if (!keep) {
            parts[i].reset();
            continue;
        }
        runOfPart[i] = g.runOf[c];
        g.runs[g.runOf[c] - 1].loaded = true;
    }
    for (size_t c = 0; c < candidates.size(); ++c)
        if (g.duplicateOf[c] >= 0)
            trace.diagnostics.push_back(
                { Severity::Info, DiagnosticCode::DuplicateFile, candidates[c].path, 0,
                    "identical to " + candidates[static_cast<size_t>(g.duplicateOf[c])].path
                        + "; left out" });
    std::string notLoaded;
    size_t notLoadedCount = 0;
    for (const auto& run : g.runs)
        if (!run.loaded) {
            notLoaded += (notLoaded.empty() ? "" : "; ") + describeRun(run);
            ++notLoadedCount;
        }
    if (notLoadedCount > 0) {
        std::string loaded;
        for (const auto& run : g.runs)
            if (run.loaded)
                loaded += (loaded.empty() ? "" : "; ") + describeRun(run);
        trace.diagnostics.push_back({ Severity::Info, DiagnosticCode::OtherRuns,
            given.empty() ? std::string() : given.front(), 0,
            "the inputs hold " + std::to_string(g.runs.size()) + " runs; loaded "
                + (loaded.empty() ? std::string("none") : loaded)
                + (options.run == RunChoice::Newest ? ", the newest" : "")
                + "; not loaded: " + notLoaded
                + ". Choose one with --run N or --run all (dynascope-cli) or File > Runs "
                  "(the app)" });
    }
    trace.runs = std::move(g.runs);
    return runOfPart;
}

// load() and loadFromMemory(): `files` read from disk, or taken from `preloaded` (same order)
// when it is not empty.
LoadResult loadFiles(const std::vector<std::string>& files,
    const std::vector<std::shared_ptr<const InputBuffer>>& preloaded,
    const std::vector<std::string>& warnings, const std::vector<std::string>& paths,
    const LoadOptions& options, const ProgressSink& progress, std::stop_token stop,
    LoadResult result)
{
    std::vector<std::unique_ptr<Trace>> parts(files.size());
    std::vector<std::vector<Diagnostic>> openErrors(files.size());

    std::vector<uint64_t> sizes(files.size(), 0);
    for (size_t i = 0; i < files.size(); ++i) {
        if (!preloaded.empty()) {
            sizes[i] = preloaded[i] ? preloaded[i]->fileBytes() : 0;
            continue;
        }
        // A size for the progress bar; FIFOs, devices and stdin have none (file_size fails and
        // returns uintmax_t(-1), which must not be summed).
        std::error_code ec;
        const auto size = files[i] == "-" ? std::uintmax_t(-1) : fs::file_size(files[i], ec);
        sizes[i] = ec || size == std::uintmax_t(-1) ? 0 : size;
    }
    std::atomic<uint64_t> done { 0 };
    uint64_t total = 0;
    for (auto s : sizes)
        total += s;
    std::mutex progressMutex;
    auto report = [&](const char* stage) {
        if (!progress)
            return;
        std::lock_guard lock(progressMutex);
        progress({ done.load(), total, stage });
    };

    unsigned scanThreads = 1; // per file, set below
    // A file that is not a trace is told from its first megabyte, before the rest is read.
    auto refuse = [&](size_t i, const ContentGuess& guess) {
        openErrors[i].push_back(
            { Severity::Error, DiagnosticCode::NotATrace, files[i], 0, notATraceMessage(guess) });
        done += sizes[i];
        report("reading");
    };
    auto loadOne = [&](size_t i) {
        std::optional<ContentGuess> guess; // judged once per file, from its head
        if (files[i] != "-" && preloaded.empty()) {
            if (auto head = InputBuffer::readHead(files[i], kHeadBytes)) {
                guess = classifyContent(*head);
                if (!isLoadable(guess->kind))
                    return refuse(i, *guess);
            }
        }
        std::string error;
        // A TORCH_TRACE is indexed where it lies (TraceSource); TORCH_LOGS text is read into
        // memory, where core/logs keeps the statements' text.
        const bool logs = guess && guess->kind == ContentKind::TorchLogs;
        std::shared_ptr<const InputBuffer> buffer;
        std::shared_ptr<const TraceSource> source;
        if (!preloaded.empty()) {
            buffer = preloaded[i];
            error = warnings[i];
        } else if (logs) {
            buffer = InputBuffer::open(files[i], options.maxDecompressedBytes, error, scanThreads);
        } else {
            source = TraceSource::open(
                files[i] == "-" ? "/dev/stdin" : files[i], options.maxDecompressedBytes, error);
        }
        if (buffer)
            source = TraceSource::fromMemory(buffer);
        if (!source) {
            openErrors[i].push_back({ Severity::Error, DiagnosticCode::IoError, files[i], 0,
                "cannot read: " + (error.empty() ? std::string("nothing read") : error) });
            done += sizes[i];
            report("reading");
            return;
        }
        if (!guess) { // a pipe (read once) or bytes in memory: judged once read
            std::string head;
            const ByteWindow w = source->read(0, kHeadBytes, head);
            guess = classifyContent(w.empty() ? std::string_view() : w.view(0, w.end));
            if (!isLoadable(guess->kind))
                return refuse(i, *guess);
            if (guess->kind == ContentKind::TorchLogs && !buffer) {
                std::string all;
                const ByteWindow whole = source->read(0, source->size(), all);
                buffer = InputBuffer::fromBytes(
                    whole.empty() ? std::string_view() : whole.view(0, whole.end), ~0ull, error);
            }
        }
        std::atomic<uint64_t> fileDone { 0 };
        double scale = source->size()
            ? static_cast<double>(sizes[i]) / static_cast<double>(source->size())
            : 0;
        FileBuildInput in { files[i], buffer, stop, [&](uint64_t bytes) {
                               uint64_t scaled
                                   = static_cast<uint64_t>(static_cast<double>(bytes) * scale);
                               uint64_t prev = fileDone.exchange(scaled);
                               done += scaled - std::min(prev, scaled);
                               report("indexing");
                           } };
        in.threads = scanThreads;
        in.verifyPayloads = options.verifyPayloads;
        in.source = source;
        // TORCH_LOGS text (what bug reports paste) is read by core/logs, recognised by content.
        parts[i] = guess->kind == ContentKind::TorchLogs ? logs::buildTorchLogs(in) : buildFile(in);
        if (!error.empty())
            parts[i]->diagnostics.insert(parts[i]->diagnostics.begin(),
                { Severity::Warning,
                    preloaded.empty() ? DiagnosticCode::TruncatedRecord : DiagnosticCode::IoError,
                    files[i], 0, error });
        if (std::string changed = source->problem(); !changed.empty())
            parts[i]->diagnostics.insert(parts[i]->diagnostics.begin(),
                { Severity::Warning, DiagnosticCode::IoError, files[i], 0,
                    "the file changed while it was loaded; kept what was read: " + changed });
    };

    // What reading or building a file throws (an allocation that fails) is that file's error,
    // returned as a value: an exception must not leave a worker thread (std::terminate), and
    // the other files still load.
    auto work = [&](size_t i) {
        std::string what;
        try {
            loadOne(i);
            return;
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
            what = "unknown error";
        }
        parts[i].reset();
        openErrors[i].push_back({ Severity::Error, DiagnosticCode::IoError, files[i], 0,
            "cannot load: " + what + "; the file is left out" });
    };

    unsigned threads
        = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const unsigned fileCount = static_cast<unsigned>(std::max<size_t>(1, files.size()));
    // Threads left over when there are fewer files than threads scan within the files.
    scanThreads = std::max(1u, threads / fileCount);
    threads = std::min(threads, fileCount);
    std::atomic<size_t> next { 0 };
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t + 1 < threads; ++t)
        pool.emplace_back([&] {
            for (size_t i; (i = next++) < files.size();)
                work(i);
        });
    for (size_t i; (i = next++) < files.size();)
        work(i);
    pool.clear(); // joins

    result.cancelled = stop.stop_requested();
    auto trace = std::make_shared<Trace>();
    trace->diagnostics = result.errors;
    const bool anyRead
        = std::any_of(parts.begin(), parts.end(), [](const auto& p) { return p != nullptr; });
    const std::vector<uint32_t> runOfPart
        = chooseRuns(files, paths, parts, options, *trace, result.errors);
    size_t totalRecords = 0, totalCompiles = 0;
    for (const auto& part : parts) {
        totalRecords += part ? part->records.size() : 0;
        totalCompiles += part ? part->compiles.size() : 0;
    }
    if (files.size() > 1) {
        trace->records.reserve(totalRecords);
        trace->compiles.reserve(totalCompiles);
    }
    for (size_t i = 0; i < files.size(); ++i) {
        for (auto& d : openErrors[i]) {
            trace->diagnostics.push_back(d);
            result.errors.push_back(d);
        }
        if (parts[i]) {
            const size_t first = trace->files.size();
            appendTrace(*trace, std::move(*parts[i]));
            // TORCH_LOGS text gives a file entry per process: all of them are of its run.
            for (size_t f = first; f < trace->files.size(); ++f)
                trace->files[f].run = runOfPart[i];
        }
    }
    labelFiles(*trace);
    report("done");
    // Nothing could be read at all (every path missing, unreadable or an empty folder): no
    // trace, only the errors, so a caller keeps what it showed before. A file that opened but
    // holds nothing is a trace with no records, not a failure.
    if (!anyRead && !result.errors.empty())
        return result;
    result.trace = std::move(trace);
    return result;
}

} // namespace

LoadResult load(const std::vector<std::string>& paths, const LoadOptions& options,
    const ProgressSink& progress, std::stop_token stop)
{
    LoadResult result;
    const std::vector<std::string> files = expandInputs(paths, options, result.errors);
    return loadFiles(files, {}, {}, paths, options, progress, stop, std::move(result));
}

LoadResult loadFromMemory(const std::vector<LoadedBytes>& inputs,
    const std::vector<std::string>& given, const LoadOptions& options, std::stop_token stop)
{
    std::vector<std::string> files;
    std::vector<std::shared_ptr<const InputBuffer>> buffers;
    std::vector<std::string> warnings;
    for (const auto& in : inputs) {
        files.push_back(in.path);
        buffers.push_back(in.buffer);
        warnings.push_back(in.warning);
    }
    return loadFiles(files, buffers, warnings, given, options, {}, stop, {});
}

LoadResult loadText(const std::string& name, std::string_view bytes, const LoadOptions& options)
{
    LoadResult result;
    std::string error;
    auto buffer = InputBuffer::fromBytes(bytes, options.maxDecompressedBytes, error);
    if (!buffer) {
        Diagnostic d { Severity::Error, DiagnosticCode::IoError, name, 0, "cannot read: " + error };
        result.errors.push_back(d);
        return result;
    }
    FileBuildInput in { name, buffer, {}, {} };
    const auto guess
        = classifyContent(buffer->view().substr(0, std::min<size_t>(buffer->size(), 1u << 20)));
    if (!isLoadable(guess.kind)) {
        result.errors.push_back(
            { Severity::Error, DiagnosticCode::NotATrace, name, 0, notATraceMessage(guess) });
        return result;
    }
    std::unique_ptr<Trace> part
        = guess.kind == ContentKind::TorchLogs ? logs::buildTorchLogs(in) : buildFile(in);
    if (!error.empty())
        part->diagnostics.insert(part->diagnostics.begin(),
            { Severity::Warning, DiagnosticCode::TruncatedRecord, name, 0, error });
    auto trace = std::make_shared<Trace>();
    appendTrace(*trace, std::move(*part));
    result.trace = std::move(trace);
    return result;
}

} // namespace dynascope
