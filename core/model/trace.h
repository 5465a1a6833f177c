// The trace model: rank (file) -> frame (code object) -> compile (one per dynamo_start, in file
// order) -> attempt. Built once by the loader and immutable afterwards, shared as
// std::shared_ptr<const Trace> between the GUI, the CLI and the tests.
//
// Records keep offsets into their file, never copies of payloads: a record's bytes are read again
// from the file's TraceSource (core/io/trace_source.h) and its payload decoded (tabs stripped,
// lines joined) only when something asks for it.
#pragma once

#include "core/model/compile_id.h"
#include "core/model/diagnostic.h"
#include "core/model/guard_tree.h"
#include "core/model/record_list.h"
#include "core/model/string_pool.h"
#include "core/util/boxed.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

class TraceSource;

inline constexpr uint32_t kNone = 0xffffffffu;
// Records and compiles are indexed with 32 bits and kNone is reserved: a trace holds fewer
// than this many of each (the loader stops a file there and says so).
inline constexpr uint64_t kMaxIndex = kNone;

enum RecordFlags : uint16_t {
    kHasPayloadHash = 1, // the header declared has_payload
    kBadJson = 2,
    kTruncated = 4, // the file ended inside this record
    kCrlf = 8, // the header line ends with CR LF
};

// One envelope (header line + payload lines) in a file. 32 bytes; a trace has millions.
struct Record {
    uint64_t offset = 0; // header line start in the buffer
    uint32_t headerLength = 0; // without the newline (and without CR)
    uint32_t payloadLength = 0; // bytes from payloadOffset() to the end of the last payload line
    uint32_t line = 0; // 1-based line number of the header
    uint32_t compile = kNone; // index into Trace::compiles
    uint32_t glogMs = kNone; // ms since local midnight from the glog prefix
    uint16_t kind = 0; // index into Trace::kindNames
    // month * 32 + day from the glog prefix (0 = none; the parsers accept months 1-12 and days
    // 1-31, so at most 415: 9 bits), and the RecordFlags (4 bits), sharing 16 bits.
    uint16_t glogDate : 9 = 0;
    uint16_t flags : 7 = 0;

    bool hasPayload() const { return flags & kHasPayloadHash; }
    uint64_t payloadOffset() const { return offset + headerLength + ((flags & kCrlf) ? 2 : 1); }
};
static_assert(sizeof(Record) == 32, "the record table's size per record (docs/performance.md)");

// Text that stays in its file (no copy): read again from the file's source when asked for
// (empty when the file changed since it was loaded; TraceSource::problem() says how).
class BufferText {
public:
    BufferText() = default;
    BufferText(std::shared_ptr<const TraceSource> source, uint64_t offset, uint32_t length);
    std::string text() const;
    bool empty() const { return m_length == 0; }
    size_t size() const { return m_length; }
    operator std::string() const { return text(); }
    void clear() { *this = {}; }

private:
    std::shared_ptr<const TraceSource> m_source;
    uint64_t m_offset = 0;
    uint32_t m_length = 0;
};

// A compile's guard tree, parsed from its guards record the first time something looks at it:
// trees reach hundreds of KB of text and most are never shown. It reads like the
// std::shared_ptr<const GuardTree> it replaced (`if (c.guards)`, `c.guards->nodes`,
// `*c.guards`); copies share one parse, and the first use from several threads parses once.
class LazyGuardTree {
public:
    LazyGuardTree() = default;
    LazyGuardTree(std::shared_ptr<const GuardTree> parsed);
    // The tree of `record` (a dynamo_cpp_guards_str record when cppForm, else dynamo_guards).
    static LazyGuardTree fromRecord(
        std::shared_ptr<const TraceSource> source, const Record& record, bool cppForm);

