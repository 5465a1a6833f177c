// TORCH_LOGS text (core/logs): the line parser, the statement reader and the model, on captures
// made of real PyTorch 2.13 log lines (from tests/scenarios' recordings) and the ways they reach
// a bug report: wrapped or cut by a terminal, with "[rank0]:" prefixes, interleaved with the
// program's output and another process's lines, indented, CRLF. A transformation that keeps the
// text's content must give the same model; one that loses some (a cut paste) must say so. Large
// inputs: heap per input byte does not grow with the size (allocations are counted here, time is
// for dynascope-bench).
#include "core/io/input_buffer.h"
#include "core/load/loader.h"
#include "core/load/logs/statement_reader.h"
#include "core/load/logs/torch_logs.h"
#include "core/parse/log_line.h"
#include "fuzz/trace_invariants.h"
#include "tests/support/heap_counter.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <sstream>

using namespace dynascope;
using namespace dynascope::logs;

namespace {

// One log statement as PyTorch writes it: every message line gets the same prefix.
struct Stmt {
    char level;
    int ms; // milliseconds after 22:28:00.000
    const char* emitter;
    const char* id; // "" for none
    const char* artifact; // "" for none
    std::vector<std::string> lines;
};

std::string prefixOf(const Stmt& s, const std::string& rank, int pid)
{
    char time[32];
    std::snprintf(time, sizeof time, "1201 22:28:%02d.%03d000", s.ms / 1000, s.ms % 1000);
    std::string p = rank + s.level + time + " " + std::to_string(pid) + " " + s.emitter + "]";
    if (*s.id)
        p += std::string(" [") + s.id + "]";
    if (*s.artifact)
        p += std::string(" [__") + s.artifact + "]";
    return p;
}

const char* kGuards = "torch/_dynamo/guards.py:4483";
const char* kShapes = "torch/fx/experimental/symbolic_shapes.py:4058";

std::vector<std::string> tree(const std::string& tensorMatch)
{
    return { "", "TREE_GUARD_MANAGER:", "+- RootGuardManager",
        "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           # "
        "_dynamo/output_graph.py:1122 in init_ambient_guards",
        "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', "
        "framelocals_idx=0), type=<class 'torch.Tensor'>, tag_safe=(False, False)",
        "| | +- " + tensorMatch, "" };
}

// The example scenario's story in real 2.13 lines: scale() [0/0], step() breaking on a
// data-dependent if [1/0] and resuming [2/0], the 64-row recompile [0/1] with its symbol, then
// torch._dynamo.reset() and [0/0] again.
std::vector<Stmt> story()
{
    const std::string tm32 = "TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, "
                             "BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, "
                             "device=None, requires_grad=False, size=[32, 128], stride=[128, 1])  "
                             "# return (x * 0.5 + 1).sum(dim=-1)  # example.py:37 in scale";
    const std::string tmDyn = "TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, "
                              "BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, "
                              "device=None, requires_grad=False, size=[None, 128], stride=[128, "
                              "1])  # return (x * 0.5 + 1).sum(dim=-1)  # example.py:37 in scale";
    const std::string tmY
        = "TENSOR_MATCH: check_tensor(L['y'], Tensor, DispatchKeySet(CPU, "
          "BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, "
          "device=None, requires_grad=False, size=[32, 128], stride=[128, 1])  "
          "# return y.neg()  # example.py:33 in torch_dynamo_resume_in_step_at_31";
    return {
        { 'I', 100, kShapes, "0/0", "", { "create_env" } },
        { 'V', 501, "torch/_dynamo/guards.py:4786", "0/0", "guards", { "GUARDS:" } },
        { 'V', 502, kGuards, "0/0", "guards", tree(tm32) },
        { 'V', 560, "torch/_dynamo/guards.py:4519", "0/0", "guards",
            { "Guard eval latency = 75.61 us" } },
        { 'I', 600, kShapes, "1/0", "", { "create_env" } },
        { 'V', 650, "torch/_dynamo/symbolic_convert.py:5124", "1/0", "graph_breaks",
            { "Graph break in user code at example.py:31",
                "Graph Break Reason: Data-dependent branching",
                "  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > "
                "0:`). Dynamo does not support tracing dynamic control flow.",
                "", "  Hint: Use `torch.cond` to express dynamic control flow.", "",
                "  Developer debug context: attempted to jump with TensorVariable()", "",
                " For more details about this graph break, please visit: "
                "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0170.html",
                "", "User code traceback:", "  File \"example.py\", line 61, in <module>",
                "    torch.testing.assert_close(torch.compile(step, backend=\"aot_eager\")(x), "
                "step(x))",
                "  File \"example.py\", line 31, in step",
                "    if y.sum() > 0:", "       ^^^^^^^^^^^^", "" } },
        { 'V', 700, kGuards, "1/0", "guards", tree(tm32) },
        { 'V', 710, "torch/_dynamo/guards.py:4519", "1/0", "guards",
            { "Guard eval latency = 81.30 us" } },
        { 'V', 800, kGuards, "2/0", "guards", tree(tmY) },
        { 'V', 810, "torch/_dynamo/guards.py:4519", "2/0", "guards",
            { "Guard eval latency = 76.67 us" } },
        { 'V', 900, "torch/_dynamo/guards.py:5396", "0/1", "recompiles",
            { "Recompiling function scale in example.py:36",
                "    triggered by the following guard failure(s):",
                "    - 0/0: tensor 'x' size mismatch at index 0. expected 32, actual 64" } },
        { 'I', 901, kShapes, "0/1", "", { "create_env" } },
        { 'I', 950, "torch/fx/experimental/symbolic_shapes.py:5743", "0/1", "",
            { "create_symbol s77 = 64 for L['x'].size()[0] [2, int_oo] return (x * 0.5 + "
              "1).sum(dim=-1)  # example.py:37 in scale (_dynamo/variables/builder.py:4960 in "
              "<lambda>), for more info run with TORCHDYNAMO_EXTENDED_DEBUG_CREATE_SYMBOL=\"s77\" "
              "or to suppress this message run with TORCHDYNAMO_EXTENDED_ADVICE=\"0\"" } },
        { 'V', 1000, kGuards, "0/1", "guards", tree(tmDyn) },
        { 'V', 1040, "torch/_dynamo/guards.py:4519", "0/1", "guards",
            { "Guard eval latency = 106.70 us" } },
        // torch._dynamo.reset(): the ids start again.
        { 'I', 1100, kShapes, "0/0", "", { "create_env" } },
        { 'V', 1200, kGuards, "0/0", "guards", tree(tm32) },
        { 'V', 1230, "torch/_dynamo/guards.py:4519", "0/0", "guards",
            { "Guard eval latency = 80.00 us" } },
    };
}

// The physical lines of a capture: (line, is it program output).
using Lines = std::vector<std::string>;
Lines render(const std::vector<Stmt>& stmts, const std::string& rank = "", int pid = 4821)
{
    Lines out;
    for (const Stmt& s : stmts)
        for (const std::string& l : s.lines)
            out.push_back(prefixOf(s, rank, pid) + " " + l);
    return out;
}

std::string join(const Lines& lines, const char* nl = "\n")
{
    std::string out;
    for (const auto& l : lines)
        out += l + nl;
    return out;
}

// Hard-wraps every line at `columns` characters, as a terminal copy does.
Lines wrap(const Lines& lines, size_t columns)
{
    Lines out;
    for (std::string l : lines) {
        while (l.size() > columns) {
            out.push_back(l.substr(0, columns));
            l = l.substr(columns);
        }
        out.push_back(l);
    }
    return out;
}

std::shared_ptr<const Trace> build(const std::string& text, const std::string& name = "capture.txt")
{
    auto r = loadText(name, text);
    return r.trace;
}

// What a model says, as text: what every row must agree on.
std::string facts(const Trace& t, uint32_t file = 0)
{
    std::ostringstream o;
    for (const Compile& c : t.compiles) {
        if (c.file != file)
            continue;
        o << c.id.display() << " " << c.coName << " " << c.coFilename << ":" << c.coFirstLineno
          << " " << toString(c.status) << " start=" << (c.startRecord != kNone)
          << " time=" << toString(c.timeSource) << " " << c.durationUs()
          << "us attempts=" << c.attempts.size() << " records=" << c.records.size() << "\n";
        for (const GraphBreak& g : c.graphBreaks) {
            o << "  break " << g.reason.substr(0, g.reason.find('\n')) << " at " << g.file << ":"
              << g.line << " frames=" << g.userFrames.size()
              << " gb=" << (g.details.empty() ? "" : g.details[0].gbCode) << " resume="
              << (g.resumeCompile == kNone ? "-" : t.compiles[g.resumeCompile].id.display())
              << "\n";
        }
        for (const RecompileReason& r : c.recompileReasons) {
            o << "  reason " << r.text << " earlier="
              << (r.earlierCompile == kNone ? "-" : t.compiles[r.earlierCompile].id.display())
              << " " << r.mismatch << " " << r.source << " " << r.expected << "->" << r.actual;
            if (r.guardNode >= 0)
                o << " guard="
                  << t.compiles[r.earlierCompile].guards->nodes[size_t(r.guardNode)].kind;
            o << "\n";
        }
        for (const ShapeEvent& e : c.shapeEvents) {
            o << "  shape " << e.kind << " " << e.expr << "=" << e.value << " " << e.sources;
            for (const auto& f : e.userStack)
                o << " @" << f.file << ":" << f.line << " " << f.name << " `" << f.loc << "`";
            o << "\n";
        }
        if (c.guards)
            o << "  guards " << c.guards->nodes.size() << " nodes\n";
        if (c.failure)
            o << "  failure limit=" << c.failure->recompileLimit << " " << c.failure->reason
              << "\n";
    }
    return o.str();
}

const char* kStoryFacts
    = R"([0/0] scale example.py:36 ok start=1 time=glog 460000us attempts=1 records=4
  guards 4 nodes
[1/0] step example.py:0 graph_break start=1 time=glog 110000us attempts=1 records=4
  break Data-dependent branching at example.py:31 frames=2 gb=gb0170 resume=[2/0]
  guards 4 nodes
[2/0] torch_dynamo_resume_in_step_at_31 example.py:31 ok start=1 time=glog 10000us attempts=1 records=2
  guards 4 nodes
[0/1] scale example.py:36 ok start=1 time=glog 140000us attempts=1 records=5
  reason 0/0: tensor 'x' size mismatch at index 0. expected 32, actual 64 earlier=[0/0] size x 32->64 guard=TENSOR_MATCH
  shape create_symbol s77=64 L['x'].size()[0] @example.py:37 scale `return (x * 0.5 + 1).sum(dim=-1)`
  guards 4 nodes
[0/0] scale example.py:36 ok start=1 time=glog 130000us attempts=1 records=3
  guards 4 nodes
)";

