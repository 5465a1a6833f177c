// Every real TORCH_TRACE log under ../shared/traces loads without a crash, and each file listed in
// tlparse/counts.json (the table of tlparse/SOURCE.md) gives the same counts: dynamo_start
// compiles, recompiles, graph breaks, failures and chromium events. Skipped when ../shared is
// absent (a fresh clone outside the workplace).
#include "core/load/loader.h"

#include "tests/support/trace_files.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace dynascope;

class TestRealTraces : public QObject {
    Q_OBJECT
    QString m_root = QString::fromUtf8(DYNASCOPE_SHARED_TRACES);

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo::exists(m_root))
            QSKIP(qPrintable(u"real traces not available: "_qs + m_root
                + u" does not exist (it comes with the workplace's shared/ folder)"_qs));
    }

    void everyFileLoads()
    {
        int n = 0;
        std::vector<std::string> files;
        testsupport::addTraceFiles(m_root.toStdString(), files, UINTMAX_MAX);
        for (const std::string& file : files) {
            const QString path = QString::fromStdString(file);
            auto r = load({ path.toStdString() });
            QVERIFY2(r.trace, qPrintable(path));
            QVERIFY2(r.errors.empty(), qPrintable(path));
            for (const auto& c : r.trace->compiles) {
                QVERIFY(c.frame < r.trace->frames.size());
                for (uint32_t rec : c.records)
                    QCOMPARE(r.trace->records[rec].compile, c.index);
                for (const auto& reason : c.recompileReasons)
                    QVERIFY(reason.earlierCompile == kNone || reason.earlierCompile < c.index);
            }
            ++n;
        }
        QVERIFY(n >= 40);
    }

    void countsMatchTheTable_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QJsonObject>("expected");
        QFile f(m_root + u"/tlparse/counts.json"_qs);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject all = QJsonDocument::fromJson(f.readAll()).object();
        for (auto it = all.begin(); it != all.end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.key() << it.value().toObject();
    }
    void countsMatchTheTable()
    {
        QFETCH(QString, file);
        QFETCH(QJsonObject, expected);
        auto r = load({ (m_root + u"/tlparse/"_qs + file).toStdString() });
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(qint64(t.compileCount()), expected[u"compiles"_qs].toInteger());
        QCOMPARE(qint64(t.recompileCount()), expected[u"recompiles"_qs].toInteger());
        QCOMPARE(qint64(t.graphBreakCount()), expected[u"graph_breaks"_qs].toInteger());
        QCOMPARE(qint64(t.failureCount()), expected[u"failures"_qs].toInteger());
        auto chromium = t.kindCounts.find("chromium_event");
        QCOMPARE(qint64(chromium == t.kindCounts.end() ? 0 : chromium->second),
            expected[u"chromium"_qs].toInteger());
    }

    void recompilesOfRank1LinkToSizeGuards()
    {
        auto r = load({ (m_root
            + u"/tlparse/tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log"_qs)
                            .toStdString() });
        const Trace& t = *r.trace;
        QCOMPARE(t.compiles.size(), size_t(15));
        for (size_t i = 1; i < 15; ++i) {
            const auto& reason = t.compiles[i].recompileReasons.at(0);
            QCOMPARE(reason.earlierCompile, uint32_t(i - 1));
            QCOMPARE(reason.expected, std::to_string(i + 1));
            QCOMPARE(reason.actual, std::to_string(i + 2));
            QVERIFY(reason.guardNode >= 0);
            QCOMPARE(t.compiles[i - 1].guards->nodes[size_t(reason.guardNode)].kind,
                std::string("TENSOR_MATCH"));
        }
    }

    void md5MismatchesOfEditedFiles()
    {
        // SOURCE.md: collectives_parity rank 0 has 6 edited payloads; graph_exec rank 0 has 2.
        auto a = load({ (m_root
            + u"/tlparse/tests/inputs/collectives_parity/dedicated_log_torch_trace_rank_0.log"_qs)
                            .toStdString() });
        QCOMPARE(a.trace->verifyPayloads().mismatchesPerFile[0], uint64_t(6));
        auto b = load({ (m_root
            + u"/tlparse/tests/graph_exec_order_tests/dedicated_log_torch_trace_rank_0_a74od7a1.log"_qs)
                            .toStdString() });
        QCOMPARE(b.trace->verifyPayloads().mismatchesPerFile[0], uint64_t(2));
    }

    void multiRankFolder()
    {
        auto r
            = load({ (m_root + u"/tlparse/tests/inputs/multi_rank_messy_input"_qs).toStdString() });
        QVERIFY(r.errors.empty());
        // another.log and some_other_file.txt ignored; rank 1 is a copy of rank 0 (same bytes),
        // left out with a notice.
        QCOMPARE(r.trace->files.size(), size_t(1));
        QCOMPARE(r.trace->runs.size(), size_t(1));
        QCOMPARE(r.trace->runs[0].files.size(), size_t(2));
        QVERIFY(r.trace->runs[0].files[1].duplicateOf.ends_with("rank_0.log"));
    }
};

QTEST_GUILESS_MAIN(TestRealTraces)
#include "tst_realtraces.moc"
