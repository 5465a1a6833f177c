// Files that are not traces (people open the wrong file): each is recognised from its first
// megabyte and refused with a message that says what it looks like and what to open instead, and
// a large one is refused without being read (bounded heap, whatever its size). Traces with a
// damaged start still load.
#include "robustness_helpers.h"

#include "core/load/logs/torch_logs.h"
#include "core/parse/content_kind.h"
#include "core/writer/compress.h"
#include "tests/support/heap_counter.h"

#include <QTemporaryDir>

using namespace dynascope;
using namespace dynascope::robustness;

namespace {

// The bundled example: a trace PyTorch 2.13 wrote.
std::string exampleLog()
{
    return readAll(std::string(DYNASCOPE_SOURCE_DIR) + "/resources/examples/example.log");
}

std::string repeatTo(const std::string& line, size_t bytes)
{
    std::string s;
    s.reserve(bytes + line.size());
    while (s.size() < bytes)
        s += line;
    return s;
}
} // namespace

class TestNotATrace : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string path(const char* name) const
    {
        return m_dir.filePath(QString::fromUtf8(name)).toStdString();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void classifies_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("what");
        auto row = [](const char* name, std::string head, ContentKind k, const char* what) {
            QTest::newRow(name) << QByteArray::fromStdString(head) << int(k)
                                << QString::fromUtf8(what);
        };
        row("empty", "\n\n  \n", ContentKind::Empty, "empty");
        row("trace", header("{\"dynamo_start\": {}}"), ContentKind::TorchTrace, "TORCH_TRACE");
        row("trace after garbage", "garbage\n\x01\x02 more\n" + header("{\"str\": [\"a\", 0]}"),
            ContentKind::TorchTrace, "TORCH_TRACE");
        row("payload lines first (a cut trace)", "\t{\"a\": 1}\n\t2\n\t3\n",
            ContentKind::TorchTrace, "payload lines");
        row("torch logs",
            "V1201 22:28:00.000000 1 torch/_dynamo/guards.py:4483] [0/0] [__guards] GUARDS:\n"
            "I1201 22:28:00.000000 1 torch/_dynamo/convert_frame.py:1] [0/1] Recompiling\n",
            ContentKind::TorchLogs, "TORCH_LOGS");
        row("program output", repeatTo("epoch 1 step 2 loss 0.25\n", 5000), ContentKind::Text,
            "a program's output");
        row("traceback", "Traceback (most recent call last):\n  File \"t.py\", line 1\n",
            ContentKind::Text, "Python traceback");
        row("chrome trace", "{\"traceEvents\": [{\"name\": \"a\", \"ph\": \"X\"}]}",
            ContentKind::ChromeTrace, "Chrome trace");
        row("chrome trace array", "[{\"name\": \"a\", \"ph\": \"B\", \"ts\": 1}]",
            ContentKind::ChromeTrace, "Chrome trace");
        row("tlparse raw.jsonl", "{\"string_table\": [\"a.py\"]}\n{\"payload_filename\": 1}\n",
            ContentKind::TlparseJson, "raw.jsonl");
        row("tlparse compile_directory",
            "{\n  \"[0/0]\": {\n    \"artifacts\": [{\"name\": \"x\"}]\n  }\n}",
            ContentKind::TlparseJson, "compile_directory.json");
        row("tlparse html", "\n<html>\n<head>\n<style>.stack-trie { white-space: nowrap; }</style>",
            ContentKind::TlparseHtml, "tlparse");
        row("other html", "<!DOCTYPE html><html><body>hi</body></html>", ContentKind::Html, "HTML");
        row("other json", "{\"a\": [1, 2, 3]}", ContentKind::Json, "JSON");
        row("png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), ContentKind::Binary, "PNG");
        row("checkpoint", std::string("PK\x03\x04\x14\0\0\0", 8) + "archive/data.pkl",
            ContentKind::Binary, "torch.save");
        row("elf",
            std::string("\x7f"
                        "ELF\x02\x01\x01\0",
                8),
            ContentKind::Binary, "ELF");
        row("zeros", std::string(4096, '\0'), ContentKind::Binary, "binary");
        // A trace with a damaged stretch is still a trace: a block of zeros a crash left, a line
        // with a NUL in it. Binary data with a line that only looks like a glog prefix is not.
        const std::string header = "V1201 23:57:03.518000 25401 torch/_dynamo/utils.py:2350] "
                                   "{\"dynamo_start\": {}, \"frame_id\": 0}\n";
        row("trace with zeros", header + std::string(8192, '\0') + "\n" + header,
            ContentKind::TorchTrace, "TORCH_TRACE");
        row("trace with a NUL line", header + std::string("garbage\0line\n", 13) + header,
            ContentKind::TorchTrace, "TORCH_TRACE");
        row("binary with a prefix-like line",
            std::string(4096, '\0') + "\nI0101 00:00:00.000000 1 x.py:1] not json\n",
            ContentKind::Binary, "binary");
    }
    void classifies()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, kind);
        QFETCH(QString, what);
        const ContentGuess g = classifyContent(head.toStdString());
        QCOMPARE(int(g.kind), kind);
        QVERIFY2(g.what.find(what.toStdString()) != std::string::npos, g.what.c_str());
    }

    // Each kind that is not a trace is refused by load() with one error that names the file,
    // says what it looks like and gives the TORCH_TRACE line; the CLI exits 2 with it.
    void refusedWithAdvice()
    {
        const std::string chrome = path("profile.json");
        writeAll(chrome, "{\"traceEvents\": [{\"name\": \"mm\", \"ph\": \"X\", \"ts\": 1}]}");
        auto r = load({ chrome });
        QVERIFY(!r.trace);
        QCOMPARE(r.errors.size(), size_t(1));
        const Diagnostic& d = r.errors[0];
        QCOMPARE(d.code, DiagnosticCode::NotATrace);
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.file, chrome);
        QVERIFY2(d.message.find("Chrome trace") != std::string::npos, d.message.c_str());
        QVERIFY2(d.message.find("Perfetto") != std::string::npos, d.message.c_str());
        QVERIFY2(d.message.find("TORCH_TRACE=/tmp/trace python train.py") != std::string::npos,
            d.message.c_str());
        QCOMPARE(std::string(toString(d.code)), std::string("not_a_trace"));
    }

    // A 64 MiB job log (and its gzip) is refused from its first megabyte: the load holds a
    // few MB of heap at most, not the file (it used to read it all and list its lines).
    void largeFileIsNotRead()
    {
        if (!testing::kHeapCounted)
            QSKIP("heap counting is off in sanitizer builds (they keep their own allocator)");
        const std::string text = repeatTo("epoch 3 step 1200 loss 0.2531 lr 0.0001\n", 64u << 20);
        const std::string plain = path("train_stdout.txt"), gz = path("train_stdout.txt.gz");
        writeAll(plain, text);
        writeAll(gz, compressGzip(text));
        for (const auto& p : { plain, gz }) {
            const int64_t before = testing::liveHeap();
            testing::resetPeak();
            auto r = load({ p });
            const int64_t peak = testing::peakHeap() - before;
            QVERIFY(!r.trace);
            QCOMPARE(r.errors.size(), size_t(1));
            QCOMPARE(r.errors[0].code, DiagnosticCode::NotATrace);
            QVERIFY2(r.errors[0].message.find("program's output") != std::string::npos,
                r.errors[0].message.c_str());
            qInfo("%s: peak heap %lld bytes for %zu bytes of text", p.c_str(),
                static_cast<long long>(peak), text.size());
            QVERIFY2(peak < (8 << 20), qPrintable(QString::number(peak)));
        }
    }

    // A real trace with a damaged start still loads: garbage lines before the first record,
    // and a trace cut mid-record (payload lines first).
    void damagedStartStillLoads()
    {
        const std::string example = exampleLog();
        const std::string withGarbage = path("garbage_first.log");
        writeAll(withGarbage, repeatTo("\x01garbage written over the start\n", 64 << 10) + example);
        const std::string payloadFirst = path("payload_first.log");
        writeAll(payloadFirst, repeatTo("\t{\"cut\": \"payload\"}\n", 32 << 10) + example);
        for (const auto& p : { withGarbage, payloadFirst }) {
            auto r = load({ p });
            QVERIFY2(r.trace, p.c_str());
            QVERIFY(r.errors.empty());
            QVERIFY(r.trace->compileCount() > 0);
            QVERIFY(r.trace->diagnostics.size() <= 21 * 2); // the damage, said in a few lines
        }
    }

    // tlparse's output folder is told apart from a TORCH_TRACE folder, and raw.log named.
    void tlparseFolder()
    {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("tl_out")));
        writeAll(path("tl_out/index.html"), "<html><head></head><body>tlparse</body></html>");
        writeAll(path("tl_out/raw.log"), header("{\"str\": [\"a\", 0]}"));
        auto r = load({ path("tl_out") });
        QVERIFY(!r.trace);
        QCOMPARE(r.errors.size(), size_t(1));
        QCOMPARE(r.errors[0].code, DiagnosticCode::NotATrace);
        QVERIFY2(
            r.errors[0].message.find("raw.log") != std::string::npos, r.errors[0].message.c_str());
    }

    // Pasted text (the app's File > Paste Log) is judged the same way.
    void pastedTextIsJudged()
    {
        auto r = loadText("clipboard", "{\"traceEvents\": []}");
        QVERIFY(!r.trace);
        QCOMPARE(r.errors.size(), size_t(1));
        QCOMPARE(r.errors[0].code, DiagnosticCode::NotATrace);
        auto ok = loadText("clipboard", exampleLog());
        QVERIFY(ok.trace);
        QVERIFY(ok.trace->compileCount() > 0);
    }

    // The head of a compressed file is decompressed alone: exactly its first megabyte.
    void headOfCompressedFile()
    {
        const std::string text = repeatTo(header("{\"str\": [\"a\", 0]}"), 3u << 20);
        const std::string gz = path("trace.log.gz");
        writeAll(gz, compressGzip(text));
        auto head = InputBuffer::readHead(gz, 1u << 20);
        QVERIFY(head.has_value());
        QCOMPARE(head->size(), size_t(1u << 20));
        QVERIFY(*head == text.substr(0, 1u << 20));
        QVERIFY(!InputBuffer::readHead(m_dir.path().toStdString(), 1u << 20)); // a folder
    }
};

QTEST_GUILESS_MAIN(TestNotATrace)
#include "tst_notatrace.moc"
