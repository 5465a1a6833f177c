// The MIME types of packaging/dynascope-mime.xml as Qt's QMimeDatabase (and so KDE's file
// managers) sees them: PyTorch's TORCH_TRACE file names and their .zst/.gz copies get our types,
// other .log, .gz and .zst files keep theirs, and a renamed trace is recognised by content.
// The test sets XDG_DATA_DIRS to a folder holding only that XML, followed by the system's.
//
// GLib/GIO (GNOME's file manager) differs: it consults patterns such as
// "dedicated_log_torch_trace*.log" only when no plain suffix pattern ("*.log") matched, whatever
// the weights, so there these files stay text/x-log. That is GLib's lookup, not ours to fix.
#include <QMimeDatabase>
#include <QtTest>

class TestMimeType : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QMimeDatabase db;
        if (!db.mimeTypeForName(u"application/x-torch-trace"_qs).isValid())
            QFAIL("application/x-torch-trace is not known: is XDG_DATA_DIRS set by CTest?");
    }

    void byName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("type");
        QTest::newRow("rank file") << u"dedicated_log_torch_trace_rank_0_hv4f0k1u.log"_qs
                                   << u"application/x-torch-trace"_qs;
        QTest::newRow("single process")
            << u"dedicated_log_torch_trace_3jlcx9sb.log"_qs << u"application/x-torch-trace"_qs;
        QTest::newRow("zstd") << u"dedicated_log_torch_trace_rank_1_abc.log.zst"_qs
                              << u"application/x-zstd-compressed-torch-trace"_qs;
        QTest::newRow("gzip") << u"dedicated_log_torch_trace_rank_1_abc.log.gz"_qs
                              << u"application/x-gzip-compressed-torch-trace"_qs;
        // Not ours: we must not claim every log or archive.
        QTest::newRow("other log") << u"build.log"_qs << QString();
        QTest::newRow("other gz") << u"build.log.gz"_qs << QString();
        QTest::newRow("other zst") << u"data.zst"_qs << QString();
        QTest::newRow("text") << u"notes.txt"_qs << QString();
        QTest::newRow("prefix only") << u"dedicated_log_torch_trace_x.txt"_qs << QString();
    }
    void byName()
    {
        QFETCH(QString, name);
        QFETCH(QString, type);
        QMimeDatabase db;
        const QMimeType t = db.mimeTypeForFile(name, QMimeDatabase::MatchExtension);
        if (type.isEmpty())
            QVERIFY2(!t.name().contains(u"torch-trace"_qs), qPrintable(t.name()));
        else
            QCOMPARE(t.name(), type);
    }

    void hierarchy()
    {
        QMimeDatabase db;
        QVERIFY(db.mimeTypeForName(u"application/x-torch-trace"_qs).inherits(u"text/plain"_qs));
        QVERIFY(db.mimeTypeForName(u"application/x-gzip-compressed-torch-trace"_qs)
                    .inherits(u"application/gzip"_qs));
        QVERIFY(db.mimeTypeForName(u"application/x-zstd-compressed-torch-trace"_qs)
                    .inherits(u"application/zstd"_qs));
    }

    void byContent_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("trace");
        QTest::newRow("glog trace line")
            << QByteArray("V0314 10:41:02.000000 4242 torch/_logging/structured.py:28] "
                          "{\"str\": [\"/home/alice/proj/train.py\", 0]}\n")
            << true;
        QTest::newRow("thread id")
            << QByteArray("V0401 08:54:21.881000 140424060892160 torch/_dynamo/utils.py:19] "
                          "{\"chromium_event\": {}}\n")
            << true;
        QTest::newRow("other glog line")
            << QByteArray("I0314 10:41:02.000000 4242 main.cc:12] started\n") << false;
        QTest::newRow("V and torch/_ but no glog time")
            << QByteArray("Very nice text about torch/_dynamo\n") << false;
        QTest::newRow("plain text") << QByteArray("hello\n") << false;
    }
    void byContent()
    {
        QFETCH(QByteArray, data);
        QFETCH(bool, trace);
        QMimeDatabase db;
        QCOMPARE(db.mimeTypeForData(data).name() == u"application/x-torch-trace"_qs, trace);
    }
};

QTEST_GUILESS_MAIN(TestMimeType)
#include "tst_mimetype.moc"
