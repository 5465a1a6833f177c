// Files that change while Dynascope reads them: a trace still being written (TORCH_TRACE of a
// running job), a file truncated or rewritten while it loads, and one changed after it loaded
// while the trace is still shown. A loaded trace reads its records again from the file
// (core/io/trace_source.h) with positional reads, never through a mapping: a mapping of a file
// that shrinks raises SIGBUS at the next access to a vanished page. A file that changed under the
// trace is said to have changed (TraceSource::problem), and what no longer reads as it was
// loaded comes back empty, never as other bytes.
#include "robustness_helpers.h"

#include "core/io/trace_source.h"

#include <QTemporaryDir>

#include <atomic>
#include <random>
#include <thread>

using namespace dynascope;
using namespace dynascope::robustness;

class TestGrowingFiles : public QObject {
    Q_OBJECT
    std::string m_example;
    QTemporaryDir m_dir;

    std::string tmp(const std::string& name) const
    {
        return m_dir.path().toStdString() + "/" + name;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!std::filesystem::exists(fixturePath("example.log")))
            QSKIP("fixtures not generated: run ctest (the make_fixtures test writes them first)");
        m_example = readAll(fixturePath("example.log"));
        QVERIFY(m_dir.isValid());
    }

    // Truncated to nothing after loading: the model stays whole, the records' text reads empty
    // (not bytes from elsewhere), and the trace says which file changed.
    void truncatedAfterLoad()
    {
        const std::string path = tmp("after.log");
        std::string big;
        for (int i = 0; i < 20; ++i)
            big += m_example;
        writeAll(path, big);
        auto r = load({ path });
        QVERIFY(r.trace && r.errors.empty());
        const size_t compiles = r.trace->compiles.size();
        uint32_t withPayload = 0;
        while (withPayload < r.trace->records.size()
            && r.trace->records[withPayload].payloadLength == 0)
            ++withPayload;
        QVERIFY(withPayload < r.trace->records.size());
        QVERIFY(!r.trace->payload(withPayload).empty());
        QVERIFY(r.trace->sourceProblems().empty());
        std::filesystem::resize_file(path, 0);
        for (uint32_t i = 0; i < r.trace->records.size(); ++i) {
            QVERIFY(r.trace->header(i).empty());
            QVERIFY(r.trace->payload(i).empty());
        }
        const auto problems = r.trace->sourceProblems();
        QCOMPARE(problems.size(), size_t(1));
        QVERIFY2(problems[0].starts_with(path + " changed since it was loaded (it is now 0 bytes"),
            problems[0].c_str());
        QCOMPARE(r.trace->compiles.size(), compiles);
        VERIFY_INVARIANTS(*r.trace);
    }

    // Appended to after loading (a running job's TORCH_TRACE): the loaded records read as before,
    // checked (line and payload MD5) because the file was written to, and nothing is said.
    void appendedAfterLoad()
    {
        const std::string path = tmp("appended.log");
        writeAll(path, m_example);
        auto r = load({ path });
        QVERIFY(r.trace && r.errors.empty());
        std::vector<std::string> before;
        for (uint32_t i = 0; i < r.trace->records.size(); ++i)
            before.push_back(r.trace->header(i) + "\n" + r.trace->payload(i));
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // another mtime
        std::FILE* f = std::fopen(path.c_str(), "ab");
        std::fwrite(m_example.data(), 1, m_example.size(), f);
        std::fclose(f);
        for (uint32_t i = 0; i < r.trace->records.size(); ++i)
            QCOMPARE(r.trace->header(i) + "\n" + r.trace->payload(i), before[i]);
        QVERIFY(r.trace->sourceProblems().empty());
    }

    // Rewritten in place with other bytes of the same size (an editor saving, another run
    // writing the same name): a record whose line moved, or whose payload no longer matches its
    // MD5, reads empty and the change is said.
    void rewrittenAfterLoad()
    {
        const std::string path = tmp("rewritten.log");
        writeAll(path, m_example);
        auto r = load({ path });
        QVERIFY(r.trace && r.errors.empty());
        uint32_t hashed = kNone;
        for (uint32_t i = 0; i < r.trace->records.size() && hashed == kNone; ++i)
            if (r.trace->records[i].hasPayload() && r.trace->records[i].payloadLength > 8)
                hashed = i;
        QVERIFY(hashed != kNone);
        std::string edited = m_example;
        const Record& rec = r.trace->records[hashed];
        edited[rec.payloadOffset() + 4] = edited[rec.payloadOffset() + 4] == 'x' ? 'y' : 'x';
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        writeAll(path, edited);
        QVERIFY(r.trace->payload(hashed).empty());
        const auto problems = r.trace->sourceProblems();
        QCOMPARE(problems.size(), size_t(1));
        QVERIFY2(problems[0].find("the record at line " + std::to_string(rec.line)
                     + " is not what was loaded there")
                != std::string::npos,
            problems[0].c_str());
    }

    // Another thread truncates and rewrites the file while it loads over and over: every load
    // gives a consistent model of some prefix of some version of the file. The writer stops and
    // leaves the whole file before each model is checked (the checks read records again).
    void truncatedWhileLoading()
    {
        const std::string path = tmp("shrinking.log");
        writeAll(path, m_example);
        LoadOptions o;
        o.threads = 1;
        std::mt19937 rng(7);
        for (int loads = 0; loads < 60; ++loads) {
            std::atomic<bool> stop { false };
            std::jthread writer([&, seed = rng()] {
                std::mt19937 own(seed);
                while (!stop) {
                    std::filesystem::resize_file(path, own() % (m_example.size() + 1));
                    std::this_thread::yield();
                    writeAll(path, m_example);
                }
            });
            auto r = load({ path }, o);
            stop = true;
            writer.join();
            writeAll(path, m_example);
            std::string errors;
            for (const auto& e : r.errors)
                errors += e.message + "; ";
            QVERIFY2(r.trace, errors.c_str());
            if (!r.trace->files.empty()) {
                // What was read is a prefix of some version of the file: the same bytes (each
                // rewrite writes them again from byte 0), or zeros where a truncation raced with
                // the read (the kernel zeroes the tail of the page it cuts; read() is not
                // atomic with truncate()). Never bytes from anywhere else, never more than the
                // file. Read again now, it is the file's prefix.
                const std::string got = r.trace->files[0].source->readAll();
                QVERIFY(got.size() <= m_example.size());
                QVERIFY(std::string_view(m_example).substr(0, got.size()) == got);
            }
            VERIFY_INVARIANTS(*r.trace);
        }
    }

    // A trace still being written: records are appended in chunks that end anywhere (mid-line,
    // mid-payload) while the file loads over and over. Each load keeps every record before the
    // end it saw, byte for byte, and reports a record cut at that end.
    void appendedWhileLoading()
    {
        const std::string path = tmp("growing.log");
        writeAll(path, "");
        std::atomic<bool> done { false };
        std::jthread writer([&] {
            std::mt19937 rng(11);
            std::FILE* f = std::fopen(path.c_str(), "ab");
            size_t pos = 0;
            while (pos < m_example.size()) {
                size_t n = std::min<size_t>(1 + rng() % 4000, m_example.size() - pos);
                std::fwrite(m_example.data() + pos, 1, n, f);
                std::fflush(f);
                pos += n;
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            std::fclose(f);
            done = true;
        });
        int loads = 0, cut = 0;
        while (!done || loads == 0) {
            auto r = load({ path });
            QVERIFY(r.trace && r.errors.empty());
            VERIFY_INVARIANTS(*r.trace);
            const Trace& t = *r.trace;
            const std::string got = t.files[0].source->readAll();
            QVERIFY(std::string_view(m_example).substr(0, got.size()) == got);
            for (uint32_t i = 0; i < t.records.size(); ++i)
                QVERIFY(std::string_view(m_example).substr(
                            t.records[i].offset, t.records[i].headerLength)
                    == t.header(i));
            cut += hasDiagnostic(t, DiagnosticCode::TruncatedRecord);
            ++loads;
        }
        writer.join();
        qInfo("%d loads while the file grew, %d of them ended inside a record", loads, cut);
        auto whole = load({ path });
        QVERIFY(whole.trace && !hasDiagnostic(*whole.trace, DiagnosticCode::TruncatedRecord));
    }
};

QTEST_GUILESS_MAIN(TestGrowingFiles)
#include "tst_growingfiles.moc"
