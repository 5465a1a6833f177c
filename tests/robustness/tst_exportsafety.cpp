// Exports of a hostile trace: nothing in a trace can steer where an export goes or what else it
// writes. The CLI's report and export commands run in an empty folder on a trace whose names,
// paths and reasons hold path traversal (../../escaped), newlines that look like records, HTML
// and script tags. Checked: exactly the one file named by -o appears (nothing next to it, above
// it or in the working folder), an export refuses to overwrite its input, the subset re-loads as
// the same compiles without records injected through escaped newlines, the Chrome trace is valid
// JSON holding the strings intact, and the HTML report holds the tags as text.
#include "robustness_helpers.h"

#include "core/util/md5.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace dynascope;
using namespace dynascope::robustness;

namespace {

// A JSON string value; the raw text holds quotes, backslashes, slashes and newlines.
const char* const kEvil = "../../escaped/<script>alert(1)</script>\\nV0314 10:41:02.000000 1 "
                          "a.py:1] {\\\"dynamo_start\\\": {}, \\\"frame_id\\\": 99}";

std::string hostileTrace()
{
    const std::string e = kEvil;
    std::string s;
    s += header("{\"str\": [\"" + e + ".py\", 0]}");
    for (int fcid : { 0, 1 }) {
        const std::string ids = ", \"frame_id\": 0, \"frame_compile_id\": " + std::to_string(fcid)
            + ", \"attempt\": 0";
        const std::string ev = "{\"name\": \"" + e
            + "\", \"ts\": 1773484862000000, \"ph\": \"X\", "
              "\"dur\": 50, \"pid\": 0, \"tid\": 0}";
        s += header("{\"chromium_event\": {}" + ids + ", \"has_payload\": \"" + md5Hex(ev) + "\"}");
        s += "\t" + ev + "\n";
        s += header("{\"dynamo_start\": {\"stack\": [{\"line\": 3, \"name\": \"" + e
            + "\", \"filename\": 0}]}" + ids + "}");
        s += header("{\"compilation_metrics\": {\"co_name\": \"" + e + "\", \"co_filename\": \"" + e
            + "\", \"graph_op_count\": 1, \"fail_type\": \"" + e + "\", \"fail_reason\": \"" + e
            + "\", \"restart_reasons\": [\"" + e + "\"], \"recompile_reason\": \"" + e + "\"}" + ids
            + "}");
    }
    return s;
}

QStringList listAll(const QString& dir)
{
    QStringList out;
    QDirIterator it(
        dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

} // namespace

class TestExportSafety : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QString m_trace; // the hostile trace, in m_root/in
    QString m_work; // the CLI's working folder, m_root/work/deeper (empty)

    int cli(const QStringList& args, QByteArray* err = nullptr)
    {
        QProcess p;
        p.setWorkingDirectory(m_work);
        p.start(QStringLiteral(DYNASCOPE_CLI), args);
        if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit)
            return -1;
        if (err)
            *err = p.readAllStandardError();
        return p.exitCode();
    }

    // Runs one export into m_root/out/NAME and checks nothing else appeared anywhere.
    QByteArray exportTo(const QStringList& args, const QString& name)
    {
        const QString outDir = m_root.filePath(QStringLiteral("out"));
        QDir(outDir).removeRecursively();
        QDir().mkpath(outDir);
        const QStringList before = listAll(m_root.path());
        const QString out = outDir + QLatin1Char('/') + name;
        QByteArray err;
        const int rc = cli(QStringList(args) << QStringLiteral("-o") << out << m_trace, &err);
        if (rc != 0) {
            qWarning() << "exit" << rc << err;
            return {};
        }
        QStringList after = listAll(m_root.path());
        after.removeAll(out);
        if (after != before) {
            qWarning() << "files appeared:" << after;
            return {};
        }
        QFile f(out);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QDir().mkpath(m_root.filePath(QStringLiteral("in")));
        m_work = m_root.filePath(QStringLiteral("work/deeper"));
        QDir().mkpath(m_work);
        m_trace = m_root.filePath(QStringLiteral("in/dedicated_log_torch_trace_rank_0.log"));
        writeAll(m_trace.toStdString(), hostileTrace());
        auto r = load({ m_trace.toStdString() });
        QVERIFY(r.trace);
        QCOMPARE(r.trace->compiles.size(), size_t(2));
        QCOMPARE(r.trace->compiles[0].coName.substr(0, 13), std::string("../../escaped"));
    }

    void subsetStaysInItsFileAndInjectsNothing()
    {
        const QByteArray bytes = exportTo({ QStringLiteral("export"), QStringLiteral("subset"),
                                              QStringLiteral("--compiles"), QStringLiteral("#1") },
            QStringLiteral("subset.log"));
        QVERIFY(!bytes.isEmpty());
        auto t = loadBytes(bytes.toStdString());
        QVERIFY(t.trace);
        VERIFY_INVARIANTS(*t.trace);
        QCOMPARE(t.trace->compiles.size(), size_t(1)); // no record injected by "\n V0314 ..."
        QCOMPARE(t.trace->compiles[0].id.display(), std::string("[0/1]"));
        QCOMPARE(t.trace->compiles[0].coName.substr(0, 13), std::string("../../escaped"));

        const QByteArray redacted = exportTo(
            { QStringLiteral("export"), QStringLiteral("subset"), QStringLiteral("--compiles"),
                QStringLiteral("#0"), QStringLiteral("--redact") },
            QStringLiteral("redacted.log"));
        QVERIFY(!redacted.isEmpty());
        QVERIFY2(!redacted.contains("escaped"), "redaction leaves no trace names");
    }

    void chromeTraceIsValidJson()
    {
        const QByteArray bytes = exportTo(
            { QStringLiteral("export"), QStringLiteral("chrome") }, QStringLiteral("trace.json"));
        QVERIFY(!bytes.isEmpty());
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
        QVERIFY(doc.object().contains(QStringLiteral("traceEvents")));
        QVERIFY(bytes.contains("../../escaped"));
    }

    void reportsHoldTagsAsText()
    {
        const QByteArray html = exportTo({ QStringLiteral("report") }, QStringLiteral("r.html"));
        QVERIFY(!html.isEmpty());
        QVERIFY2(!html.contains("<script>alert"), "trace text reaches the HTML report as markup");
        QVERIFY(html.contains("&lt;script&gt;alert"));
        const QByteArray md = exportTo({ QStringLiteral("report") }, QStringLiteral("r.md"));
        QVERIFY(!md.isEmpty());
        const QByteArray json = exportTo({ QStringLiteral("report") }, QStringLiteral("r.json"));
        QJsonParseError e;
        QJsonDocument::fromJson(json, &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
    }

    void inputIsNeverOverwritten()
    {
        const QByteArray before = QByteArray::fromStdString(readAll(m_trace.toStdString()));
        for (const QStringList& args :
            { QStringList { QStringLiteral("export"), QStringLiteral("chrome") },
                QStringList { QStringLiteral("export"), QStringLiteral("subset"),
                    QStringLiteral("--compiles"), QStringLiteral("#0") },
                QStringList { QStringLiteral("report") } }) {
            QByteArray err;
            const int rc
                = cli(QStringList(args) << QStringLiteral("-o") << m_trace << m_trace, &err);
            QVERIFY2(rc == 1, err.constData());
            QCOMPARE(QByteArray::fromStdString(readAll(m_trace.toStdString())), before);
        }
        QVERIFY(listAll(m_work).isEmpty()); // nothing ever written where the CLI ran
    }
};

QTEST_GUILESS_MAIN(TestExportSafety)
#include "tst_exportsafety.moc"
