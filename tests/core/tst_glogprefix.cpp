// The glog prefix in front of every header: levels, thread ids and pids, launcher prefixes,
// emitter paths with spaces and Windows colons, and lines that are not headers.
#include "core/parse/glog_prefix.h"

#include <QtTest>

using dynascope::parseGlogPrefix;

class TestGlogPrefix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("month");
        QTest::addColumn<int>("day");
        QTest::addColumn<uint>("msOfDay");
        QTest::addColumn<qulonglong>("tid");
        QTest::addColumn<QByteArray>("emitter");
        auto ms
            = [](int h, int m, int s, int f) { return uint(((h * 60 + m) * 60 + s) * 1000 + f); };
        QTest::newRow("pid 2025") << QByteArray(
            "V0718 15:30:01.875000 1337 torch/_dynamo/utils.py:1900] {\"a\": 1}")
                                  << true << 7 << 18 << ms(15, 30, 1, 875) << 1337ull
                                  << QByteArray("torch/_dynamo/utils.py:1900");
        QTest::newRow("thread id 2024") << QByteArray(
            "V0403 07:28:48.051000 139877824898048 torch/_logging/structured.py:19] {}")
                                        << true << 4 << 3 << ms(7, 28, 48, 51) << 139877824898048ull
                                        << QByteArray("torch/_logging/structured.py:19");
        QTest::newRow("rank launcher prefix")
            << QByteArray("[rank0]:I1231 23:59:59.999000 7 a.py:1] {}") << true << 12 << 31
            << ms(23, 59, 59, 999) << 7ull << QByteArray("a.py:1");
        QTest::newRow("emitter with spaces and colon")
            << QByteArray("W0101 00:00:00.000000 9 C:\\Program Files\\torch\\x.py:12] {}") << true
            << 1 << 1 << 0u << 9ull << QByteArray("C:\\Program Files\\torch\\x.py:12");
        QTest::newRow("no json") << QByteArray("V0718 15:30:01.875000 1337 torch/x.py:1] hello")
                                 << false << 0 << 0 << 0u << 0ull << QByteArray();
        QTest::newRow("bad level") << QByteArray("X0718 15:30:01.875000 1337 x.py:1] {}") << false
                                   << 0 << 0 << 0u << 0ull << QByteArray();
        QTest::newRow("bad month") << QByteArray("V1318 15:30:01.875000 1337 x.py:1] {}") << false
                                   << 0 << 0 << 0u << 0ull << QByteArray();
        QTest::newRow("no line number") << QByteArray("V0718 15:30:01.875000 1337 x.py] {}")
                                        << false << 0 << 0 << 0u << 0ull << QByteArray();
        QTest::newRow("garbage") << QByteArray("hello world") << false << 0 << 0 << 0u << 0ull
                                 << QByteArray();
        QTest::newRow("empty") << QByteArray() << false << 0 << 0 << 0u << 0ull << QByteArray();
    }
    void parse()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, valid);
        auto g = parseGlogPrefix(std::string_view(line.constData(), size_t(line.size())));
        QCOMPARE(g.has_value(), valid);
        if (!valid)
            return;
        QTEST(g->month, "month");
        QTEST(g->day, "day");
        QTEST(uint(g->msOfDay), "msOfDay");
        QTEST(qulonglong(g->threadOrPid), "tid");
        QTEST(QByteArray(g->emitter.data(), qsizetype(g->emitter.size())), "emitter");
        QCOMPARE(line.at(qsizetype(g->jsonOffset)), '{');
    }
};

QTEST_GUILESS_MAIN(TestGlogPrefix)
#include "tst_glogprefix.moc"