// Line by line, so that a difference shows where it is.
QStringList factLines(const std::string& facts)
{
    return QString::fromStdString(facts).split(u'\n');
}

} // namespace

class TestTorchLogs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parseLine_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("artifact");
        QTest::addColumn<QString>("emitter");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("ms");
        const auto row = [](const char* name, const char* line, bool ok, int rank, const char* id,
                             const char* artifact, const char* emitter, const char* message,
                             int ms) {
            QTest::newRow(name) << QString::fromUtf8(line) << ok << rank << QString::fromUtf8(id)
                                << QString::fromUtf8(artifact) << QString::fromUtf8(emitter)
                                << QString::fromUtf8(message) << ms;
        };
        const int t = ((22 * 60 + 28) * 60 + 22) * 1000 + 271;
        row("guards",
            "V1201 22:28:22.271000 30442 torch/_dynamo/guards.py:4786] [0/0] [__guards] GUARDS:",
            true, -1, "0/0", "guards", "torch/_dynamo/guards.py:4786", "GUARDS:", t);
        row("rank",
            "[rank1]:I1201 22:28:22.271000 7 torch/fx/experimental/symbolic_shapes.py:4058] [0/0] "
            "create_env",
            true, 1, "0/0", "", "torch/fx/experimental/symbolic_shapes.py:4058", "create_env", t);
        row("attempt", "V1201 22:28:22.271000 1 torch/_dynamo/x.py:1] [0/1_2] hello", true, -1,
            "0/1_2", "", "torch/_dynamo/x.py:1", "hello", t);
        row("compiled autograd", "I1201 22:28:22.271000 1 torch/_dynamo/x.py:1] [!0/3/0] hi", true,
            -1, "!0/3/0", "", "torch/_dynamo/x.py:1", "hi", t);
        row("no id", "V1201 22:28:22.271000 1 torch/_dynamo/convert_frame.py:2513] skipping: inner",
            true, -1, "", "", "torch/_dynamo/convert_frame.py:2513", "skipping: inner", t);
        row("empty message", "V1201 22:28:22.271000 1 torch/_dynamo/guards.py:1] [0/0] [__guards] ",
            true, -1, "0/0", "guards", "torch/_dynamo/guards.py:1", "", t);
        row("empty message, space trimmed",
            "V1201 22:28:22.271000 1 torch/_dynamo/guards.py:1] [0/0] [__guards]", true, -1, "0/0",
            "guards", "torch/_dynamo/guards.py:1", "", t);
        row("CR", "W1201 22:28:22.271000 1 torch/a.py:1] [0/0] warn\r", true, -1, "0/0", "",
            "torch/a.py:1", "warn", t);
        row("indented", "    V1201 22:28:22.271000 1 torch/a.py:1] x", true, -1, "", "",
            "torch/a.py:1", "x", t);
        row("bracket in message", "V1201 22:28:22.271000 1 torch/a.py:1] [0/0] a [b] c", true, -1,
            "0/0", "", "torch/a.py:1", "a [b] c", t);
        row("not an id", "V1201 22:28:22.271000 1 torch/a.py:1] [x/y] msg", true, -1, "", "",
            "torch/a.py:1", "[x/y] msg", t);
        row("trace header",
            "V1201 22:28:22.271000 1 torch/_dynamo/convert_frame.py:303] {\"dynamo_start\": {}}",
            true, -1, "", "", "torch/_dynamo/convert_frame.py:303", "{\"dynamo_start\": {}}", t);
        row("no fraction", "I1201 22:28:22 1 torch/a.py:1] m", true, -1, "", "", "torch/a.py:1",
            "m", t - 271);
        row("C++ glog", "[W1201 22:28:22.271000 1 ProcessGroupGloo.cpp:12] Warning: x", false, -1,
            "", "", "", "", 0);
        row("program output", "epoch 1 loss 0.25", false, -1, "", "", "", "", 0);
        row("bad month", "V1301 22:28:22.271000 1 torch/a.py:1] m", false, -1, "", "", "", "", 0);
        row("no line number", "V1201 22:28:22.271000 1 torch/a.py] m", false, -1, "", "", "", "",
            0);
        row("glued message", "V1201 22:28:22.271000 1 torch/a.py:1]m", false, -1, "", "", "", "",
            0);
        row("bad rank", "[rankX]:V1201 22:28:22.271000 1 torch/a.py:1] m", false, -1, "", "", "",
            "", 0);
    }
    void parseLine()
    {
        QFETCH(QString, line);
        QFETCH(bool, ok);
        const std::string s = line.toStdString();
        const auto l = parseLogLine(s);
        QCOMPARE(l.has_value(), ok);
        if (!ok)
            return;
        QFETCH(int, rank);
        QFETCH(QString, id);
        QFETCH(QString, artifact);
        QFETCH(QString, emitter);
        QFETCH(QString, message);
        QFETCH(int, ms);
        QCOMPARE(l->rank.value_or(-1), int64_t(rank));
        QCOMPARE(QString::fromStdString(std::string(l->compileId)), id);
        QCOMPARE(QString::fromStdString(std::string(l->artifact)), artifact);
        QCOMPARE(QString::fromStdString(std::string(l->emitter)), emitter);
        QCOMPARE(QString::fromStdString(std::string(l->message)), message);
        QCOMPARE(int(l->msOfDay), ms);
    }

    void recognition_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("logs");
        const std::string capture = join(render(::story()));
        QTest::newRow("capture") << QByteArray::fromStdString(capture) << true;
        QTest::newRow("after 500 KB of program output")
            << QByteArray::fromStdString(std::string(500000, 'x') + "\n" + capture) << true;
        QTest::newRow("two ranks")
            << QByteArray::fromStdString(join(render(::story(), "[rank0]:"))) << true;
        QTest::newRow("TORCH_TRACE")
            << QByteArray("V1201 22:28:22.271000 1 torch/_dynamo/convert_frame.py:303] "
                          "{\"dynamo_start\": {\"stack\": []}, \"frame_id\": 0}\n")
            << false;
        QTest::newRow("TORCH_TRACE with a log line") << QByteArray(
            "V1201 22:28:22.271000 1 torch/_dynamo/convert_frame.py:303] {\"a\": 1}\n"
            "V1201 22:28:22.271000 1 torch/_dynamo/convert_frame.py:303] {\"b\": 1}\n"
            "I1201 22:28:22.271000 1 torch/fx/experimental/symbolic_shapes.py:1] "
            "[0/0] create_env\n") << false;
        QTest::newRow("another library's glog lines") << QByteArray(
            "I1201 22:28:22.271000 1 train.py:12] step 1\nW1201 22:28:22.271000 1 "
            "absl/x.py:3] hi\n") << false;
        QTest::newRow("program output") << QByteArray("epoch 1\nepoch 2\n") << false;
        QTest::newRow("empty") << QByteArray() << false;
    }
    void recognition()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, logs);
        QCOMPARE(looksLikeTorchLogs(std::string_view(text.constData(), size_t(text.size()))), logs);
    }

    // The story as PyTorch wrote it.
    void story()
    {
        auto t = build(join(render(::story())));
        QVERIFY(t);
        QCOMPARE(factLines(facts(*t)), factLines(kStoryFacts));
        QCOMPARE(t->files.size(), size_t(1));
        QCOMPARE(int(t->files[0].format), int(TraceFormat::TorchLogs));
        QCOMPARE(t->files[0].badLines, uint64_t(0));
        QCOMPARE(t->compileCount(), uint64_t(5));
        QCOMPARE(t->recompileCount(), uint64_t(1));
        QCOMPARE(t->graphBreakCount(), uint64_t(1));
        // One record per statement; its payload is the message without the prefixes.
        QCOMPARE(t->records.size(), size_t(18));
        const Compile& c = t->compiles[0];
        QCOMPARE(QString::fromStdString(t->kindName(c.guardsRecord)), u"guards"_qs);
        const std::string p = t->payload(c.guardsRecord);
        QVERIFY(p.starts_with("TREE_GUARD_MANAGER:\n+- RootGuardManager\n"));
        QVERIFY(p.find("[__guards]") == std::string::npos);
        QCOMPARE(t->records[c.guardsRecord].line, 3u);
        const std::string v = fuzz::checkTrace(*t);
        QVERIFY2(v.empty(), v.c_str());
    }

    // Transformations a capture goes through on its way into a bug report that keep its
    // content: the model is the same.
    void sameModel_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("foreign");
        QTest::addColumn<int>("wrapColumns");
        const Lines lines = render(::story());
        auto add = [](const char* name, const std::string& text, int foreign, int wrap = 0) {
            QTest::newRow(name) << QByteArray::fromStdString(text) << foreign << wrap;
        };
        add("as written", join(lines), 0);
        add("CRLF", join(lines, "\r\n"), 0);
        add("no newline at the end", join(lines).substr(0, join(lines).size() - 1), 0);
        Lines indented;
        for (const auto& l : lines)
            indented.push_back("    " + l);
        add("indented as code", join(indented), 0);
        Lines trimmed;
        for (auto l : lines) {
            while (!l.empty() && l.back() == ' ')
                l.pop_back();
            trimmed.push_back(l);
        }
        add("trailing spaces trimmed", join(trimmed), 0);
        add("wrapped at 120 columns", join(wrap(trimmed, 120)), 0, 120);
        add("wrapped at 91 columns", join(wrap(trimmed, 91)), 0, 91);
        // The program's own output between statements (prints, warnings, a traceback).
        Lines mixed;
        int n = 0;
        for (size_t i = 0; i < lines.size(); ++i) {
            if (i == 0 || lines[i].substr(0, 60) != lines[i - 1].substr(0, 60)) {
                mixed.push_back("epoch " + std::to_string(n) + ": loss 0.25");
                mixed.push_back("");
                n += 2;
            }
            mixed.push_back(lines[i]);
        }
        mixed.push_back("Traceback (most recent call last):");
        mixed.push_back("  File \"train.py\", line 3, in <module>");
        n += 2;
        add("program output between statements", join(mixed), n);
        add("program output, wrapped at 100", join(wrap(mixed, 100)), n, 100);
        // Another process (pid 9) logging in the middle of every statement.
        Lines other;
        for (const auto& l : lines) {
            other.push_back(l);
            other.push_back("I1201 22:28:00.000000 9 "
                            "torch/fx/experimental/symbolic_shapes.py:4058] create_env");
        }
        add("another process interleaved", join(other), 0);
    }
    void sameModel()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, foreign);
        QFETCH(int, wrapColumns);
        auto t = build(text.toStdString());
        QVERIFY(t);
        // The story's process: pid 4821 sorts after pid 9 when that one is there.
        const uint32_t file = t->files.size() > 1 ? 1 : 0;
        QCOMPARE(factLines(facts(*t, file)), factLines(kStoryFacts));
        QCOMPARE(t->files[0].badLines, uint64_t(foreign));
        bool saidWrap = false;
        for (const auto& d : t->diagnostics) {
            saidWrap = saidWrap
                || d.message.find("wrapped at " + std::to_string(wrapColumns) + " columns")
                    != std::string::npos;
            QVERIFY2(d.severity == Severity::Info
                    || d.message.find("middle of a line") != std::string::npos,
                d.format().c_str());
        }
        QCOMPARE(saidWrap, wrapColumns > 0);
        const std::string v = fuzz::checkTrace(*t);
        QVERIFY2(v.empty(), v.c_str());
    }

    // Two ranks of one job writing to one terminal: a file per rank, each the whole story.
    void ranks()
    {
        const Lines a = render(::story(), "[rank0]:", 100);
        const Lines b = render(::story(), "[rank1]:", 101);
        Lines both;
        for (size_t i = 0; i < a.size(); ++i) {
            both.push_back(a[i]);
            both.push_back(b[i]);
        }
        auto t = build(join(both));
        QVERIFY(t);
        QCOMPARE(t->files.size(), size_t(2));
        for (uint32_t f = 0; f < 2; ++f) {
            QCOMPARE(t->files[f].rank.value_or(-1), int64_t(f));
            QCOMPARE(t->files[f].path, std::string("capture.txt"));
            QCOMPARE(factLines(facts(*t, f)), factLines(kStoryFacts));
        }
        const std::string v = fuzz::checkTrace(*t);
        QVERIFY2(v.empty(), v.c_str());
    }

    // A paste cut at 110 columns (`less -S`, a narrow window): the cut lines are flagged and
    // said, and what they lost is not made up.
    void cutLines()
    {
        Lines cut;
        for (const auto& l : render(::story()))
            cut.push_back(l.substr(0, 110));
        auto t = build(join(cut));
        QVERIFY(t);
        bool said = false;
        for (const auto& d : t->diagnostics)
            said = said || d.message.find("at column 110") != std::string::npos;
        QVERIFY(said);
        int flagged = 0;
        for (const Record& r : t->records)
            flagged += (r.flags & kTruncated) != 0;
        QVERIFY(flagged >= 5);
        // The recompile reason lost its values: none are invented.
        const Compile* re = nullptr;
        for (const Compile& c : t->compiles)
            if (c.isRecompile())
                re = &c;
        QVERIFY(re && re->recompileReasons.size() == 1);
        QVERIFY(re->recompileReasons[0].actual.empty());
        const std::string v = fuzz::checkTrace(*t);
        QVERIFY2(v.empty(), v.c_str());
    }

    // The copy started in the middle of a graph-break message.
    void startsInsideAStatement()
    {
        const Lines lines = render(::story());
        Lines rest(lines.begin() + 13, lines.end()); // from "  Explanation: ..."
        auto t = build(join(rest));
        QVERIFY(t);
        const Compile& c = t->compiles[0];
        QCOMPARE(c.id.display(), std::string("[1/0]"));
        QCOMPARE(c.graphBreaks.size(), size_t(1));
        QVERIFY(c.graphBreaks[0].reason.empty());
        QCOMPARE(c.graphBreaks[0].line, int64_t(31)); // from its traceback
        QCOMPARE(c.graphBreaks[0].details[0].gbCode, std::string("gb0170"));
        bool said = false;
        for (const auto& d : t->diagnostics)
            said = said || d.message.find("starts in the middle") != std::string::npos;
        QVERIFY(said);
    }

    // The recompile limit: the compile PyTorch gave up on has no work of its own.
    void recompileLimit()
    {
        std::vector<Stmt> s = {
            { 'V', 10, kGuards, "0/0", "guards",
                tree("EQUALS_MATCH: L['k'] == 0  # return x + k  # r.py:17 in shift") },
            { 'V', 20, "torch/_dynamo/guards.py:5396", "0/1", "recompiles",
                { "Recompiling function shift in r.py:16",
                    "    triggered by the following guard failure(s):",
                    "    - 0/0: k == 0                                                   # return "
                    "x + k  # r.py:17 in shift",
                    "    - User stack trace:", "    -   File \"r.py\", line 17, in shift",
                    "    -     return x + k" } },
            { 'W', 21, "torch/_dynamo/convert_frame.py:1994", "0/1", "",
                { "torch._dynamo hit config.recompile_limit (1)", "   function: 'shift' (r.py:16)",
                    "   last reason: 0/0: k == 0                                                   "
                    "# return x + k  # r.py:17 in shift",
                    "To log all recompilation reasons, use TORCH_LOGS=\"recompiles\"." } }
        };
        auto t = build(join(render(s)));
        QVERIFY(t);
        QCOMPARE(t->compiles.size(), size_t(2));
        const Compile& c = t->compiles[1];
        QCOMPARE(c.startRecord, kNone);
        QVERIFY(c.failure && c.failure->recompileLimit);
        QCOMPARE(int(c.status), int(CompileStatus::Error));
        QCOMPARE(c.coName, std::string("shift"));
        QCOMPARE(c.coFirstLineno, int64_t(16));
        QCOMPARE(c.recompileReasons.size(), size_t(1));
        const RecompileReason& r = c.recompileReasons[0];
        QCOMPARE(r.userStack.size(), size_t(1));
        QCOMPARE(r.userStack[0].line, int64_t(17));
        QCOMPARE(r.earlierCompile, 0u);
        QVERIFY(r.guardNode >= 0);
        QCOMPARE(
            t->compiles[0].guards->nodes[size_t(r.guardNode)].kind, std::string("EQUALS_MATCH"));
        QCOMPARE(t->compileCount(), uint64_t(1));
        QCOMPARE(t->failureCount(), uint64_t(1));
    }

    // +dynamo names the compiled function and its callers.
    void dynamoStart()
    {
        std::vector<Stmt> s
            = { { 'V', 10, "torch/_dynamo/convert_frame.py:2041", "0/0", "",
                    { "torchdynamo start compiling forward example.py:24, stack (elided 5 frames):",
                        "  File \"example.py\", line 58, in <module>",
                        "    torch.testing.assert_close(torch.compile(model)(x), model(x))", "" } },
                  { 'I', 11, "torch/_dynamo/symbolic_convert.py:5335", "0/0", "",
                      { "Step 1: torchdynamo start tracing forward example.py:24" } } };
        auto t = build(join(render(s)));
        QVERIFY(t);
        const Compile& c = t->compiles[0];
        QCOMPARE(c.coName, std::string("forward"));
        QCOMPARE(c.coFirstLineno, int64_t(24));
        QCOMPARE(c.stack.size(), size_t(2));
        QCOMPARE(c.stack[0].line, int64_t(58));
        QCOMPARE(c.stack[1].name, std::string("forward"));
        QCOMPARE(QString::fromStdString(t->kindName(c.records.front())), u"dynamo"_qs);
    }

    // Through the loader, by content, whatever the file's name; and gzip/zstd like traces.
    void loadsFromFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"job-1234.out"_qs);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString("starting job\n" + join(render(::story()))));
        f.close();
        auto r = load({ path.toStdString() });
        QVERIFY(r.trace);
        QCOMPARE(int(r.trace->files[0].format), int(TraceFormat::TorchLogs));
        QCOMPARE(r.trace->files[0].badLines, uint64_t(1));
        QCOMPARE(factLines(facts(*r.trace)), factLines(kStoryFacts));
    }

    // Subsets are TORCH_TRACE records; text has none to copy, and says so.
    void noSubsetOfText();

    // Program output only, 100 MB of it (a job's stdout with one PyTorch line): linear, and
    // the heap holds nothing per line.
    void foreignLogStaysSmall()
    {
        if (!dynascope::testing::kHeapCounted)
            QSKIP("heap counting is off in sanitizer builds (they keep their own allocator)");
        std::string text;
        const std::string line = "step 000123 loss 0.2500 lr 0.0001 throughput 1234.5 samples/s\n";
        text.reserve((100u << 20) + 4096);
        text += "I1201 22:28:00.000000 1 torch/fx/experimental/symbolic_shapes.py:4058] [0/0] "
                "create_env\n";
        while (text.size() < (100u << 20))
            text += line;
        std::string error;
        auto buffer = InputBuffer::fromBytes(text, ~0ull, error);
        text = std::string();
        const int64_t before = dynascope::testing::liveHeap();
        dynascope::testing::resetPeak();
        auto t = buildTorchLogs({ "stdout.txt", buffer, {}, {} });
        const int64_t peak = dynascope::testing::peakHeap() - before;
        QCOMPARE(t->records.size(), size_t(1));
        QCOMPARE(t->files[0].badLines, uint64_t((100u << 20) / line.size()));
        QCOMPARE(t->diagnostics.size(), size_t(1)); // one line for all of them
        qInfo("peak heap for 100 MB of program output: %lld bytes", static_cast<long long>(peak));
        QVERIFY2(peak < (1 << 20), qPrintable(QString::number(peak)));
    }

    // Heap per input byte does not grow with the size, for the shapes a capture can take.
    void heapIsLinear_data()
    {
        QTest::addColumn<QString>("shape");
        for (const char* s : { "story repeated", "one huge guard dump", "a compile per line",
                 "wrapped at 80", "many processes" })
            QTest::newRow(s) << QString::fromUtf8(s);
    }
    void heapIsLinear()
    {
        if (!dynascope::testing::kHeapCounted)
            QSKIP("heap counting is off in sanitizer builds (they keep their own allocator)");
        QFETCH(QString, shape);
        auto make = [&](size_t bytes) {
            std::string text;
            int k = 0;
            const Lines story = render(::story());
            while (text.size() < bytes) {
                if (shape == u"story repeated"_qs) {
                    text += join(story);
                } else if (shape == u"one huge guard dump"_qs) {
                    if (text.empty())
                        text += "V1201 22:28:00.000000 1 torch/_dynamo/guards.py:4483] [0/0] "
                                "[__guards] TREE_GUARD_MANAGER:\n";
                    text += "V1201 22:28:00.000000 1 torch/_dynamo/guards.py:4483] [0/0] "
                            "[__guards] | +- ID_MATCH: ___check_obj_id(G['m"
                        + std::to_string(k++) + "'], 1)\n";
                } else if (shape == u"a compile per line"_qs) {
                    text += "I1201 22:28:00.000000 1 "
                            "torch/fx/experimental/symbolic_shapes.py:4058] ["
                        + std::to_string(k++) + "/0] create_env\n";
                } else if (shape == u"wrapped at 80"_qs) {
                    text += join(wrap(story, 80));
                } else {
                    text += join(render(::story(), "", 1000 + k++ % 5000));
                }
            }
            return text;
        };
        double perByte[2] = { 0, 0 };
        const size_t sizes[2] = { 4u << 20, 16u << 20 };
        for (int i = 0; i < 2; ++i) {
            std::string error;
            auto buffer = InputBuffer::fromBytes(make(sizes[i]), ~0ull, error);
            const int64_t before = dynascope::testing::liveHeap();
            dynascope::testing::resetPeak();
            auto t = buildTorchLogs({ "capture.txt", buffer, {}, {} });
            perByte[i] = double(dynascope::testing::peakHeap() - before) / double(buffer->size());
            QVERIFY(!t->records.empty());
        }
        qInfo("%s: peak heap per input byte %.2f at 4 MiB, %.2f at 16 MiB", qPrintable(shape),
            perByte[0], perByte[1]);
        QVERIFY2(perByte[1] <= perByte[0] * 1.15 + 0.05, qPrintable(shape));
        // A compile per line: a compile's model (about 800 bytes) for each 80-byte line, as for
        // a TORCH_TRACE; everything else: the input's bytes about three times over at the peak
        // (the statements' text, its copy into the file's buffer, the records).
        QVERIFY2(perByte[1] < (shape == u"a compile per line"_qs ? 32 : 4), qPrintable(shape));
    }
};

