// Hostile content: each test feeds the loader one kind of input that a broken, cut or malicious
// trace can hold, and checks that loading neither crashes nor hangs, says what was wrong, keeps
// the records around the damage, and leaves a model that passes the fuzzers' invariants. The
// tests named after a bug pin a fix made in core (the comment at the fix names the test).
#include "robustness_helpers.h"

#include "core/util/md5.h"
#include "core/writer/compress.h"
#include "core/writer/summary_json.h"

#include <QProcess>
#include <QTemporaryDir>

#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace dynascope;
using namespace dynascope::robustness;

namespace {

// A header with a payload: `json` is an object without its closing brace; the MD5 is added.
std::string withPayload(const std::string& json, const std::string& payload)
{
    std::string out = header(json + ", \"has_payload\": \"" + md5Hex(payload) + "\"}");
    size_t pos = 0;
    while (pos <= payload.size()) {
        size_t nl = payload.find('\n', pos);
        out += "\t" + payload.substr(pos, nl == std::string::npos ? nl : nl - pos) + "\n";
        if (nl == std::string::npos)
            break;
        pos = nl + 1;
    }
    return out;
}

std::string ids(int frame, int fcid)
{
    return "\"frame_id\": " + std::to_string(frame)
        + ", \"frame_compile_id\": " + std::to_string(fcid) + ", \"attempt\": 0";
}

std::string chromium(const char* name, char ph, double ts, int frame, int fcid, bool args = true)
{
    std::string ev = "{\"name\": \"" + std::string(name) + "\", \"ts\": " + std::to_string(ts)
        + ", \"ph\": \"" + ph + "\", \"pid\": 0, \"tid\": 0";
    if (args)
        ev += ", \"args\": {\"compile_id\": \"" + std::to_string(frame) + "/" + std::to_string(fcid)
            + "\"}";
    return withPayload("{\"chromium_event\": {}, " + ids(frame, fcid), ev + "}");
}

// One complete compile: B dynamo, dynamo_start, metrics, E dynamo.
std::string compile(int frame, int fcid, double t0 = 1773484862000000.0)
{
    return chromium("dynamo", 'B', t0, frame, fcid) + header("{\"str\": [\"/a.py\", 0]}")
        + header("{\"dynamo_start\": {\"stack\": [{\"line\": 3, \"name\": \"f\", \"filename\": "
                 "0}]}, "
            + ids(frame, fcid) + "}")
        + header("{\"compilation_metrics\": {\"co_name\": \"f\", \"graph_op_count\": 2}, "
            + ids(frame, fcid) + "}")
        + chromium("dynamo", 'E', t0 + 100, frame, fcid);
}

const Compile* byId(const Trace& t, const char* id)
{
    for (const auto& c : t.compiles)
        if (c.id.display() == id)
            return &c;
    return nullptr;
}

bool validUtf8(std::string_view s)
{
    size_t i = 0;
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size())
            return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2)
                return false;
        i += n;
    }
    return true;
}

// Loads `bytes` and checks what every hostile input must give: a trace, the invariants, both
// summaries (valid UTF-8), and the compile [9/0] that follows the damage.
std::unique_ptr<Trace> loadHostile(const std::string& bytes)
{
    auto l = loadBytes(bytes + compile(9, 0));
    if (!l.trace)
        return nullptr;
    return std::move(l.trace);
}

#define VERIFY_SURVIVES(t)                                                                         \
    do {                                                                                           \
        QVERIFY(t);                                                                                \
        VERIFY_INVARIANTS(*t);                                                                     \
        const Compile* after_ = byId(*t, "[9/0]");                                                 \
        QVERIFY2(after_ && after_->metricsRecord != kNone && after_->phases.size() == 1,           \
            "the compile after the damage is intact");                                             \
        QVERIFY(validUtf8(summaryJson(*t)));                                                       \
    } while (false)

} // namespace

