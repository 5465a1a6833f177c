// The loader's limits and bookkeeping on inputs built to reach them (issue: code health): record
// kinds past the 16-bit id space, in one file and across files; the record-index limit; the
// record table's reserve after a file whose start is unlike its rest; a progress total for an
// input with no size. Each checks what is deterministic (names, counts, capacities), never time.
#include "robustness_helpers.h"

#include "core/io/trace_source.h"
#include "core/load/trace/chunk_pipeline.h"
#include "core/load/trace/chunk_scan.h"
#include "core/parse/kind_names.h"

#include <QTemporaryDir>

#include <chrono>
#include <map>
#include <stdexcept>
#include <thread>

using namespace dynascope;
using namespace dynascope::robustness;

namespace {

// `n` records of distinct kinds "<prefix><i>", one per line.
std::string distinctKinds(const std::string& prefix, size_t n)
{
    std::string s;
    s.reserve(n * 64);
    for (size_t i = 0; i < n; ++i)
        s += header("{\"" + prefix + std::to_string(i) + "\": {}}");
    return s;
}

// The kind a record's own header names ("{\"k12\": {}}" -> k12).
std::string ownKind(const Trace& t, uint32_t record)
{
    const std::string text = t.header(record);
    const size_t open = text.find("{\"");
    const size_t close = text.find('"', open + 2);
    return std::string(text.substr(open + 2, close - open - 2));
}

// Every record is named by its own kind, or by kOtherKinds once the ids ran out; the counts
// add up to the records.
void verifyKindNames(const Trace& t, size_t expectOther)
{
    QVERIFY(t.kindNames.size() <= size_t(kOtherKindsId) + 1);
    size_t other = 0;
    for (uint32_t i = 0; i < t.records.size(); ++i) {
        const std::string& name = t.kindName(i);
        if (name == kOtherKinds) {
            ++other;
            continue;
        }
        if (name != ownKind(t, i))
            QFAIL(qPrintable(
                QStringLiteral("record %1 of kind %2 is named %3")
                    .arg(i)
                    .arg(QString::fromStdString(ownKind(t, i)), QString::fromStdString(name))));
    }
    QCOMPARE(other, expectOther);
    uint64_t counted = 0;
    for (const auto& [kind, n] : t.kindCounts)
        counted += n;
    QCOMPARE(counted, uint64_t(t.records.size()));
    if (expectOther)
        QCOMPARE(t.kindCounts.at(std::string(kOtherKinds)), uint64_t(expectOther));
}

} // namespace