void TestTorchLogs::noSubsetOfText()
{
    QTemporaryDir dir;
    const QString in = dir.filePath(u"capture.txt"_qs);
    QFile f(in);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(join(render(::story()))));
    f.close();
    QProcess p;
    p.start(QStringLiteral(DYNASCOPE_CLI),
        { u"export"_qs, u"subset"_qs, in, u"--compiles"_qs, u"#0"_qs, u"-o"_qs,
            dir.filePath(u"out.log"_qs) });
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY(p.readAllStandardError().contains("TORCH_LOGS text"));
    QVERIFY(!QFileInfo::exists(dir.filePath(u"out.log"_qs)));
    // And `-` reads standard input.
    QProcess s;
    s.setStandardInputFile(in);
    s.start(QStringLiteral(DYNASCOPE_CLI), { u"summary"_qs, u"--json"_qs, u"-"_qs });
    QVERIFY(s.waitForFinished(30000));
    QCOMPARE(s.exitCode(), 0);
    const QByteArray out = s.readAllStandardOutput();
    QVERIFY2(out.contains("\"format\": \"torch_logs\""), out.left(400).constData());
    QVERIFY(out.contains("\"path\": \"-\""));
    QVERIFY(out.contains("\"compiles\": 5"));
}

QTEST_GUILESS_MAIN(TestTorchLogs)
#include "tst_torchlogs.moc"
