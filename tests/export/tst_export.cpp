// Exports (core/export): the Chrome trace JSON parses and holds an X event per compile on the
// right pid (rank) and tid (frame); compile selections accept [0/1], 0/1 and #index and name what
// they cannot resolve; a TORCH_TRACE subset loads back with the same summary for its compiles
// (fixtures and every real trace); a redacted subset keeps the counts and contains none of the
// paths and function names it replaced.
#include "core/export/chrome_trace.h"
#include "core/export/redactor.h"
#include "core/export/trace_subset.h"
#include "core/load/loader.h"
#include "core/writer/summary_json.h"
#include "core/writer/trace_writer.h"

#include "tests/support/trace_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace dynascope;

namespace {
std::string fixture(const QString& name)
{
    return std::string(DYNASCOPE_FIXTURES_DIR) + "/" + name.toStdString();
}

QJsonObject parseObject(const std::string& json)
{
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "JSON does not parse:" << error.errorString() << "at" << error.offset;
    return doc.object();
}

std::vector<uint32_t> parseIndices(const QString& s)
{
    std::vector<uint32_t> v;
    for (const QString& part : s.split(u',', Qt::SkipEmptyParts))
        v.push_back(part.toUInt());
    return v;
}

QString realRoot()
{
    return QString::fromUtf8(DYNASCOPE_SHARED_TRACES);
}

QStringList realTraceFiles()
{
    std::vector<std::string> files;
    testsupport::addTraceFiles(realRoot().toStdString(), files, UINTMAX_MAX);
    QStringList paths;
    for (const std::string& f : files)
        paths << QString::fromStdString(f);
    return paths;
}

// Checks the Chrome trace of t: parses, one X event per compile with the right pid/tid, named
// processes and threads, instants for every graph break, recompile, failure and cache event.
void checkChrome(const Trace& t, const QString& label)
{
    std::ostringstream out;
    writeChromeTrace(t, out);
    QJsonObject root = parseObject(out.str());
    QVERIFY2(root.contains(u"traceEvents"_qs), qPrintable(label));
    QCOMPARE(root[u"displayTimeUnit"_qs].toString(), u"ms"_qs);
    QJsonArray events = root[u"traceEvents"_qs].toArray();
    std::map<qint64, QString> processNames;
    std::map<std::pair<qint64, qint64>, QString> threadNames;
    std::map<qint64, int> compileEvents;
    std::map<QString, int> instants;
    for (const auto& v : events) {
        QJsonObject e = v.toObject();
        QString ph = e[u"ph"_qs].toString();
        qint64 pid = e[u"pid"_qs].toInteger();
        qint64 tid = e[u"tid"_qs].toInteger();
        if (ph == u"M"_qs) {
            QString name = e[u"args"_qs].toObject()[u"name"_qs].toString();
            if (e[u"name"_qs].toString() == u"process_name"_qs)
                processNames[pid] = name;
            else if (e[u"name"_qs].toString() == u"thread_name"_qs)
                threadNames[{ pid, tid }] = name;
            continue;
        }
        QVERIFY2(e[u"ts"_qs].isDouble(), qPrintable(label));
        if (ph == u"X"_qs) {
            QVERIFY(e[u"dur"_qs].toDouble() >= 0);
            if (e[u"cat"_qs].toString() != u"compile"_qs)
                continue;
            QJsonObject args = e[u"args"_qs].toObject();
            qint64 index = args[u"index"_qs].toInteger();
            QVERIFY(index >= 0 && size_t(index) < t.compiles.size());
            const Compile& c = t.compiles[size_t(index)];
            ++compileEvents[index];
            QCOMPARE(pid, chromePid(t, c.file));
            QCOMPARE(tid, qint64(c.frame));
            QCOMPARE(args[u"compile_id"_qs].toString(), QString::fromStdString(c.id.display()));
            QCOMPARE(args[u"status"_qs].toString(), QString::fromUtf8(toString(c.status)));
            QCOMPARE(args[u"co_name"_qs].toString(), QString::fromStdString(c.coName));
            QCOMPARE(qsizetype(args[u"recompile_reasons"_qs].toArray().size()),
                qsizetype(c.recompileReasons.size()));
            QCOMPARE(qsizetype(args[u"graph_break_reasons"_qs].toArray().size()),
                qsizetype(c.graphBreaks.size()));
            QCOMPARE(args[u"failure"_qs].isNull(), !c.failure.has_value());
            if (c.timeSource != TimeSource::None) {
                QCOMPARE(e[u"ts"_qs].toInteger(), qint64(std::llround(c.startUs)));
                QCOMPARE(e[u"dur"_qs].toInteger(), qint64(std::llround(c.durationUs())));
            }
        } else if (ph == u"i"_qs) {
            ++instants[e[u"cat"_qs].toString()];
            QCOMPARE(e[u"s"_qs].toString(), u"t"_qs);
        }
    }
    for (const auto& c : t.compiles)
        QVERIFY2(compileEvents[c.index] == 1,
            qPrintable(label + u": compile #"_qs + QString::number(c.index)));
    for (uint32_t f = 0; f < t.files.size(); ++f) {
        qint64 pid = chromePid(t, f);
        QVERIFY(processNames.count(pid));
        if (t.files[f].rank)
            QVERIFY(processNames[pid].startsWith(u"rank "_qs + QString::number(*t.files[f].rank)));
    }
    for (const Frame& fr : t.frames) {
        // The function and where it is, as far as the trace says: never ":0".
        std::string place = fr.coFilename;
        if (!place.empty() && fr.coFirstLineno > 0)
            place += ":" + std::to_string(fr.coFirstLineno);
        QString want = QString::fromStdString(
            (fr.coName.empty() ? std::string("(unknown function)") : fr.coName)
            + (place.empty() ? "" : " " + place));
        QVERIFY2(!want.endsWith(u":0"_qs), qPrintable(want));
        auto key = std::make_pair(qint64(chromePid(t, fr.file)), qint64(fr.index));
        QCOMPARE(threadNames[key], want);
    }
    uint64_t cache = 0;
    for (const auto& c : t.compiles)
        cache += c.cacheEvents.size();
    QCOMPARE(uint64_t(instants[u"graph_break"_qs]), t.graphBreakCount());
    QCOMPARE(uint64_t(instants[u"failure"_qs]), t.failureCount());
    QCOMPARE(uint64_t(instants[u"recompile"_qs]), t.recompileCount());
    QCOMPARE(uint64_t(instants[u"cache"_qs]), cache);
}

// A compile of the summary JSON, made comparable between a trace and its subset: positions
// dropped, and links to compiles outside the selection cut as the subset cuts them.
QJsonObject comparable(
    QJsonObject c, const Trace& t, uint32_t index, const std::vector<uint32_t>& selection)
{
    auto selected = [&](uint32_t i) {
        return std::find(selection.begin(), selection.end(), i) != selection.end();
    };
    c.remove(u"index"_qs);
    c.remove(u"file"_qs);
    c.remove(u"frame"_qs);
    const Compile& comp = t.compiles[index];
    QJsonArray breaks = c[u"graph_breaks"_qs].toArray();
    for (qsizetype i = 0; i < breaks.size(); ++i) {
        QJsonObject b = breaks[i].toObject();
        uint32_t resume = comp.graphBreaks[size_t(i)].resumeCompile;
        if (resume == kNone || !selected(resume))
            b[u"resume_compile"_qs] = QJsonValue::Null;
        breaks[i] = b;
    }
    c[u"graph_breaks"_qs] = breaks;
    QJsonArray reasons = c[u"recompile_reasons"_qs].toArray();
    for (qsizetype i = 0; i < reasons.size(); ++i) {
        QJsonObject r = reasons[i].toObject();
        uint32_t earlier = comp.recompileReasons[size_t(i)].earlierCompile;
        r.remove(u"earlier_index"_qs);
        if (earlier == kNone || !selected(earlier)) {
            r[u"earlier_compile"_qs] = QJsonValue::Null;
            r[u"guard"_qs] = QJsonValue::Null;
            // A source the reason does not name ("___check_obj_id(fn, ...)") comes from the
            // matched guard, which needs the earlier compile.
            if (!r[u"text"_qs].toString().contains(r[u"source"_qs].toString()))
                r[u"source"_qs] = QString();
        }
        reasons[i] = r;
    }
    c[u"recompile_reasons"_qs] = reasons;
    // A compile with no dynamo_start (the one the recompile limit stopped) is named after its
    // frame's other compiles when its metrics name nothing (torch 2.11): alone in a subset, its
    // name is not in the file.
    const bool named = std::any_of(selection.begin(), selection.end(),
        [&](uint32_t i) { return i != index && t.compiles[i].frame == comp.frame; });
    if (comp.startRecord == kNone && !named)
        for (const char* key : { "co_name", "co_filename", "co_firstlineno" })
            c.remove(QString::fromLatin1(key));
    return c;
}

std::string writeToFile(const QTemporaryDir& dir, const std::string& name, const std::string& data)
{
    std::string path = dir.path().toStdString() + "/" + name;
    std::ofstream(path, std::ios::binary) << data;
    return path;
}

// Writes the subset of `selection`, loads it back, and compares each compile's summary.
void checkRoundTrip(const Trace& t, const std::vector<uint32_t>& selection, const QString& label)
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::ostringstream out;
    SubsetResult res = writeSubset(t, { selection, false }, out);
    QVERIFY2(res.error.empty(), res.error.c_str());
    // Named like the input: a rank may come from the file name.
    std::string path = writeToFile(dir,
        std::filesystem::path(t.files[t.compiles[selection[0]].file].path).filename().string(),
        out.str());
    auto r = load({ path });
    QVERIFY(r.trace && r.errors.empty());
    const Trace& s = *r.trace;
    QVERIFY2(s.compiles.size() == selection.size(),
        qPrintable(label + u": "_qs + QString::number(s.compiles.size()) + u" compiles, want "_qs
            + QString::number(selection.size())));
    SummaryOptions noVerify;
    noVerify.verifyPayloads = false;
    QJsonArray a = parseObject(summaryJson(t, noVerify))[u"compiles"_qs].toArray();
    QJsonArray b = parseObject(summaryJson(s, noVerify))[u"compiles"_qs].toArray();
    for (size_t k = 0; k < selection.size(); ++k) {
        QJsonObject want
            = comparable(a[qsizetype(selection[k])].toObject(), t, selection[k], selection);
        QJsonObject got = comparable(b[qsizetype(k)].toObject(), s, uint32_t(k), [&] {
            std::vector<uint32_t> all(selection.size());
            for (size_t i = 0; i < all.size(); ++i)
                all[i] = uint32_t(i);
            return all;
        }());
        if (got != want) {
            qWarning().noquote() << "want" << QJsonDocument(want).toJson();
            qWarning().noquote() << "got " << QJsonDocument(got).toJson();
        }
        QVERIFY2(got == want,
            qPrintable(label + u": compile "_qs + QString::number(selection[k]) + u" differs"_qs));
    }
    // Payload hashes: a payload that matched in the input matches in the subset.
    uint64_t wantMismatches = 0;
    for (uint32_t ci : selection)
        for (uint32_t rec : t.compiles[ci].records)
            if (!(t.records[rec].flags & kTruncated) && !t.payloadHashMatches(rec))
                ++wantMismatches;
    uint64_t gotMismatches = s.verifyPayloads().mismatchesPerFile[0];
    QVERIFY2(gotMismatches <= wantMismatches + (t.diagnostics.empty() ? 0 : 1),
        qPrintable(label + u": "_qs + QString::number(gotMismatches) + u" payload mismatches"_qs));
}

