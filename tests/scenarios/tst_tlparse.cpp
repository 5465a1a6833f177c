// tlparse 0.4.3, the incumbent, on the same real traces as Dynascope (the shared tlparse corpus
// and the scenario suite): the compile ids, each compile's status (tlparse's colours), which
// compiles fail and restart, and the artifacts of each compile id must agree. Where they do not,
// knownDifference() says which is right and why, and any other difference fails. Then every
// `dynascope-cli export subset` of every real trace, plain and --redact, must be read by
// `tlparse --strict` without an error and give the same compile ids.
//
// tlparse comes from DYNASCOPE_TLPARSE, the live stage's venv (build/pytorch-venv-2.13.0), or
// PATH; without it the test skips and says so (scripts/run-pytorch-suite.sh provides it).
#include "scenario_suite.h"

#include "core/io/input_buffer.h"
#include "core/load/finish/graph_break_text.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace dynascope;
using namespace scenarios;

namespace {

QString findTlparse()
{
    const QByteArray env = qgetenv("DYNASCOPE_TLPARSE");
    if (!env.isEmpty())
        return QString::fromUtf8(env);
    const QString venv
        = QStringLiteral(DYNASCOPE_SOURCE_DIR "/build/pytorch-venv-2.13.0/bin/tlparse");
    if (QFileInfo(venv).isExecutable())
        return venv;
    return QStandardPaths::findExecutable(QStringLiteral("tlparse"));
}

struct TlparseView {
    int exitCode = -1;
    QString output;
    std::map<std::string, int> artifacts; // compile id without attempt -> artifacts
    std::multiset<std::pair<std::string, std::string>> statuses; // (id, status), one per compile
    std::set<std::pair<std::string, std::string>> failures; // (id, type)
    std::set<std::string> restarts; // ids with attempt, as tlparse shows them: "[0/0_1]"
};

std::string withoutAttempt(std::string id)
{
    if (auto us = id.rfind('_'); us != std::string::npos && id.find('/') < us)
        id = id.substr(0, us) + "]";
    return id;
}

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

TlparseView runTlparse(
    const QString& tlparse, const QString& file, const QString& outDir, bool strict)
{
    TlparseView v;
    QProcess p;
    QStringList args { file, QStringLiteral("-o"), outDir, QStringLiteral("--overwrite"),
        QStringLiteral("--no-browser") };
    if (strict)
        args << QStringLiteral("--strict");
    p.start(tlparse, args);
    p.waitForFinished(120000);
    v.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    v.output = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    const QJsonObject dir
        = QJsonDocument::fromJson(readText(outDir + u"/compile_directory.json"_qs).toUtf8())
              .object();
    for (auto it = dir.begin(); it != dir.end(); ++it)
        if (it.key() != u"[-/-]"_qs)
            v.artifacts[withoutAttempt(it.key().toStdString())]
                += int(it.value().toObject()[u"artifacts"_qs].toArray().size());
    // The stack trie lists each compile (dynamo_start) with its status class.
    static const QRegularExpression status(
        QStringLiteral("<a href='#(\\[[^']*\\])' class='status-([a-z]+)'>"));
    for (auto m = status.globalMatch(readText(outDir + u"/index.html"_qs)); m.hasNext();) {
        auto one = m.next();
        v.statuses.insert({ one.captured(1).toStdString(), one.captured(2).toStdString() });
    }
    static const QRegularExpression row(
        QStringLiteral("<td>\\s*<a "
                       "href='[^']*'>(\\[[^<]*\\])</a>\\s*</td>\\s*<td>\\s*(?:<pre>)?([^<]*?)(?:</"
                       "pre>)?\\s*</td>"));
    for (auto m = row.globalMatch(readText(outDir + u"/failures_and_restarts.html"_qs));
         m.hasNext();) {
        auto one = m.next();
        const std::string id = one.captured(1).toStdString();
        QString raw = one.captured(2).trimmed();
        raw.replace(u"&lt;"_qs, u"<"_qs).replace(u"&gt;"_qs, u">"_qs).replace(u"&#39;"_qs, u"'"_qs);
        raw.replace(u"&quot;"_qs, u"\""_qs).replace(u"&amp;"_qs, u"&"_qs);
        // 2024 logs: "<class 'torch._dynamo.exc.BackendCompilerFailed'>", which tlparse shows as
        // logged and Dynascope as the bare class name.
        const std::string type = normaliseExceptionType(raw.toStdString());
        if (type == "RestartAnalysis")
            v.restarts.insert(id);
        else
            v.failures.insert({ withoutAttempt(id), type });
    }
    return v;
}

// The failing categories of tlparse's "Stats { ok: 31, other_rank: 1, fail_payload_md5: 4 }".
QSet<QString> failCategories(const QString& output)
{
    QSet<QString> out;
    static const QRegularExpression stats(QStringLiteral("Stats \\{([^}]*)\\}"));
    const auto m = stats.match(output);
    for (const QString& part : m.captured(1).split(u','))
        if (const QString key = part.section(u':', 0, 0).trimmed();
            !key.isEmpty() && key != u"ok"_qs && key != u"unknown"_qs)
            out.insert(key);
    return out;
}

std::string statusName(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok:
        return "ok";
    case CompileStatus::GraphBreak:
        return "break";
    case CompileStatus::Empty:
        return "empty";
    case CompileStatus::Error:
        return "error";
    case CompileStatus::Missing:
        break;
    }
    return "missing";
}