    explicit operator bool() const { return m_state != nullptr; }
    const GuardTree* get() const; // parses on first use; null when the compile logged none
    const GuardTree& operator*() const { return *get(); }
    const GuardTree* operator->() const { return get(); }
    // The parsed tree if some use already parsed it, else a fresh parse that is not kept (for
    // one-off passes such as the loader's recompile linking).
    std::shared_ptr<const GuardTree> parseTransient() const;
    void reset() { m_state.reset(); }

private:
    struct State;
    std::shared_ptr<State> m_state;
};

// A frame of a logged stack. Its texts point into the trace's StringPool (Trace::pools), like
// the phase spans' names: the same files and functions recur in the stacks of every compile
// (56 bytes a frame, instead of 104 and up to three strings). A parser that makes frames takes
// the pool they point into; a frame must not outlive it.
struct StackFrame {
    int64_t line = 0;
    std::string_view name;
    std::string_view file; // resolved from the string table; "(unknown file #N)" when absent
    std::string_view loc; // source text, newer logs only
};
using Stack = std::vector<StackFrame>;

enum class CompileStatus : uint8_t { Ok, GraphBreak, Empty, Error, Missing };
enum class TimeSource : uint8_t { None, Glog, Metrics, Chromium };
const char* toString(CompileStatus s);
const char* toString(TimeSource s);

// A chromium B/E pair, an X event, or an open-ended B (unmatched: cut log). 40 bytes.
// Names and categories point into the trace's StringPool (Trace::pools): a trace has hundreds
// of thousands of spans and a few dozen distinct names.
struct PhaseSpan {
    PooledPair names; // the event's name, then its category
    double startUs = 0; // epoch microseconds
    double endUs = 0;
    int32_t depth = 0; // nesting under the compile, 0 = outermost
    bool openEnd = false; // B without E
    bool openStart = false; // E without B
    // Lies (partly) outside its compile's [startUs, endUs]: runtime work logged under the compile's
    // id after it finished (autotuning, cudagraph recording), the 2024 _compile.compile_inner span
    // around entire_frame_compile, or an inconsistent log. Views must not assume nesting.
    bool outsideCompile = false;
    uint32_t beginRecord = kNone;
    uint32_t endRecord = kNone;

    std::string_view name() const { return names.first(); }
    std::string_view category() const { return names.second(); }
};
static_assert(sizeof(PhaseSpan) == 40, "the phase spans' size (docs/performance.md)");

struct InstantEvent {
    std::string_view name; // in Trace::pools
    double tsUs = 0;
    uint32_t record = kNone;
};

// One section of PyTorch's structured graph-break text (2.6+): the break type on the first line,
// then "  Explanation: ...", "  Hint: ..." lines, "  Developer debug context: ..." and " For more
// details about this graph break, please visit: <url>/gbNNNN.html".
struct GraphBreakDetail {
    std::string title; // "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    std::string explanation;
    std::vector<std::string> hints;
    std::string developerContext;
    std::string gbCode; // "gb0124", from the link
    std::string link; // the documentation URL, as text (never opened by Dynascope)
};

struct GraphBreak {
    // The reason without PyTorch's "Encountered graph break when attempting to trace OP: ...:"
    // preamble (that goes to `operation`): its first line is the break type. The whole text as
    // logged, or a restart_reasons entry.
    std::string reason;
    std::string operation; // "CALL: a function call, e.g. f(x, y)" from the preamble
    // details[0] is the break; details[1..] are the chained "*** While handling this graph
    // break, another graph break occurred: ***" sections. Empty for unstructured text.
    std::vector<GraphBreakDetail> details;
    // "Failed to handle graph break gracefully. Skipping the function and falling back to
    // eager": the frame is skipped (runs in eager), no resume function follows.
    bool skipsFrame = false;
    // "Encountered graph break that we cannot resume from...": compiled up to the previous
    // resumable point, the rest of the function is skipped.
    bool cannotResume = false;
    std::string stackAttribution; // "Stack variable source attribution:" section, verbatim
    std::string file; // user file of the break
    int64_t line = 0;
    std::string traceback; // "User code traceback:" section, verbatim
    Stack userFrames; // parsed from the traceback
    uint32_t record = kNone; // the dynamo_graph_break_reason artifact (kNone: restart_reasons)
    uint32_t resumeFrame = kNone; // Trace::frames index of torch_dynamo_resume_in_* frame
    uint32_t resumeCompile = kNone; // first compile of that frame
};