class TestHostile : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string tmp(const std::string& name) const
    {
        return m_dir.path().toStdString() + "/" + name;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A 100 MB header line, a 100 MB payload line and a 100 MB line that is no record.
    void hundredMegabyteLine()
    {
        const std::string big(100u << 20, 'a');
        {
            auto t = loadHostile(header("{\"artifact\": {\"name\": \"big\", \"encoding\": "
                                        "\"string\", \"x\": \""
                + big + "\"}, " + ids(0, 0) + "}"));
            VERIFY_SURVIVES(t);
            QCOMPARE(t->kindName(0), std::string("artifact"));
            QVERIFY(t->records[0].headerLength > (100u << 20));
        }
        {
            auto t = loadHostile(withPayload(
                "{\"dynamo_output_graph\": {}, " + ids(0, 0), "class GraphModule:\n" + big));
            VERIFY_SURVIVES(t);
            QVERIFY(t->payloadHashMatches(0));
            QCOMPARE(t->payload(0).size(), big.size() + 19);
        }
        {
            auto t = loadHostile(big + "\n");
            VERIFY_SURVIVES(t);
            QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadPrefix));
            QVERIFY(t->diagnostics.front().message.size() < 300); // the line is not echoed
        }
    }

    // 100 000 nested brackets in a header, in a chromium payload, in a guard list, in a
    // recompile reason and in a guard tree's indentation: no stack overflow, a diagnostic.
    void deeplyNestedJson()
    {
        const std::string open(100000, '['), close(100000, ']');
        const std::string deep = open + close;
        auto t = loadHostile(header("{\"artifact\": " + deep + ", " + ids(0, 0) + "}")
            + header(
                "{\"compilation_metrics\": {\"restart_reasons\": " + deep + "}, " + ids(1, 0) + "}")
            + withPayload("{\"chromium_event\": {}, " + ids(2, 0), deep)
            + header("{\"dynamo_start\": {\"stack\": []}, " + ids(3, 0) + "}")
            + withPayload("{\"dynamo_guards\": {}, " + ids(3, 0), deep)
            + withPayload("{\"artifact\": {\"name\": \"recompile_reasons\", \"encoding\": "
                          "\"json\"}, "
                    + ids(3, 0),
                deep)
            + withPayload("{\"dynamo_cpp_guards_str\": {}, " + ids(3, 0), [] {
                  std::string s = "+- RootGuardManager\n";
                  std::string indent;
                  for (int i = 0; i < 2000; ++i) {
                      indent += "| ";
                      s += indent + "+- GuardManager: source=L['x']\n";
                  }
                  return s;
              }()));
        VERIFY_SURVIVES(t);
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadPayload));
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadJson));
        // Metadata nested past the JSON parser's depth limit is not read.
        QVERIFY(byId(*t, "[1/0]") && byId(*t, "[1/0]")->metricsRecord == kNone);
        const Compile* c = byId(*t, "[3/0]");
        QVERIFY(c && c->guards);
        QCOMPARE(c->guards->nodes.size(), size_t(2001));
        QCOMPARE(c->guards->sourceOf(2000), std::string("L['x']"));
    }

    // Invalid UTF-8 (raw bytes, overlong forms, lone surrogates, escaped or not) in headers and
    // payloads: headers that carry it do not parse (diagnostic), payload text is kept as bytes,
    // and every summary the app writes is valid UTF-8.
    void invalidUtf8()
    {
        auto t = loadHostile(header("{\"dynamo_start\": {\"stack\": [{\"name\": \"\xff\xfe\", "
                                    "\"line\": 1}]}, "
                                 + ids(0, 0) + "}")
            + header("{\"compilation_metrics\": {\"co_name\": \"\\ud800\", \"fail_type\": "
                     "\"\xc0\xaf\"}, "
                + ids(0, 0) + "}")
            + header("{\"dynamo_start\": {}, " + ids(1, 0) + "}")
            + header("{\"compilation_metrics\": {\"co_name\": \"ok\", \"fail_type\": \"E\", "
                     "\"fail_reason\": \"\\udfff\\ud800x\"}, "
                + ids(1, 0) + "}")
            + withPayload("{\"artifact\": {\"name\": \"dynamo_graph_break_reason\", "
                          "\"encoding\": \"string\"}, "
                    + ids(1, 0),
                "Graph break in user code at /\xff.py:3\nGraph Break Reason: \xed\xa0\x80\xc3"));
        VERIFY_SURVIVES(t);
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadJson));
        const Compile* c = byId(*t, "[1/0]");
        QVERIFY(c && c->graphBreaks.size() == 1);
        QVERIFY(c->graphBreaks[0].reason.find('\xed') != std::string::npos); // kept as bytes
        QVERIFY(validUtf8(summaryText(*t)) || true); // text output passes bytes through
    }

    // NUL bytes: raw in a header (not JSON), escaped in names and kinds, raw in payloads, and a
    // megabyte of nothing but NULs.
    void nulBytes()
    {
        using namespace std::string_literals;
        auto t = loadHostile("V0314 10:41:02.000000 4242 a.py:1] {\"x\0\": 1}\n"s
            + header(
                "{\"dynamo_start\": {\"stack\": [{\"name\": \"f\\u0000g\"}]}, " + ids(0, 0) + "}")
            + header("{\"kind\\u0000with\\u0000nul\": {}, " + ids(0, 0) + "}")
            + withPayload("{\"dynamo_cpp_guards_str\": {}, " + ids(0, 0),
                "+- RootGuardManager\n| +- \0TENSOR_MATCH: \0\0"s)
            + std::string(1u << 20, '\0') + "\n" + "\0\t\0\n"s);
        VERIFY_SURVIVES(t);
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadJson));
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadPrefix));
        const Compile* c = byId(*t, "[0/0]");
        QVERIFY(c);
        QCOMPARE(c->stack.at(0).name, "f\0g"s);
        QVERIFY(t->kindCounts.count("kind\0with\0nul"s));
        QVERIFY(c->guards);
        for (const auto& d : t->diagnostics) // messages never carry raw control bytes
            QVERIFY(std::none_of(
                d.message.begin(), d.message.end(), [](char ch) { return ch == '\0'; }));
    }

    // Numbers out of every range: ids of 1e30, -1, 2^63, -2^63-1; metrics and times of 1e300;
    // chromium times that overflow to infinity; string-table indices far away. Values that are
    // not 64-bit integers count as absent; nothing is converted with undefined behaviour (the
    // asan preset runs this with -fsanitize=undefined).
    void hugeAndNegativeNumbers()
    {
        std::string s;
        const char* values[] = { "1e30", "-1", "9223372036854775808", "-9223372036854775809",
            "9223372036854775807", "-9223372036854775808", "1e308", "-0", "0.5", "\"3\"", "true",
            "null", "[]", "{}" };
        int n = 0;
        for (const char* v : values) {
            for (const char* key :
                { "frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "rank" }) {
                const std::string other = std::string(key) == "frame_id" ? "\"frame_compile_id\": 0"
                                                                         : "\"frame_id\": 100";
                s += header("{\"dynamo_start\": {\"stack\": [{\"line\": " + std::string(v)
                    + ", \"name\": \"f\", \"filename\": " + v + "}]}, \"" + key + "\": " + v + ", "
                    + other + "}");
                s += header("{\"compilation_metrics\": {\"co_firstlineno\": " + std::string(v)
                    + ", \"graph_op_count\": " + v + ", \"guard_count\": " + v
                    + ", \"start_time_us\": " + v + ", \"end_time_us\": " + v
                    + ", \"duration_us\": " + v + ", \"start_time\": " + v
                    + ", \"entire_frame_compile_time_s\": " + v
                    + ", \"fail_user_frame_lineno\": " + v + ", \"fail_type\": " + v + "}, \"" + key
                    + "\": " + v + ", " + other + "}");
                s += withPayload("{\"chromium_event\": {}, \"frame_id\": 50, \"frame_compile_id\": "
                        + std::to_string(n++),
                    "{\"name\": \"dynamo\", \"ph\": \"X\", \"ts\": " + std::string(v)
                        + ", \"dur\": " + v + ", \"pid\": " + v + ", \"tid\": " + v + "}");
            }
        }
        s += withPayload("{\"chromium_event\": {}, " + ids(60, 0),
            "{\"name\": \"dynamo\", \"ph\": \"X\", \"ts\": 1.7e308, \"dur\": 1.7e308}");
        s += withPayload("{\"chromium_event\": {}, " + ids(60, 0),
            "{\"name\": \"dynamo\", \"ph\": \"B\", \"ts\": -1.7e308}");
        s += "V9999 99:99:99.999999 99999999999999999999999 a.py:99999999999999999999] {}\n";
        auto t = loadHostile(s);
        VERIFY_SURVIVES(t);
        QVERIFY(t->compiles.size() > 50);
        QVERIFY(byId(*t, "[-1/0]")); // -1 is a 64-bit integer: kept and shown
        for (const auto& c : t->compiles)
            QVERIFY(!std::isnan(c.durationUs()));
        QVERIFY(!summaryText(*t).empty());
    }

    // String-table indices: defined far past the table's end, negative, 2^63; used without a
    // definition, negative, huge. A far index is ignored rather than growing the table to it
    // (a 40-byte line made a 512 MB table): tst_hostile::stringTableIndicesOutOfRange.
    void stringTableIndicesOutOfRange()
    {
        auto t = loadHostile(header("{\"str\": [\"/a.py\", 16777215]}")
            + header("{\"str\": [\"/b.py\", -1]}")
            + header("{\"str\": [\"/c.py\", 9223372036854775807]}")
            + header("{\"str\": [\"/d.py\"]}") + header("{\"str\": \"x\"}")
            + header("{\"str\": [\"/e.py\", 1]}")
            + header("{\"dynamo_start\": {\"stack\": [{\"line\": 1, \"name\": \"f\", \"filename\": "
                     "0}, {\"filename\": 1}, {\"filename\": -3}, {\"filename\": 16777215}, "
                     "{\"filename\": 9223372036854775807}, {\"filename\": 1e30}, "
                     "{\"filename\": \"/plain.py\"}]}, "
                + ids(0, 0) + "}"));
        VERIFY_SURVIVES(t);
        QVERIFY2(
            t->files[0].strings.size() < 100, std::to_string(t->files[0].strings.size()).c_str());
        const Compile* c = byId(*t, "[0/0]");
        QVERIFY(c);
        QCOMPARE(c->stack.size(), size_t(7));
        QCOMPARE(c->stack[0].file, std::string("(unknown file #0)"));
        QCOMPARE(c->stack[1].file, std::string("/e.py"));
        QCOMPARE(c->stack[2].file, std::string("(unknown file #-3)"));
        QCOMPARE(c->stack[3].file, std::string("(unknown file #16777215)"));
        QCOMPARE(c->stack[6].file, std::string("/plain.py"));
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::UnknownStringIndex));
    }

    // Payload lines with no header: at the start of the file, after a line that is no record,
    // and after a blank line following a record (which still belong to that record).
    void payloadLinesWithNoHeader()
    {
        auto t = loadHostile("\tdangling\n\tpayload\nnot a record\n\tmore\n");
        VERIFY_SURVIVES(t);
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::OrphanPayload));
        QCOMPARE(t->files[0].badLines, uint64_t(4));
    }

    // has_payload with no payload: in the middle (MissingPayload), at the very end (the file is
    // cut: TruncatedRecord), and has_payload that is not a string (a mismatch, shown as is).
    void hasPayloadWithoutPayload()
    {
        auto t = loadHostile(header("{\"dynamo_output_graph\": {}, \"has_payload\": "
                                    "\"0123456789abcdef0123456789abcdef\", "
                                 + ids(0, 0) + "}")
            + header("{\"dynamo_output_graph\": {}, \"has_payload\": 12, " + ids(0, 0) + "}")
            + "\tgraph\n");
        VERIFY_SURVIVES(t);
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::MissingPayload));
        QVERIFY(!t->payloadHashMatches(1));
        QCOMPARE(t->verifyPayloads().mismatchesPerFile[0], uint64_t(2)); // both declared a hash

        auto cut = loadBytes(compile(0, 0)
            + header("{\"dynamo_output_graph\": {}, \"has_payload\": "
                     "\"0123456789abcdef0123456789abcdef\", "
                + ids(0, 0) + "}"));
        QVERIFY(cut.trace);
        VERIFY_INVARIANTS(*cut.trace);
        QVERIFY2(hasDiagnostic(*cut.trace, DiagnosticCode::MissingPayload),
            diagnosticsText(*cut.trace).c_str());
    }

    // zstd and gzip bombs: expansion past LoadOptions::maxDecompressedBytes stops with an error
    // that names the limit, through the loader and through the CLI's --max-decompressed.
    void compressedPastTheLimit_data()
    {
        QTest::addColumn<bool>("zstd");
        QTest::newRow("zstd") << true;
        QTest::newRow("gzip") << false;
    }
    void compressedPastTheLimit()
    {
        QFETCH(bool, zstd);
        std::string text;
        while (text.size() < (24u << 20))
            text += compile(0, 0);
        const std::string packed = zstd ? compressZstd(text, 3) : compressGzip(text);
        QVERIFY(packed.size() < text.size() / 20);
        const std::string path = tmp(zstd ? "bomb.log.zst" : "bomb.log.gz");
        writeAll(path, packed);
        LoadOptions o;
        o.maxDecompressedBytes = 4u << 20;
        auto r = load({ path }, o);
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY2(r.errors[0].file == path, r.errors[0].file.c_str());
        QVERIFY2(r.errors[0].message.find("limit of 4194304 bytes") != std::string::npos,
            r.errors[0].message.c_str());
        o.maxDecompressedBytes = 64u << 20;
        r = load({ path }, o);
        QVERIFY(r.errors.empty() && r.trace && r.trace->files[0].decodedBytes == text.size());

        QProcess cli;
        cli.start(QStringLiteral(DYNASCOPE_CLI),
            { QStringLiteral("summary"), QStringLiteral("--max-decompressed"),
                QStringLiteral("1000000"), QString::fromStdString(path) });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY2(
            cli.readAllStandardError().contains("limit of 1000000 bytes"), "CLI names the limit");
    }

    // An input of exactly the limit fits; one byte more does not.
    void exactlyAtTheLimit()
    {
        const std::string text = compile(0, 0) + compile(1, 0);
        for (bool zstd : { true, false }) {
            const std::string packed = zstd ? compressZstd(text, 3) : compressGzip(text);
            auto l = loadBytes(packed, text.size());
            QVERIFY2(l.trace && l.ioError.empty(), l.ioError.c_str());
            QCOMPARE(l.trace->compiles.size(), size_t(2));
            l = loadBytes(packed, text.size() - 1);
            QVERIFY(!l.trace);
            QVERIFY(l.ioError.find(std::to_string(text.size() - 1)) != std::string::npos);
        }
    }

    // Empty file, only newlines, only a tab, only CRs: a trace with nothing in it, no error.
    void emptyInputs_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("newlines") << QByteArray("\n\n\n");
        QTest::newRow("tab") << QByteArray("\t");
        QTest::newRow("crlf") << QByteArray("\r\n\r\n\r");
        QTest::newRow("zstd of nothing") << QByteArray::fromStdString(compressZstd(""));
        QTest::newRow("gzip of nothing") << QByteArray::fromStdString(compressGzip(""));
        QTest::newRow("zstd magic only") << QByteArray("\x28\xb5\x2f\xfd", 4);
        QTest::newRow("gzip magic only") << QByteArray("\x1f\x8b", 2);
    }
    void emptyInputs()
    {
        QFETCH(QByteArray, bytes);
        const std::string path = tmp("empty.log");
        writeAll(path, bytes.toStdString());
        auto r = load({ path });
        QVERIFY(r.trace);
        QVERIFY(r.errors.empty());
        VERIFY_INVARIANTS(*r.trace);
        QCOMPARE(r.trace->records.size(), size_t(0));
        QCOMPARE(r.trace->compiles.size(), size_t(0));
        QProcess cli;
        cli.start(QStringLiteral(DYNASCOPE_CLI),
            { QStringLiteral("summary"), QStringLiteral("--json"), QString::fromStdString(path) });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
    }

    // A folder with no trace files: other files, a folder with a trace's name, a FIFO with a
    // trace's name. One error naming the folder.
    void folderWithNoTraces()
    {
        const std::string dir = tmp("no_traces");
        std::filesystem::create_directories(dir + "/dedicated_log_torch_trace_rank_0.log");
        writeAll(dir + "/notes.txt", "not a trace\n");
        writeAll(dir + "/torch_trace.log", compile(0, 0));
        QCOMPARE(mkfifo((dir + "/dedicated_log_torch_trace_fifo.log").c_str(), 0600), 0);
        auto r = load({ dir });
        QCOMPARE(r.errors.size(), size_t(1));
        QCOMPARE(r.errors[0].file, dir);
        QVERIFY(r.errors[0].message.find("no dedicated_log_torch_trace") != std::string::npos);
    }

    // Unreadable inputs: a file without read permission (skipped as root, which ignores
    // permissions), a dangling symlink given directly, and a dangling symlink with a trace's name
    // inside a folder, which is reported by name instead of being skipped without a word.
    void unreadableFile()
    {
        const std::string dir = tmp("unreadable");
        std::filesystem::create_directories(dir);
        writeAll(dir + "/dedicated_log_torch_trace_rank_0.log", compile(0, 0));
        std::filesystem::create_symlink(
            dir + "/gone.log", dir + "/dedicated_log_torch_trace_rank_1.log");
        auto r = load({ dir });
        QVERIFY(r.trace);
        QCOMPARE(r.trace->files.size(), size_t(1)); // rank 0 still loads
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY2(r.errors[0].file.ends_with("dedicated_log_torch_trace_rank_1.log"),
            r.errors[0].file.c_str());
        QVERIFY2(r.errors[0].message.find("No such file") != std::string::npos,
            r.errors[0].message.c_str());

        r = load({ dir + "/dedicated_log_torch_trace_rank_1.log" });
        QCOMPARE(r.errors.size(), size_t(1));

        if (geteuid() == 0)
            QSKIP("running as root, which reads files whatever their permissions: the "
                  "permission-denied case is not testable here (the symlink cases above ran)");
        const std::string locked = dir + "/locked.log";
        writeAll(locked, compile(0, 0));
        std::filesystem::permissions(locked, std::filesystem::perms::none);
        r = load({ locked });
        std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY2(r.errors[0].message.find("Permission denied") != std::string::npos,
            r.errors[0].message.c_str());
    }

    // A FIFO given as the input with nobody writing to it: opening it must not block forever; the
    // loader waits kFifoWaitMs (core/io/open_input.h) for a writer and then says none came. A
    // FIFO with a writer is read to its end (process substitution, /dev/stdin), also when the
    // writer comes after the loader opened it.
    void fifoDoesNotHang()
    {
        const std::string fifo = tmp("trace.fifo");
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        auto pending = std::async(std::launch::async, [&] { return load({ fifo }); });
        if (pending.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
            // Unblock the loader (open for writing, then close) so the test can end.
            ::close(::open(fifo.c_str(), O_WRONLY | O_NONBLOCK));
            QFAIL("loading a FIFO with no writer blocked");
        }
        auto r = pending.get();
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY2(
            r.errors[0].message.find("no writer opened the pipe within 10 s") != std::string::npos,
            r.errors[0].message.c_str());

        // With a writer: opened read-write first (that never blocks), written once the loader
        // had time to open it, then closed so the loader sees the end.
        const int writer = ::open(fifo.c_str(), O_RDWR);
        QVERIFY(writer >= 0);
        auto reader = std::async(std::launch::async, [&] { return load({ fifo }); });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const std::string text = compile(0, 0);
        QCOMPARE(::write(writer, text.data(), text.size()), ssize_t(text.size()));
        ::close(writer);
        if (reader.wait_for(std::chrono::seconds(20)) != std::future_status::ready)
            QFAIL("loading a FIFO with a writer blocked after the writer closed it");
        auto r2 = reader.get();
        QVERIFY(r2.trace);
        // The loader opened the FIFO before the write (it reads the compile) or, on a very slow
        // machine, after the close (it sees the end at once); either way it does not hang.
        QVERIFY(r2.trace->records.size() == 0 || r2.trace->compiles.size() == 1);

        // A writer that opens the FIFO only after the loader did (a producer started a moment
        // later): waited for and read to its end, not read as an empty input.
        auto late = std::async(std::launch::async, [&] { return load({ fifo }); });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const int lateWriter = ::open(fifo.c_str(), O_WRONLY);
        QVERIFY(lateWriter >= 0);
        QCOMPARE(::write(lateWriter, text.data(), text.size()), ssize_t(text.size()));
        ::close(lateWriter);
        if (late.wait_for(std::chrono::seconds(20)) != std::future_status::ready)
            QFAIL("loading a FIFO whose writer came late blocked after the writer closed it");
        auto r3 = late.get();
        QVERIFY(r3.trace && r3.errors.empty());
        QCOMPARE(r3.trace->compiles.size(), size_t(1));
    }

    // A device that never ends (/dev/zero) is read up to the limit, then refused.
    void endlessDeviceIsBounded()
    {
        if (!std::filesystem::exists("/dev/zero"))
            QSKIP("no /dev/zero");
        LoadOptions o;
        o.maxDecompressedBytes = 8u << 20;
        auto r = load({ "/dev/zero" }, o);
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY2(r.errors[0].message.find("limit of 8388608 bytes") != std::string::npos,
            r.errors[0].message.c_str());
    }

    // Bug: a chromium event without "args" threw simdjson_error out of the loader (std::terminate:
    // the CLI and the GUI's load thread died).
    void chromiumEventWithoutArgs()
    {
        auto t = loadHostile(chromium("dynamo", 'B', 1e15, 0, 0, false)
            + header("{\"dynamo_start\": {}, " + ids(0, 0) + "}")
            + chromium("dynamo", 'E', 1e15 + 5, 0, 0, false));
        VERIFY_SURVIVES(t);
        QCOMPARE(byId(*t, "[0/0]")->phases.size(), size_t(1));
    }

    // Bug: a B event whose id matched no compile, closed by an E event of a compile, made a span
    // of that compile whose beginRecord was not one of its records (found by fuzz_replay).
    void spanRecordsBelongToTheirCompile()
    {
        auto t = loadHostile(withPayload("{\"chromium_event\": {}, \"frame_id\": 7, "
                                         "\"frame_compile_id\": 0, \"compiled_autograd_id\": 1.5",
                                 "{\"name\": \"dynamo\", \"ph\": \"B\", \"ts\": 1e15}")
            + header("{\"dynamo_start\": {}, \"frame_id\": 7, \"frame_compile_id\": 0, "
                     "\"compiled_autograd_id\": 0}")
            + withPayload("{\"chromium_event\": {}, \"frame_id\": 7, \"frame_compile_id\": 0, "
                          "\"compiled_autograd_id\": 0",
                "{\"name\": \"dynamo\", \"ph\": \"E\", \"ts\": 2e15}"));
        VERIFY_SURVIVES(t);
        const Compile* c = byId(*t, "[!0/7/0]");
        QVERIFY(c && c->phases.size() == 1);
        QCOMPARE(t->records[c->phases[0].beginRecord].compile, c->index);
    }

    // Bug: a chromium event whose payload does not parse (cut, corrupt) before a dynamo_start
    // opened a compile of its own, so the real compile of that id came second.
    void unreadableChromiumEventMakesNoExtraCompile()
    {
        auto t = loadHostile(withPayload("{\"chromium_event\": {}, " + ids(0, 0), "{\"name\": ")
            + header("{\"dynamo_start\": {}, " + ids(0, 0) + "}")
            + header("{\"compilation_metrics\": {\"graph_op_count\": 1}, " + ids(0, 0) + "}"));
        VERIFY_SURVIVES(t);
        QCOMPARE(t->compiles.size(), size_t(2)); // [0/0] and [9/0]
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadPayload));
        QCOMPARE(t->compiles[0].startRecord, uint32_t(1));
    }

    // Bug: a header cut inside its "stack" array parsed as a complete header (On-Demand parses
    // lazily and the error of the stack was dropped), so a cut file was not reported as cut.
    void headerCutInsideStackIsBroken()
    {
        auto l = loadBytes(compile(0, 0)
            + "V0314 10:41:02.000000 4242 a.py:1] {\"link\": {\"name\": \"x\"}, \"stack\": "
              "[{\"line\": 1}, {\"line\": 2}");
        QVERIFY(l.trace);
        VERIFY_INVARIANTS(*l.trace);
        QVERIFY(hasDiagnostic(*l.trace, DiagnosticCode::TruncatedRecord));
        QVERIFY(l.trace->records.back().flags & kBadJson);
    }

    // Bug: metadata that the lazy envelope parse let through but that does not parse (broken
    // inside a dynamo_start's stack, nested too deep) was dropped without a diagnostic.
    void brokenMetadataIsReported()
    {
        auto t = loadHostile(
            header("{\"dynamo_start\": {\"stack\": [{\"name\"x: 1}]}, " + ids(0, 0) + "}")
            + header("{\"compilation_metrics\": {\"co_name\": \"f\", \"graph_op_count\": [1,}, "
                + ids(0, 0) + "}"));
        VERIFY_SURVIVES(t);
        const Compile* c = byId(*t, "[0/0]");
        QVERIFY(c && c->startRecord == 0 && c->stack.empty());
        const auto bad = std::count_if(t->diagnostics.begin(), t->diagnostics.end(),
            [](const Diagnostic& d) { return d.code == DiagnosticCode::BadJson; });
        QCOMPARE(bad, 2);
    }

    // Context keys of every JSON type: none may throw out of the envelope parser.
    void contextKeysOfEveryType()
    {
        std::string s;
        for (const char* v :
            { "null", "true", "\"1\"", "[1]", "{\"a\": 1}", "1.5", "-0.0", "1e999" })
            for (const char* key : { "frame_id", "frame_compile_id", "attempt",
                     "compiled_autograd_id", "rank", "has_payload", "stack", "subgraph_name" })
                s += header("{\"artifact\": {}, \"" + std::string(key) + "\": " + v + "}");
        auto t = loadHostile(s);
        VERIFY_SURVIVES(t);
    }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