class TestLoadLimits : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // 70,000 invented kinds in one file: the first 65,534 keep their names, the rest share
    // "(other kinds)" (they were all named after the 65,535th kind before).
    void kindsPastTheIdSpaceInOneFile()
    {
        const size_t n = 70000;
        Loaded l = loadBytes(distinctKinds("k", n));
        QVERIFY(l.trace);
        QCOMPARE(l.trace->records.size(), n);
        verifyKindNames(*l.trace, n - kMaxDistinctKinds);
    }

    // Two files of 40,000 kinds each: the merge interns the second file's kinds with the same
    // cap (its ids were cast to 16 bits and wrapped onto other kinds' names before).
    void kindsPastTheIdSpaceAcrossFiles()
    {
        const std::string a = m_dir.filePath(QStringLiteral("a.log")).toStdString();
        const std::string b = m_dir.filePath(QStringLiteral("b.log")).toStdString();
        writeAll(a, distinctKinds("a", 40000));
        writeAll(b, distinctKinds("b", 40000));
        LoadResult r = load({ a, b });
        QVERIFY(r.trace);
        QCOMPARE(r.trace->records.size(), size_t(80000));
        verifyKindNames(*r.trace, 80000 - kMaxDistinctKinds);
    }

    // A file past the record limit: the records up to it are kept, the rest is said, not read.
    void recordLimit()
    {
        std::string text;
        for (int i = 0; i < 1000; ++i)
            text += header(
                "{\"str\": [\"f" + std::to_string(i) + ".py\", " + std::to_string(i) + "]}");
        std::string ioError;
        auto buffer = InputBuffer::fromBytes(text, 1ull << 30, ioError);
        QVERIFY(buffer);
        FileBuildInput in { "limit.log", buffer, {}, {} };
        in.maxRecords = 100;
        auto t = buildFile(in);
        QCOMPARE(t->records.size(), size_t(100));
        const auto it = std::find_if(t->diagnostics.begin(), t->diagnostics.end(),
            [](const Diagnostic& d) { return d.severity == Severity::Error; });
        QVERIFY2(it != t->diagnostics.end(), diagnosticsText(*t).c_str());
        QCOMPARE(it->line, uint64_t(101));
        QVERIFY(it->message.find("more than 100 records") != std::string::npos);
        VERIFY_INVARIANTS(*t);
    }

    // The record table is reserved from the records per byte read so far. A file that starts
    // with many small records and ends in one large payload made that estimate 16 times too
    // high, and the reserve stayed after the load.
    void recordTableGivesBackItsReserve()
    {
        std::string text;
        while (text.size() < (64u << 10))
            text += header("{\"str\": [\"f.py\", " + std::to_string(text.size()) + "]}");
        const size_t dense = text.size();
        text += header("{\"artifact\": {\"name\": \"big\", \"encoding\": \"string\"}}");
        const std::string line = "\t" + std::string(1000, 'x') + "\n";
        while (text.size() < dense * 16)
            text += line;
        std::string ioError;
        auto buffer = InputBuffer::fromBytes(text, 1ull << 30, ioError);
        QVERIFY(buffer);
        FileBuildInput in { "slack.log", buffer, {}, {} };
        in.chunkBytes = 64u << 10;
        auto t = buildFile(in);
        const size_t size = t->records.size();
        QVERIFY(size > 500);
        QVERIFY2(t->records.capacity() <= size + size / 8 + 1024,
            qPrintable(
                QStringLiteral("%1 records, room for %2").arg(size).arg(t->records.capacity())));
    }

    // Lines that are not records (a job's stdout opened by mistake): their diagnostics are a
    // fixed number whatever the count (4,194,304 of them were 4,194,304 diagnostics and 1.2 GB),
    // the rest said in one line with the count and the range; the same at two sizes.
    void badLinesGiveBoundedDiagnostics_data()
    {
        QTest::addColumn<int>("lines");
        QTest::newRow("100k lines") << 100000;
        QTest::newRow("400k lines") << 400000;
    }
    void badLinesGiveBoundedDiagnostics()
    {
        QFETCH(int, lines);
        std::string text;
        for (int i = 0; i < lines; ++i)
            text += i % 1000 == 500 ? "\n" : "epoch 3 step " + std::to_string(i) + " loss 0.25\n";
        const uint64_t blank = uint64_t(lines) / 1000;
        std::string ioError;
        auto buffer = InputBuffer::fromBytes(text, 1ull << 30, ioError);
        FileBuildInput in { "stdout.txt", buffer, {}, {} };
        in.chunkBytes = 64u << 10; // runs cut by many chunk boundaries
        auto t = buildFile(in);
        QCOMPARE(t->files[0].badLines, uint64_t(lines) - blank);
        QVERIFY2(t->diagnostics.size() <= 21, diagnosticsText(*t).c_str());
        const Diagnostic& last = t->diagnostics.back();
        const std::string more = " more lines that are not trace records (lines 2-";
        QVERIFY2(last.message.find(more) != std::string::npos, last.message.c_str());
        QVERIFY2(last.message.find(std::to_string(lines / 1000) + ",000)") != std::string::npos,
            last.message.c_str());
        VERIFY_INVARIANTS(*t);
    }

    // A chunk of bad lines or of stray payload lines is one scan event, not one per line (32 MiB
    // of tab-only lines held 430 MB of events).
    void aRunOfBadLinesIsOneEvent()
    {
        for (const std::string line : { "not a record\n", "\tpayload without header\n" }) {
            std::string text;
            for (int i = 0; i < 50000; ++i)
                text += line + (i % 7 == 0 ? "\n" : "");
            std::string ioError;
            auto buffer = InputBuffer::fromBytes(text, 1ull << 30, ioError);
            ChunkScanner scanner;
            ScannedChunk out;
            scanner.scan(buffer->window(), 0, buffer->size(), out);
            QCOMPARE(out.events.size(), size_t(1));
            QCOMPARE(out.events[0].count, uint64_t(50000));
        }
    }

    // What a scan throws reaches the consumer as that chunk's result, on the consumer's thread
    // (on a helper thread it ended the process through std::terminate). The helpers get a head
    // start, so chunk 3 is scanned by one of them.
    void scanExceptionReachesTheConsumer()
    {
        std::string text;
        for (int i = 0; i < 2000; ++i)
            text += header("{\"str\": [\"f.py\", " + std::to_string(i) + "]}");
        std::string ioError;
        auto buffer = InputBuffer::fromBytes(text, 1ull << 30, ioError);
        auto source = TraceSource::fromMemory(buffer);
        ChunkPipeline pipeline(*source, 4096, 2, false, [](size_t k) {
            if (k == 3)
                throw std::runtime_error("scan of chunk 3 failed");
        });
        QVERIFY(pipeline.chunks() > 6);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ChunkScanner scanner;
        size_t thrown = 0, scanned = 0;
        for (size_t k = 0; k < pipeline.chunks(); ++k) {
            try {
                pipeline.recycle(pipeline.take(k, scanner));
                ++scanned;
            } catch (const std::runtime_error& e) {
                QCOMPARE(k, size_t(3));
                QCOMPARE(std::string(e.what()), std::string("scan of chunk 3 failed"));
                ++thrown;
            }
        }
        QCOMPARE(thrown, size_t(1));
        QCOMPARE(scanned, pipeline.chunks() - 1);
    }

    // An input with no size (a device, a FIFO, standard input): the progress total counts it as
    // 0 bytes (file_size's error value, 2^64 - 1, was summed into the total before).
    void progressTotalOfAnInputWithoutSize()
    {
        uint64_t largestTotal = 0;
        LoadResult r = load({ "/dev/null" }, {},
            [&](const LoadProgress& p) { largestTotal = std::max(largestTotal, p.bytesTotal); });
        QVERIFY(r.trace);
        QCOMPARE(largestTotal, uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLoadLimits)
#include "tst_loadlimits.moc"