// What a recompile's reason says failed, and where that guard is in the earlier compile.
struct RecompileReason {
    std::string text; // the whole reason as logged
    std::string earlierKey; // "0/0" from "0/0: tensor 'x' ..."
    std::string detail; // the part after "<id>: "
    uint32_t earlierCompile = kNone; // Trace::compiles index
    int guardNode = -1; // node in that compile's guard tree
    std::string mismatch; // "size", "stride", "dtype", "device", "requires_grad", "id", ...
    std::string source; // guarded source, e.g. L['x']
    std::string expected, actual; // when the reason says so
    Stack userStack; // "User stack trace:" frames after the reason (PyTorch 2.11+), innermost last
};

struct Failure {
    std::string type; // bare class name ("BackendCompilerFailed"), 2024 form normalised
    std::string rawType; // as logged
    std::string reason;
    std::string file;
    int64_t line = 0;
    std::string traceback; // dynamo_error artifact text when present
    uint32_t record = kNone;
    // The structured sections of `reason` when it is graph-break text (fullgraph=True breaks,
    // frames skipped after a break), as in GraphBreak::details.
    std::vector<GraphBreakDetail> details;
    // Dynamo caught the error and ran the frame in eager (a graph break it could not handle):
    // the program went on; no code was compiled for the frame.
    bool frameSkipped = false;
    // "Dynamo recompile limit exceeded": the frame's cache is full, later calls run in eager.
    // PyTorch logs this compile without a dynamo_start.
    bool recompileLimit = false;
    std::string layer; // the compiler layer that failed: "dynamo", "aot_autograd", "backend",
                       // "inductor" (failureLayer() in core/load/finish/graph_break_text.h)
};

enum class CacheKind : uint8_t { Hit, Miss, Bypass };
struct CacheEvent {
    std::string cache; // "fx_graph_cache", "aotautograd_cache", "inductor_fx_remote_cache"...
    CacheKind kind = CacheKind::Miss;
    uint32_t record = kNone;
    double tsUs = 0; // chromium instant time when known, else the record's time
};

// guard_added_fast, symbolic_shape_specialization, create_symbol, create_unbacked_symbol,
// guard_added, ...: shape reasoning with the user line that caused it.
struct ShapeEvent {
    std::string kind;
    std::string expr; // expr / symbol
    std::string value;
    std::string sources;
    std::string reason;
    Stack userStack;
    Stack stack;
    uint32_t record = kNone;
};

struct Attempt {
    int64_t attempt = 0;
    uint32_t firstRecord = kNone;
    uint32_t recordCount = 0;
};

struct Compile {
    uint32_t index = 0; // position in Trace::compiles
    uint32_t file = 0; // Trace::files index
    uint32_t frame = kNone; // Trace::frames index
    CompileId id;
    CompileStatus status = CompileStatus::Missing;
    std::string coName;
    std::string coFilename;
    int64_t coFirstLineno = 0;
    Stack stack; // dynamo_start stack; last frame is the compiled function
    double startUs = 0, endUs = 0; // epoch microseconds
    TimeSource timeSource = TimeSource::None;

    uint32_t startRecord = kNone; // dynamo_start (kNone: rebuilt without one)
    uint32_t metricsRecord = kNone; // compilation_metrics (final)
    uint32_t guardsRecord = kNone; // dynamo_cpp_guards_str or dynamo_guards (last one)
    RecordList records; // every record of this compile, file order
    std::vector<Attempt> attempts;