// The records tlparse writes a file for in its compile directory: every artifact (even one
// without payload: 2.13 logs inductor_provenance_* artifacts with none on a cache hit), every
// other record with a payload, the metrics and links. Not chromium events (they go to
// chromium_events.json), string-table entries or compilation_metrics_runtime (shown inside the
// compile's metrics page). The top-level dynamo_graph_break_reason kind is tlparse PR #76's
// proposal that PyTorch never wrote (only hand-edited corpus files have it): tlparse 0.4.3 does
// not know it and writes nothing, Dynascope reads it as the graph break it describes.
bool isTlparseArtifact(const Trace& t, uint32_t r)
{
    const std::string& k = t.kindName(r);
    if (k == "chromium_event" || k == "str" || k == "compilation_metrics_runtime"
        || k == "dynamo_graph_break_reason")
        return false;
    return k == "artifact" || t.records[r].hasPayload() || k == "compilation_metrics"
        || k == "bwd_compilation_metrics" || k == "link";
}

// The real traces: every non-empty log of the shared corpus, and every trace of the suite
// (decompressed into `tmp`, since tlparse reads plain files only).
QStringList realTraces(const QString& tmp)
{
    QStringList out;
    const QString shared = QStringLiteral(DYNASCOPE_SHARED_TRACES);
    if (QFileInfo::exists(shared)) {
        const QJsonObject counts = readJson(shared + u"/tlparse/counts.json"_qs);
        for (const QString& f : counts.keys())
            out << shared + u"/tlparse/"_qs + f;
    }
    for (const QString& name : scenarioNames()) {
        QDirIterator it(
            QDir(suiteDir()).filePath(name), { u"dedicated_log_torch_trace*"_qs }, QDir::Files);
        while (it.hasNext()) {
            const QString path = it.next();
            std::string error;
            auto buf = InputBuffer::open(path.toStdString(), 1ull << 30, error);
            if (!buf)
                continue;
            QString plain = tmp + u"/"_qs + name + u"__"_qs + QFileInfo(path).fileName();
            plain.remove(u".zst"_qs);
            QFile f(plain);
            if (f.open(QIODevice::WriteOnly))
                f.write(buf->data(), qint64(buf->size()));
            out << plain;
        }
    }
    return out;
}

} // namespace

class TestTlparse : public QObject {
    Q_OBJECT
    QString m_tlparse;
    QTemporaryDir m_tmp;
    QStringList m_files;

