// Files that change while Dynascope reads them: a trace still being written (TORCH_TRACE of a
// running job), a file truncated or rewritten while it loads, and one truncated after it loaded
// while the trace is still shown. Files are read into memory, never mapped (see
// core/io/input_buffer.h): a mapping of a file that shrinks raises SIGBUS at the next access to a
// vanished page, which truncatedAfterLoad did deterministically before.
#include "robustness_helpers.h"

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

    // Truncated to nothing after loading: every record's header and payload are still there
    // (they were read, not mapped).
    void truncatedAfterLoad()
    {
        const std::string path = tmp("after.log");
        std::string big;
        for (int i = 0; i < 20; ++i)
            big += m_example;
        writeAll(path, big);
        auto r = load({ path });
        QVERIFY(r.trace && r.errors.empty());
        const std::string firstPayload = r.trace->payload(0);
        std::filesystem::resize_file(path, 0);
        size_t bytes = 0;
        for (uint32_t i = 0; i < r.trace->records.size(); ++i)
            bytes += r.trace->header(i).size() + r.trace->payload(i).size();
        QVERIFY(bytes > big.size() / 2);
        QCOMPARE(r.trace->payload(0), firstPayload);
        VERIFY_INVARIANTS(*r.trace);
    }

    // Another thread truncates and rewrites the file while it loads over and over: every load
    // gives a consistent model of some prefix of some version of the file.
    void truncatedWhileLoading()
    {
        const std::string path = tmp("shrinking.log");
        writeAll(path, m_example);
        std::atomic<bool> stop { false };
        std::jthread writer([&] {
            std::mt19937 rng(7);
            while (!stop) {
                std::filesystem::resize_file(path, rng() % (m_example.size() + 1));
                std::this_thread::yield();
                writeAll(path, m_example);
            }
        });
        // Stops the writer however the test ends (a failed QVERIFY returns early).
        struct StopWriter {
            std::atomic<bool>& stop;
            ~StopWriter() { stop = true; }
        } stopWriter { stop };
        LoadOptions o;
        o.threads = 1;
        int loads = 0;
        for (; loads < 60; ++loads) {
            auto r = load({ path }, o);
            QVERIFY(r.trace);
            VERIFY_INVARIANTS(*r.trace);
            if (!r.trace->files.empty()) {
                const std::string_view got = r.trace->files[0].buffer->view();
                // What was read is a prefix of some version of the file: the same bytes (each
                // rewrite writes them again from byte 0), or zeros where a truncation raced with
                // the read (the kernel zeroes the tail of the page it cuts; read() is not atomic
                // with truncate()). Never bytes from anywhere else, and never more than the file.
                QVERIFY(got.size() <= m_example.size());
                size_t bad = 0;
                for (size_t k = 0; k < got.size(); ++k)
                    bad += got[k] != m_example[k] && got[k] != '\0';
                QVERIFY2(bad == 0, (std::to_string(bad) + " bytes differ").c_str());
            }
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
            const std::string_view got = t.files[0].buffer->view();
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