    std::vector<PhaseSpan> phases;
    std::vector<InstantEvent> instants;
    std::vector<GraphBreak> graphBreaks;
    std::vector<RecompileReason> recompileReasons;
    Boxed<Failure> failure; // on the heap: 8 bytes in every compile, and few fail
    std::vector<CacheEvent> cacheEvents;
    std::vector<ShapeEvent> shapeEvents;
    LazyGuardTree guards; // false when the compile logged none

    // Selected metrics (absent = not logged).
    std::optional<int64_t> guardCount, graphOpCount, graphNodeCount, cacheSize, shapeEnvGuardCount,
        numGraphBreaks;
    std::vector<std::string> restartReasons;
    // compilation_metrics.dynamo_time_before_restart_s: what the attempts that restarted cost.
    std::optional<double> beforeRestartS;
    // Why Inductor did not use CUDA graphs for this compile under mode="reduce-overhead":
    // compilation_metrics.cudagraph_skip_reason ("skipping cudagraphs due to mutated inputs
    // ..."), and bwd_compilation_metrics' for its backward. The last compile-time reason only:
    // PyTorch keeps no more, and logs run-time skips as text.
    std::string cudagraphSkipReason, cudagraphSkipReasonBackward;
    std::string recompileReasonMetric; // compilation_metrics.recompile_reason (2025+)
    BufferText metricsJson; // the compilation_metrics object as logged (for the inspector)

    double durationUs() const { return endUs > startUs ? endUs - startUs : 0; }
    bool isRecompile() const { return id.frameCompile && *id.frameCompile > 0; }
    // Counting rule: graph-break artifacts if any, otherwise restart_reasons entries.
    size_t graphBreakCount() const { return graphBreaks.size(); }
};

struct Frame {
    uint32_t index = 0;
    uint32_t file = 0;
    std::optional<int64_t> frameId;
    std::optional<int64_t> compiledAutograd;
    std::string coName;
    std::string coFilename;
    int64_t coFirstLineno = 0;
    std::vector<uint32_t> compiles; // file order
    uint32_t breakOrigin = kNone; // compile whose graph break resumes here
};

// What a file is: a TORCH_TRACE (JSON records), or TORCH_LOGS text (core/load/logs/torch_logs.h:
// one record per log statement, in a buffer of the statements' text).
enum class TraceFormat : uint8_t { TorchTrace, TorchLogs };
const char* toString(TraceFormat f); // "torch_trace", "torch_logs"

// The records of one file whose payload does not match its has_payload MD5, in file order, as
// payload verification found them (Trace::verifyPayloads turns them into diagnostics). Bounded
// like the diagnostics it becomes: an edited file can mismatch on every payload.
struct PayloadMismatches {
    uint64_t count = 0;
    // The first ones (at most DiagnosticLimiter::kKeptPerCode), listed one by one: records
    // counted from the file's first one.
    std::vector<uint32_t> listed;
    uint64_t firstUnlistedLine = 0, lastUnlistedLine = 0; // of the others
    void add(uint32_t recordInFile, uint64_t line);
};

struct TraceFile {
    std::string path; // as given
    TraceFormat format = TraceFormat::TorchTrace;
    std::optional<int64_t> rank; // from envelopes, else from the file name
    uint64_t bytes = 0; // on disk
    uint64_t decodedBytes = 0; // after decompression
    std::string compression; // "", "zstd", "gzip"
    uint64_t badLines = 0;
    uint32_t firstRecord = 0; // range in Trace::records
    uint32_t recordCount = 0;
    // Where its records' bytes are read again (core/io/trace_source.h).
    std::shared_ptr<const TraceSource> source;
    std::vector<std::string> strings; // string table
    int tzOffsetMinutes = 0; // glog local time minus UTC, recovered from epoch fields
    int year = 1970; // year of the glog times, recovered from epoch fields
    uint32_t run = 0; // TraceRun::number of the run the file belongs to (0: not grouped)
    // How views name the file: "rank 1"; "rank 1 · run 2" or "rank 1 · <file name>" when
    // another loaded file claims the same rank; the file name when the rank is unknown
    // (labelFiles in core/load/runs.h).
    std::string label;
    // Payload verification done by the loader while it scanned the file
    // (LoadOptions::verifyPayloads), which Trace::verifyPayloads() reports instead of reading
    // every payload again; absent when the file was loaded without it.
    std::optional<PayloadMismatches> payloadMismatches;
};