    void fileRows()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : m_files)
            QTest::newRow(qPrintable(
                QFileInfo(f).fileName() + u" ("_qs + QFileInfo(f).dir().dirName() + u")"_qs))
                << f;
    }

    // Why Dynascope and tlparse may answer differently for a compile; "" when they must not.
    static std::string knownDifference(
        const Trace& t, const Compile& c, const std::string& tlStatus)
    {
        const std::string ours = statusName(c.status);
        for (const Compile& other : t.compiles)
            if (other.index != c.index && other.file == c.file && other.id.sameCompile(c.id)
                && statusName(other.status) == tlStatus)
                return "the compile id repeats (torch._dynamo.reset()): tlparse keys compiles by "
                       "id "
                       "and shows one status for all of them, another compile's; Dynascope keeps "
                       "each compile apart and is right";
        bool breakArtifacts = false;
        for (const GraphBreak& gb : c.graphBreaks)
            breakArtifacts = breakArtifacts || gb.record != kNone;
        if (ours == "break" && tlStatus == "ok" && breakArtifacts && c.restartReasons.empty())
            return "tlparse colours a compile by restarts only; this break (a data-dependent if "
                   "or a torch.compiler.disable call, compiled in the same attempt) shows only "
                   "in its dynamo_graph_break_reason artifact: Dynascope is right";
        bool onlyOther = !c.restartReasons.empty();
        for (const std::string& r : c.restartReasons)
            onlyOther = onlyOther && r.starts_with("<class '") && r.ends_with("RestartAnalysis'>");
        if (ours == "ok" && tlStatus == "break" && onlyOther)
            return "the restart is not a graph break (restart_reasons holds only the exception "
                   "class, e.g. TensorifyScalarRestartAnalysis: a float made dynamic); the graph "
                   "is "
                   "whole: Dynascope is right, tlparse colours every restart as a break";
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_tlparse = findTlparse();
        if (m_tlparse.isEmpty())
            QSKIP("tlparse is not installed (set DYNASCOPE_TLPARSE, or run "
                  "scripts/run-pytorch-suite.sh, which installs tlparse 0.4.3 in its venv)");
        QProcess p;
        p.start(m_tlparse, { QStringLiteral("--version") });
        p.waitForFinished();
        const QString version = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        qInfo("%s", qPrintable(version));
        QVERIFY2(version.contains(u"0.4.3"_qs), qPrintable(version));
        QVERIFY(m_tmp.isValid());
        m_files = realTraces(m_tmp.path());
        // The tlparse corpus and the recorded scenarios; without ../shared/traces (a clone on its
        // own), the scenarios alone.
        const bool corpus = QFileInfo::exists(QStringLiteral(DYNASCOPE_SHARED_TRACES));
        if (!corpus)
            qInfo("../shared/traces is absent: comparing on the recorded scenario logs only");
        QVERIFY2(m_files.size() >= (corpus ? 40 : 1), qPrintable(QString::number(m_files.size())));
    }

    void sideBySide_data() { fileRows(); }
    void sideBySide()
    {
        QFETCH(QString, file);
        const TlparseView tl = runTlparse(m_tlparse, file, m_tmp.path() + u"/out"_qs, false);
        QVERIFY2(tl.exitCode == 0, qPrintable(tl.output.right(2000)));
        auto r = load({ file.toStdString() });
        QVERIFY(r.trace);
        const Trace& t = *r.trace;

        // Artifacts per compile id: tlparse writes one per payload record (and one for each
        // metrics record) under the record's id; Dynascope holds the same records in its
        // compiles.
        std::map<std::string, int> ours;
        std::map<std::string, std::string> kinds;
        for (const Compile& c : t.compiles) {
            CompileId id = c.id;
            id.attempt = 0;
            int& n = ours[id.display()];
            for (uint32_t rec : c.records)
                if (isTlparseArtifact(t, rec)) {
                    ++n;
                    kinds[id.display()]
                        += " " + t.kindName(rec) + ":" + std::to_string(t.records[rec].line);
                }
        }
        for (auto it = ours.begin(); it != ours.end();)
            it = it->second == 0 && !tl.artifacts.count(it->first) ? ours.erase(it) : std::next(it);
        if (ours != tl.artifacts) {
            std::set<std::string> keys;
            for (const auto& [k, n] : ours)
                keys.insert(k);
            for (const auto& [k, n] : tl.artifacts)
                keys.insert(k);
            for (const std::string& k : keys)
                if (ours[k] != (tl.artifacts.count(k) ? tl.artifacts.at(k) : 0))
                    qWarning("artifacts of %s: Dynascope %d, tlparse %d:%s", k.c_str(), ours[k],
                        tl.artifacts.count(k) ? tl.artifacts.at(k) : 0, kinds[k].c_str());
        }
        QCOMPARE(ours, tl.artifacts);

        // One status per compile; where they differ, the reason is pinned.
        std::multiset<std::pair<std::string, std::string>> left = tl.statuses;
        for (const Compile& c : t.compiles) {
            CompileId id = c.id;
            id.attempt = 0;
            const std::string key = id.display();
            // tlparse's stack trie lists dynamo_start records: a compile without one (the
            // recompile-limit compile of 2.13, or records of a compile whose start the log lacks)
            // has no status there.
            if (c.startRecord == kNone)
                continue;
            auto same = left.find({ key, statusName(c.status) });
            if (same != left.end()) {
                left.erase(same);
                continue;
            }
            auto other = left.lower_bound({ key, "" });
            QVERIFY2(other != left.end() && other->first == key,
                qPrintable(QString::fromStdString("tlparse shows no compile " + key)));
            const std::string why = knownDifference(t, c, other->second);
            QVERIFY2(!why.empty(),
                qPrintable(QString::fromStdString(
                    key + ": Dynascope " + statusName(c.status) + ", tlparse " + other->second)));
            qInfo("%s %s: Dynascope %s, tlparse %s: %s", qPrintable(QFileInfo(file).fileName()),
                key.c_str(), statusName(c.status).c_str(), other->second.c_str(), why.c_str());
            left.erase(other);
        }
        QVERIFY2(left.empty(), "tlparse shows compiles Dynascope does not have");

        // Failures: the same compiles with the same exception type.
        std::set<std::pair<std::string, std::string>> failures;
        std::set<std::string> restarts;
        for (const Compile& c : t.compiles) {
            CompileId id = c.id;
            if (c.failure) {
                id.attempt = 0;
                failures.insert({ id.display(), c.failure->type });
            }
            if (!c.restartReasons.empty() && !c.attempts.empty()) {
                id.attempt = c.attempts.back().attempt;
                restarts.insert(id.display());
            }
        }
        if (failures != tl.failures) {
            for (const auto& [id, type] : failures)
                qWarning("Dynascope failure %s %s", id.c_str(), type.c_str());
            for (const auto& [id, type] : tl.failures)
                qWarning("tlparse failure %s %s", id.c_str(), type.c_str());
        }
        QCOMPARE(failures, tl.failures);
        QCOMPARE(restarts, tl.restarts);
    }

    // Every subset Dynascope exports of a real trace is a trace tlparse reads strictly, with the
    // same compile ids.
    void subsetsReadStrictly_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("redact");
        for (const QString& f : m_files)
            for (bool redact : { false, true })
                QTest::newRow(qPrintable(QFileInfo(f).dir().dirName() + u"/"_qs
                    + QFileInfo(f).fileName() + (redact ? u" redacted"_qs : u""_qs)))
                    << f << redact;
    }
    void subsetsReadStrictly()
    {
        QFETCH(QString, file);
        QFETCH(bool, redact);
        auto r = load({ file.toStdString() });
        QVERIFY(r.trace);
        if (r.trace->compiles.empty())
            QSKIP("no compile to export");
        QStringList all;
        for (const Compile& c : r.trace->compiles)
            all << u"#"_qs + QString::number(c.index);
        const QString out = m_tmp.path() + u"/subset.log"_qs;
        QFile::remove(out);
        QProcess cli;
        QStringList args { u"export"_qs, u"subset"_qs, u"--compiles"_qs, all.join(u','), u"-o"_qs,
            out, file };
        if (redact)
            args.insert(2, u"--redact"_qs);
        cli.start(QStringLiteral(DYNASCOPE_CLI), args);
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const TlparseView whole = runTlparse(m_tlparse, file, m_tmp.path() + u"/whole"_qs, false);
        TlparseView sub = runTlparse(m_tlparse, out, m_tmp.path() + u"/sub"_qs, true);
        if (sub.exitCode != 0) {
            // tlparse --strict also refuses some inputs as they are: corpus files whose payloads
            // were edited by hand (fail_payload_md5; the subset keeps the declared hashes, as
            // documented), and every real 2.13 distributed log (other_rank: the torch_version
            // artifact is written with no "rank", before the rank is known). The subset may fail
            // only where its input fails, for the same reasons.
            const TlparseView orig = runTlparse(m_tlparse, file, m_tmp.path() + u"/orig"_qs, true);
            const QSet<QString> subFails = failCategories(sub.output);
            const QSet<QString> origFails = failCategories(orig.output);
            QVERIFY2(orig.exitCode != 0 && !subFails.isEmpty() && origFails.contains(subFails),
                qPrintable(sub.output.left(600)));
            qInfo("tlparse --strict refuses the input itself (%s), the subset for %s only",
                qPrintable(QStringList(origFails.values()).join(u", "_qs)),
                qPrintable(QStringList(subFails.values()).join(u", "_qs)));
            sub = runTlparse(m_tlparse, out, m_tmp.path() + u"/sub"_qs, false); // for the ids
            QCOMPARE(sub.exitCode, 0);
        }
        std::set<std::string> a, b;
        for (const auto& [id, s] : whole.statuses)
            a.insert(id);
        for (const auto& [id, s] : sub.statuses)
            b.insert(id);
        QCOMPARE(b, a);
    }
};

QTEST_GUILESS_MAIN(TestTlparse)
#include "tst_tlparse.moc"
