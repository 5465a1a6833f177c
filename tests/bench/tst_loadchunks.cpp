// Loading a file in chunks scanned on several threads (core/load/chunk_scan.h) gives exactly what
// one pass gives: the summary JSON (every field the CLI prints, diagnostics included) of each
// fixture, of each real trace in ../shared/traces, and of a scale trace, built with chunks of 1
// byte to 64 KB on 3 threads, against one chunk on one thread. Tiny chunks put a boundary at
// every line: after blank lines, orphan payload lines, bad headers, CRLF and cut last lines. And a
// large file read in parts on several threads gives the bytes one read gives.
#include "core/io/input_buffer.h"
#include "core/load/finish/append_trace.h"
#include "core/load/trace/file_builder.h"
#include "core/synth/scale_trace.h"
#include "core/writer/summary_json.h"

#include "tests/support/trace_files.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dynascope;
namespace fs = std::filesystem;

namespace {
std::string summaryOf(const std::string& path, std::shared_ptr<const InputBuffer> buffer,
    unsigned threads, uint64_t chunkBytes)
{
    FileBuildInput in { path, std::move(buffer), {}, {} };
    in.threads = threads;
    in.chunkBytes = chunkBytes;
    auto part = buildFile(in);
    Trace t;
    appendTrace(t, std::move(*part));
    return summaryJson(t);
}

void addFiles(const fs::path& dir, std::vector<std::string>& out)
{
    testsupport::addTraceFiles(dir, out);
}
} // namespace

class TestLoadChunks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameAsOnePass_data()
    {
        QTest::addColumn<QString>("path");
        std::vector<std::string> files;
        addFiles(DYNASCOPE_FIXTURES_DIR, files);
        addFiles(DYNASCOPE_SHARED_TRACES, files);
        for (const auto& f : files)
            QTest::newRow(f.c_str()) << QString::fromStdString(f);
        if (files.empty())
            QSKIP("no fixtures (run ctest: make_fixtures writes them) and no ../shared/traces");
    }
    void sameAsOnePass()
    {
        QFETCH(QString, path);
        std::string error;
        auto buffer = InputBuffer::open(path.toStdString(), 1ull << 32, error);
        QVERIFY2(buffer, error.c_str());
        const std::string want = summaryOf(path.toStdString(), buffer, 1, 1ull << 40);
        for (uint64_t chunk : { uint64_t(1), uint64_t(64), uint64_t(4096), uint64_t(65536) }) {
            if (chunk < 64 && buffer->size() > (64u << 10))
                continue; // a chunk per byte is slow on big files; 64 bytes still cuts every line
            QVERIFY2(summaryOf(path.toStdString(), buffer, 3, chunk) == want,
                (path.toStdString() + " with chunks of " + std::to_string(chunk)).c_str());
        }
    }

    // InputBuffer::open reads a large file in parts on several threads: same bytes as one read.
    void parallelRead()
    {
        const fs::path path = fs::temp_directory_path() / "dynascope_tst_loadchunks_read.bin";
        std::string bytes(70u << 20, '\0');
        for (size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<char>('a' + (i * 7919 + i / 4093) % 26);
        {
            std::ofstream out(path, std::ios::binary);
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        std::string error;
        for (unsigned threads : { 1u, 2u, 3u }) {
            auto b = InputBuffer::open(path.string(), 1ull << 32, error, threads);
            QVERIFY2(b && error.empty(), error.c_str());
            QCOMPARE(b->size(), bytes.size());
            QVERIFY(b->view() == bytes);
            QVERIFY(std::all_of(b->data() + b->size(),
                b->data() + b->size() + InputBuffer::kPadding, [](char c) { return c == 0; }));
        }
        fs::remove(path);
    }

    void scaleTrace()
    {
        std::ostringstream out;
        ScaleTraceOptions o;
        o.targetBytes = 6u << 20;
        writeScaleTrace(out, o);
        std::string error;
        auto buffer = InputBuffer::fromBytes(out.str(), 1ull << 32, error);
        QVERIFY(buffer);
        const std::string want = summaryOf("scale.log", buffer, 1, 1ull << 40);
        QCOMPARE(summaryOf("scale.log", buffer, 2, 4u << 20), want);
        QCOMPARE(summaryOf("scale.log", buffer, 3, 100000), want);
    }
};

QTEST_GUILESS_MAIN(TestLoadChunks)
#include "tst_loadchunks.moc"