// Whole-word occurrences of `word` in bytes.
bool containsWord(const QByteArray& bytes, const std::string& word)
{
    QRegularExpression re(u"(?<![A-Za-z0-9_])"_qs
        + QRegularExpression::escape(QString::fromStdString(word)) + u"(?![A-Za-z0-9_])"_qs);
    return re.match(QString::fromUtf8(bytes)).hasMatch();
}
} // namespace

class TestExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!std::filesystem::exists(fixture(u"graph_break.log"_qs)))
            QSKIP("fixtures not generated: run ctest (the make_fixtures test writes them first)");
    }

    void chromeTrace_data()
    {
        QTest::addColumn<QString>("input");
        for (const char* name : { "graph_break.log", "recompile_chain.log", "dynamic_shape.log",
                 "backend_failure.log", "compiled_autograd.log", "reset_ids.log", "legacy_2024.log",
                 "truncated.log", "bad_header_json.log", "example.log", "two_ranks" })
            QTest::newRow(name) << QString::fromUtf8(name);
    }
    void chromeTrace()
    {
        QFETCH(QString, input);
        auto r = load({ fixture(input) });
        QVERIFY(r.trace && r.errors.empty());
        checkChrome(*r.trace, input);
    }

    void chromePids()
    {
        auto r = load({ fixture(u"two_ranks"_qs) });
        QCOMPARE(chromePid(*r.trace, 0), int64_t(0));
        QCOMPARE(chromePid(*r.trace, 1), int64_t(1));
        // No rank: the smallest free number.
        auto one = load({ fixture(u"example.log"_qs) });
        QCOMPARE(chromePid(*one.trace, 0), int64_t(0));
        // Two files claiming rank 1 next to a rank 0 (multi_rank_runtime has this): 0 stays,
        // the two rank-1 files get 1 and 2... unless a rank uses them.
        Trace t;
        t.files.resize(3);
        t.files[0].rank = 0;
        t.files[1].rank = 1;
        t.files[2].rank = 1;
        QCOMPARE(chromePid(t, 0), int64_t(0));
        QCOMPARE(chromePid(t, 1), int64_t(1));
        QCOMPARE(chromePid(t, 2), int64_t(2));
        t.files[0].rank = 1;
        t.files[2].rank = 0;
        QCOMPARE(chromePid(t, 2), int64_t(0));
        QCOMPARE(chromePid(t, 0), int64_t(1));
        QCOMPARE(chromePid(t, 1), int64_t(2));
    }

    void chromeTraceRealTraces_data()
    {
        QTest::addColumn<QString>("path");
        if (!QFileInfo::exists(realRoot()))
            QSKIP(qPrintable(u"real traces not available: "_qs + realRoot()
                + u" does not exist (it comes with the workplace's shared/ folder)"_qs));
        for (const QString& p : realTraceFiles())
            QTest::newRow(qPrintable(p.mid(realRoot().size() + 1))) << p;
    }
    void chromeTraceRealTraces()
    {
        QFETCH(QString, path);
        auto r = load({ path.toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        checkChrome(*r.trace, path);
    }

    void selectCompiles_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("indices"); // "" when an error is expected
        QTest::addColumn<QString>("error"); // part of the message
        QTest::newRow("bracketed") << u"recompile_chain.log"_qs << u"[0/1]"_qs << u"1"_qs << u""_qs;
        QTest::newRow("bare") << u"recompile_chain.log"_qs << u"0/3"_qs << u"3"_qs << u""_qs;
        QTest::newRow("list, spaces, order")
            << u"recompile_chain.log"_qs << u" [0/4] , 0/2,0/2"_qs << u"2,4"_qs << u""_qs;
        QTest::newRow("index") << u"recompile_chain.log"_qs << u"#0,#4"_qs << u"0,4"_qs << u""_qs;
        QTest::newRow("attempt names its compile")
            << u"graph_break.log"_qs << u"[0/0_1]"_qs << u"0"_qs << u""_qs;
        QTest::newRow("compiled autograd")
            << u"compiled_autograd.log"_qs << u"!0/1/0"_qs << u"2"_qs << u""_qs;
        QTest::newRow("unknown id") << u"recompile_chain.log"_qs << u"[9/9]"_qs << u""_qs
                                    << u"unknown compile id '[9/9]'"_qs;
        QTest::newRow("unknown index")
            << u"recompile_chain.log"_qs << u"#5"_qs << u""_qs << u"unknown compile '#5'"_qs;
        QTest::newRow("garbage") << u"recompile_chain.log"_qs << u"frob"_qs << u""_qs
                                 << u"bad compile id 'frob'"_qs;
        QTest::newRow("bad index")
            << u"recompile_chain.log"_qs << u"#x"_qs << u""_qs << u"bad compile index '#x'"_qs;
        QTest::newRow("empty") << u"recompile_chain.log"_qs << u" , "_qs << u""_qs
                               << u"no compile"_qs;
        QTest::newRow("repeated after reset") << u"reset_ids.log"_qs << u"[0/0]"_qs << u""_qs
                                              << u"ambiguous: it names compiles #0, #2, #4"_qs;
        QTest::newRow("reset, by index")
            << u"reset_ids.log"_qs << u"#2,#3"_qs << u"2,3"_qs << u""_qs;
        QTest::newRow("across ranks")
            << u"two_ranks"_qs << u"0/0"_qs << u""_qs << u"#0 (rank 0), #1 (rank 1)"_qs;
    }
    void selectCompiles()
    {
        QFETCH(QString, input);
        QFETCH(QString, list);
        QFETCH(QString, indices);
        QFETCH(QString, error);
        auto r = load({ fixture(input) });
        QVERIFY(r.trace);
        CompileSelection sel = dynascope::selectCompiles(*r.trace, list.toStdString());
        if (error.isEmpty()) {
            QVERIFY2(sel.error.empty(), sel.error.c_str());
            QCOMPARE(sel.compiles, parseIndices(indices));
        } else {
            QVERIFY2(QString::fromStdString(sel.error).contains(error), sel.error.c_str());
        }
    }

    void subsetRoundTrip_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("selection");
        QTest::newRow("chain head") << u"recompile_chain.log"_qs << u"0,1,2"_qs;
        QTest::newRow("chain, one recompile alone") << u"recompile_chain.log"_qs << u"3"_qs;
        QTest::newRow("chain, gaps") << u"recompile_chain.log"_qs << u"0,2,4"_qs;
        QTest::newRow("break and resume") << u"graph_break.log"_qs << u"0,1"_qs;
        QTest::newRow("resume alone") << u"graph_break.log"_qs << u"1"_qs;
        QTest::newRow("example: step + resume") << u"example.log"_qs << u"1,2"_qs;
        QTest::newRow("example: scale") << u"example.log"_qs << u"3,4,5,6,7"_qs;
        QTest::newRow("example: all") << u"example.log"_qs << u"0,1,2,3,4,5,6,7,8"_qs;
        QTest::newRow("failure") << u"backend_failure.log"_qs << u"0"_qs;
        QTest::newRow("dynamic shapes") << u"dynamic_shape.log"_qs << u"0"_qs;
        QTest::newRow("compiled autograd") << u"compiled_autograd.log"_qs << u"1,2"_qs;
        QTest::newRow("reset round 2") << u"reset_ids.log"_qs << u"2,3"_qs;
        QTest::newRow("legacy 2024") << u"legacy_2024.log"_qs << u"0,1,2"_qs;
        QTest::newRow("crlf") << u"crlf.log"_qs << u"0,1"_qs;
        QTest::newRow("blank lines") << u"blank_lines.log"_qs << u"0,1"_qs;
        QTest::newRow("zstd input") << u"recompile_chain.log.zst"_qs << u"1,2"_qs;
        QTest::newRow("rank 1 of two") << u"two_ranks"_qs << u"1"_qs;
    }
    void subsetRoundTrip()
    {
        QFETCH(QString, input);
        QFETCH(QString, selection);
        auto r = load({ fixture(input) });
        QVERIFY(r.trace && r.errors.empty());
        checkRoundTrip(*r.trace, parseIndices(selection), input);
    }

    void subsetKeepsHeadersAndPayloads()
    {
        // Selecting everything of a clean fixture changes no header and no payload: only records
        // outside compiles (the torch_version artifact stays; link, runtime metrics go) differ.
        auto r = load({ fixture(u"recompile_chain.log"_qs) });
        std::ostringstream out;
        SubsetResult res = writeSubset(*r.trace, { { 0, 1, 2, 3, 4 }, false }, out);
        QVERIFY(res.error.empty());
        QCOMPARE(res.rewrittenHeaders, uint64_t(0));
        std::ifstream in(fixture(u"recompile_chain.log"_qs), std::ios::binary);
        std::string original(
            (std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(out.str(), original);
    }

    void subsetRenumbersStrings()
    {
        // [0/0] of model.py comes first in the example; the resume frame alone needs only
        // train.py, which becomes index 0.
        auto r = load({ fixture(u"example.log"_qs) });
        std::ostringstream out;
        SubsetResult res = writeSubset(*r.trace, { { 2 }, false }, out);
        QVERIFY(res.error.empty());
        std::string text = out.str();
        QVERIFY(res.strings >= 1);
        QVERIFY(text.find("{\"str\": [\"/home/alice/proj/train.py\", 0]}") != std::string::npos);
        QVERIFY(text.find(", 1]}") == std::string::npos || res.strings > 1);
    }

    void subsetRefusesSeveralFiles()
    {
        auto r = load({ fixture(u"two_ranks"_qs) });
        std::ostringstream out;
        SubsetResult res = writeSubset(*r.trace, { { 0, 1 }, false }, out);
        QVERIFY(res.error.find("several files") != std::string::npos);
    }

    void subsetRealTraces_data()
    {
        QTest::addColumn<QString>("path");
        if (!QFileInfo::exists(realRoot()))
            QSKIP(qPrintable(u"real traces not available: "_qs + realRoot()
                + u" does not exist (it comes with the workplace's shared/ folder)"_qs));
        for (const QString& p : realTraceFiles())
            QTest::newRow(qPrintable(p.mid(realRoot().size() + 1))) << p;
    }
    void subsetRealTraces()
    {
        QFETCH(QString, path);
        auto r = load({ path.toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        const Trace& t = *r.trace;
        if (t.compiles.empty())
            QSKIP("no compiles in this file");
        if (t.files.front().format == TraceFormat::TorchLogs)
            QSKIP("TORCH_LOGS text: it holds no TORCH_TRACE records to copy (the subset refuses "
                  "it, saying so)");
        std::vector<uint32_t> all;
        for (const auto& c : t.compiles)
            all.push_back(c.index);
        checkRoundTrip(t, all, path);
        // And the last compile alone.
        checkRoundTrip(t, { all.back() }, path);
        // Redacted: the counts survive.
        std::ostringstream out;
        SubsetResult res = writeSubset(t, { all, true }, out);
        QVERIFY(res.error.empty());
        QTemporaryDir dir;
        auto back = load({ writeToFile(dir, "redacted.log", out.str()) });
        QVERIFY(back.trace);
        QCOMPARE(back.trace->compileCount(), t.compileCount());
        QCOMPARE(back.trace->recompileCount(), t.recompileCount());
        QCOMPARE(back.trace->graphBreakCount(), t.graphBreakCount());
        QCOMPARE(back.trace->failureCount(), t.failureCount());
        QCOMPARE(back.trace->verifyPayloads().mismatchesPerFile[0], uint64_t(0));
    }

    void redactedSubset_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("selection");
        QTest::newRow("graph break + resume") << u"graph_break.log"_qs << u"0,1"_qs;
        QTest::newRow("recompile chain") << u"recompile_chain.log"_qs << u"2,3,4"_qs;
        QTest::newRow("example: all") << u"example.log"_qs << u"0,1,2,3,4,5,6,7,8"_qs;
        QTest::newRow("example: failure") << u"example.log"_qs << u"8"_qs;
        QTest::newRow("legacy 2024") << u"legacy_2024.log"_qs << u"0,1,2"_qs;
        QTest::newRow("dynamic shapes") << u"dynamic_shape.log"_qs << u"0"_qs;
        QTest::newRow("failure") << u"backend_failure.log"_qs << u"0"_qs;
    }
    void redactedSubset()
    {
        QFETCH(QString, input);
        QFETCH(QString, selection);
        auto r = load({ fixture(input) });
        QVERIFY(r.trace && r.errors.empty());
        const Trace& t = *r.trace;
        std::vector<uint32_t> sel = parseIndices(selection);
        std::ostringstream out;
        SubsetResult res = writeSubset(t, { sel, true }, out);
        QVERIFY2(res.error.empty(), res.error.c_str());
        QVERIFY(res.payloadsDropped > 0);
        QByteArray bytes = QByteArray::fromStdString(out.str());

        // No identifying string survives, as raw bytes.
        // "def forward": graph code, e.g. in the args of the fx_graph_cache_miss chromium event.
        for (const char* s : { "/home/alice", "alice", "train.py", "model.py", ".venv",
                 "def forward", "components" })
            QVERIFY2(!bytes.contains(s), s);
        std::set<std::string> names;
        for (uint32_t ci : sel) {
            const Compile& c = t.compiles[ci];
            names.insert(c.coName);
            for (const auto& f : c.stack)
                names.insert(std::string(f.name));
        }
        for (const std::string& n : names) {
            if (n.starts_with("<") || (n.starts_with("__") && n.ends_with("__")))
                continue;
            QVERIFY2(!containsWord(bytes, n), n.c_str());
        }
        QVERIFY(bytes.contains("/redacted/file1.py"));
        QVERIFY(bytes.contains("\"fn1\""));
        // Only chromium events keep a payload, and dynamo_guards an empty JSON list (readers
        // such as tlparse --strict parse it).
        const QList<QByteArray> lines = bytes.split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QByteArray& line = lines[i];
            if (!line.contains("\"has_payload\""))
                continue;
            if (line.contains("\"dynamo_guards\""))
                QCOMPARE(lines.value(i + 1), QByteArray("\t[]"));
            else
                QVERIFY2(line.contains("\"chromium_event\""), line.constData());
        }

        QTemporaryDir dir;
        auto back = load({ writeToFile(dir, "redacted.log", out.str()) });
        QVERIFY(back.trace && back.errors.empty());
        const Trace& s = *back.trace;
        QCOMPARE(s.compiles.size(), sel.size());
        uint64_t compiles = 0, recompiles = 0, breaks = 0, failures = 0;
        for (uint32_t ci : sel) {
            const Compile& c = t.compiles[ci];
            compiles += c.startRecord != kNone;
            recompiles += c.startRecord != kNone && c.isRecompile();
            breaks += c.graphBreakCount();
            failures += c.failure.has_value();
        }
        QCOMPARE(s.compileCount(), compiles);
        QCOMPARE(s.recompileCount(), recompiles);
        QCOMPARE(s.graphBreakCount(), breaks);
        QCOMPARE(s.failureCount(), failures);
        QCOMPARE(s.verifyPayloads().mismatchesPerFile[0], uint64_t(0));
        for (size_t k = 0; k < sel.size(); ++k) {
            const Compile& a = t.compiles[sel[k]];
            const Compile& b = s.compiles[k];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.status, a.status);
            QCOMPARE(b.durationUs(), a.durationUs()); // chromium events kept
            QCOMPARE(b.coFilename.starts_with("/redacted/file"), !a.coFilename.empty());
            // Consistent placeholders: same original, same placeholder.
            for (size_t m = 0; m < k; ++m)
                QCOMPARE(s.compiles[m].coFilename == b.coFilename,
                    t.compiles[sel[m]].coFilename == a.coFilename);
            for (size_t g = 0; g < a.graphBreaks.size(); ++g) {
                bool linked = a.graphBreaks[g].resumeCompile != kNone
                    && std::count(sel.begin(), sel.end(), a.graphBreaks[g].resumeCompile);
                QCOMPARE(b.graphBreaks[g].resumeCompile != kNone, linked);
            }
        }
    }

    // Known paths are replaced where they stand whole; a "path" that is not shaped like one (a
    // trace may give a file name of "3") only where a value is exactly it. Found by the fuzz
    // invariants: the 3 in a glog prefix's date became a placeholder and no record parsed.
    void redactionKeepsPrefixesWhole()
    {
        Redactor r;
        r.addPath("3");
        r.addPath("/home/bob/a.py");
        r.addPath("b.py");
        const std::string prefix = "V0314 10:41:03.000000 4242 /home/bob/a.py:3] ";
        const std::string p = r.redactPaths(prefix);
        QVERIFY2(p.starts_with("V0314 10:41:03.000000 4242 /redacted/file"), p.c_str());
        QVERIFY2(p.ends_with(".py:3] "), p.c_str());
        QCOMPARE(r.redactPaths("3"), r.pathPlaceholder("3"));
        QCOMPARE(r.redactPaths("/home/bob/a.pyc x3"), std::string("/redacted/file4.pyc x3"));
        QCOMPARE(r.redactPaths("xb.py b.py"), "xb.py " + r.pathPlaceholder("b.py"));
    }

    void redactionFindsNamesInText()
    {
        // A name that only appears in a traceback inside fail_reason, and a path no stack names.
        QTemporaryDir dir;
        std::string path = dir.path().toStdString() + "/t.log";
        {
            std::ofstream f(path, std::ios::binary);
            TraceWriter w(f, 5, 1773484862000000);
            auto ctx = WriteContext::forCompile({ std::nullopt, 0, 0, 0 });
            w.dynamoStart(ctx, { { 3, "outer_secret", "/home/bob/secret.py", "" } });
            QJsonObject m;
            m[u"co_name"_qs] = u"outer_secret"_qs;
            m[u"co_filename"_qs] = u"/home/bob/secret.py"_qs;
            m[u"co_firstlineno"_qs] = 3;
            m[u"fail_type"_qs] = u"RuntimeError"_qs;
            m[u"fail_reason"_qs] = u"Traceback:\n  File \"/home/bob/lib/helpers.py\", line 9, in "
                                   u"hidden_helper\n    boom()\nsee /srv/data/bob/cache/x.bin"_qs;
            m[u"fail_user_frame_filename"_qs] = u"/home/bob/secret.py"_qs;
            m[u"fail_user_frame_lineno"_qs] = 4;
            w.write("compilation_metrics",
                QJsonDocument(m).toJson(QJsonDocument::Compact).toStdString(), ctx);
        }
        auto r = load({ path });
        QVERIFY(r.trace && r.trace->failureCount() == 1);
        std::ostringstream out;
        SubsetResult res = writeSubset(*r.trace, { { 0 }, true }, out);
        QVERIFY(res.error.empty());
        QByteArray bytes = QByteArray::fromStdString(out.str());
        for (const char* s : { "bob", "secret", "helpers.py", "hidden_helper", "/srv" })
            QVERIFY2(!bytes.contains(s), s);
        auto back = load({ writeToFile(dir, "r.log", out.str()) });
        QCOMPARE(back.trace->failureCount(), uint64_t(1));
        const Failure& f = *back.trace->compiles[0].failure;
        QCOMPARE(f.type, std::string("RuntimeError"));
        QCOMPARE(f.file, back.trace->compiles[0].coFilename); // one placeholder for one path
        QVERIFY(f.reason.find("line 9, in fn") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