// One run of a program: the files a folder holds that were written by the same job, told apart
// from other runs by time and by the ranks they claim (core/load/runs.h). PyTorch names each
// file with a random suffix, so a TORCH_TRACE folder collects every run that used it.
struct TraceRun {
    struct File {
        std::string path;
        std::optional<int64_t> rank;
        uint64_t bytes = 0; // on disk
        std::string duplicateOf; // the path of an identical file when this one is a copy
    };
    uint32_t number = 0; // 1 = the oldest
    double startUs = 0, endUs = 0; // epoch microseconds of its files' first and last records
    std::vector<File> files; // path order; duplicates included (and never loaded)
    bool loaded = false; // its files are in Trace::files
    std::vector<int64_t> ranks() const; // distinct known ranks, sorted
};

// Epoch microseconds of a record's glog time (month, day and local time of day) in `year`, at
// `tzOffsetMinutes` from UTC; 0 when the record has no glog prefix.
double glogEpochUs(const Record& r, int year, int tzOffsetMinutes);

class Trace {
public:
    std::vector<TraceFile> files;
    std::vector<Record> records; // all files, file after file
    std::vector<Compile> compiles; // file order within each file
    std::vector<Frame> frames;
    std::vector<std::string> kindNames; // Record::kind -> name
    std::vector<Diagnostic> diagnostics;
    std::map<std::string, uint64_t> kindCounts; // records per kind, unknown kinds included
    // The runs the inputs hold, oldest first (empty when the trace was not loaded from files,
    // e.g. pasted text). A run that is not loaded is listed so that a view can offer it.
    std::vector<TraceRun> runs;
    // The pools the phase spans', instant events' and stack frames' texts point into (one per
    // file built).
    std::vector<std::shared_ptr<const StringPool>> pools;

    // Payload text of a record: one tab stripped per line, joined with '\n', CR removed.
    std::string payload(uint32_t record) const;
    // The header line's text (without prefix stripping).
    std::string header(uint32_t record) const;
    // The header JSON (the part from the first '{').
    std::string headerJson(uint32_t record) const;
    // What went wrong reading the files again since they were loaded (one line per file that
    // changed on disk), or empty. Text read from such a file is empty.
    std::vector<std::string> sourceProblems() const;
    // Epoch microseconds of a record from its glog prefix (local time without a year: the
    // loader recovered each file's year and zone), or 0 when it has none.
    double glogEpochUs(uint32_t record) const;
    const std::string& kindName(uint32_t record) const { return kindNames[records[record].kind]; }
    uint32_t fileOf(uint32_t record) const;
    // Whether the payload matches its has_payload MD5 (true when it has no hash).
    bool payloadHashMatches(uint32_t record) const;
    // Verifies every payload hash: reports what the loader found as it scanned
    // (TraceFile::payloadMismatches), and reads the payloads of the other files again, in
    // parallel over files.
    struct PayloadCheck {
        std::vector<uint64_t> mismatchesPerFile;
        std::vector<Diagnostic> diagnostics; // one Md5Mismatch per bad record
    };
    PayloadCheck verifyPayloads() const;

    // Compiles that have a dynamo_start (the model also holds compiles rebuilt from records
    // whose dynamo_start is missing; they count as graph breaks and failures, not as compiles).
    uint64_t compileCount() const;
    uint64_t recompileCount() const;
    uint64_t graphBreakCount() const;
    uint64_t failureCount() const;
};

} // namespace dynascope
