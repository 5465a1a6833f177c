// TORCH_LOGS text against the trace of the same run. Every scenario of the suite records its
// TORCH_TRACE and, in the same process, its TORCH_LOGS text (run_suite.py: torch_logs.txt; a few
// also with +dynamo in dynamo_debug/, and the example as a terminal paste, terminal_paste.txt).
// (and each variant: dynamo_debug/, recompiles_verbose/, and warm_cache's first run, run1/).
// The model Dynascope builds from the text must agree with the model it builds from the trace on
// every fact the text carries: compile ids (per rank, in order), code object names, attempts,
// graph breaks (reason, file:line, GB code, user frames, resume frame), recompile reasons (text,
// earlier compile, mismatch, source, values, user stack, the failed guard in the earlier
// compile's tree), guard trees node by node, shape events, the recompile limit, Dynamo's stack
// (+dynamo) and statuses. What the text lacks is counted and printed per capture (and written as
// Markdown to $DYNASCOPE_LOGS_REPORT when set): it fails nothing, since it is what TORCH_LOGS
// does not log.
//
// By default the committed recording; with DYNASCOPE_SCENARIOS_DIR a fresh one
// (scripts/run-pytorch-suite.sh runs this binary on it).
#include "scenario_suite.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <map>
#include <set>

using namespace dynascope;
using namespace scenarios;

namespace {

// A file named by a text may be shortened (PyTorch prints paths relative to sys.path or to
// torch's folder): "i13/programs/x.py" for "/work/i13/programs/x.py".
bool sameFile(std::string_view text, std::string_view trace)
{
    if (text == trace)
        return true;
    return !text.empty() && trace.size() > text.size() && trace.ends_with(text)
        && trace[trace.size() - text.size() - 1] == '/';
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

struct Capture {
    QString label; // "example", "example/dynamo_debug", "example/terminal_paste"
    QString traceDir; // the folder with the run's trace
    QString text; // the text file
    bool paste = false;
};

QString textIn(const QDir& dir)
{
    for (const QString& n : { u"torch_logs.txt"_qs, u"torch_logs.txt.zst"_qs })
        if (dir.exists(n))
            return dir.filePath(n);
    return {};
}

std::vector<Capture> captures()
{
    std::vector<Capture> out;
    for (const QString& name : scenarioNames()) {
        const QDir dir(QDir(suiteDir()).filePath(name));
        if (const QString t = textIn(dir); !t.isEmpty())
            out.push_back({ name, dir.path(), t, false });
        // Variants (dynamo_debug: +dynamo; recompiles_verbose) and earlier runs (run1).
        for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir variant(dir.filePath(sub));
            if (const QString t = textIn(variant); !t.isEmpty())
                out.push_back({ name + u"/"_qs + sub, variant.path(), t, false });
        }
        if (dir.exists(u"terminal_paste.txt"_qs))
            out.push_back({ name + u"/terminal_paste"_qs, dir.path(),
                dir.filePath(u"terminal_paste.txt"_qs), true });
    }
    return out;
}

// What a capture carried and lacked, for the report.
struct Tally {
    int traceCompiles = 0, textCompiles = 0;
    int named = 0, breaks = 0, traceBreaks = 0, reasons = 0, traceReasons = 0;
    int guardsLinked = 0, traceGuardsLinked = 0, trees = 0, traceTrees = 0;
    int shapes = 0, traceShapes = 0, failures = 0, traceFailures = 0, stacks = 0;
    int resumeLinks = 0, traceResumeLinks = 0, timed = 0;
    double textUs = 0, traceUs = 0; // durations of the timed compiles
    uint64_t foreignLines = 0;
    // Each compile's name, file, first line, resume links and ending: as the trace has them
    // (right), or absent from the text where the trace has them. A wrong one fails the test.
    int right = 0, absent = 0;
    void fact(bool inText, bool inTrace)
    {
        right += inText;
        absent += !inText && inTrace;
    }
};

std::string frames(const Stack& s)
{
    std::string out;
    for (const auto& f : s)
        out += std::string(f.file) + ":" + std::to_string(f.line) + " " + std::string(f.name)
            + "; ";
    return out;
}

} // namespace

class TestScenarioLogs : public QObject {
    Q_OBJECT

    std::map<QString, Tally> m_tally;

private Q_SLOTS:
    void initTestCase()
    {
        qInfo("scenario recording: %s", qPrintable(suiteDir()));
        if (optionalSuiteAbsent())
            QSKIP(qPrintable(u"no recording at "_qs + suiteDir()
                + u" (../shared is not on this machine): nothing to test"_qs));
        QVERIFY2(QFileInfo::exists(suiteDir() + u"/MANIFEST.json"_qs),
            qPrintable(u"no MANIFEST.json in "_qs + suiteDir()));
    }

    // Every scenario has its text, and the committed example its terminal paste.
    void everyScenarioHasText()
    {
        for (const QString& name : scenarioNames())
            QVERIFY2(!textIn(QDir(QDir(suiteDir()).filePath(name))).isEmpty(), qPrintable(name));
        if (isCommittedRecording()) {
            QVERIFY(QFileInfo::exists(suiteDir() + u"/example/terminal_paste.txt"_qs));
            int variants = 0;
            for (const Capture& c : captures())
                variants += c.label.endsWith(u"/dynamo_debug"_qs);
            QVERIFY2(variants >= 3, qPrintable(QString::number(variants)));
        }
    }

    void agrees_data()
    {
        QTest::addColumn<int>("index");
        const auto all = captures();
        for (size_t i = 0; i < all.size(); ++i)
            QTest::newRow(qPrintable(all[i].label)) << int(i);
    }

    void agrees()
    {
        QFETCH(int, index);
        const Capture cap = captures()[size_t(index)];
        const auto textLoad = load({ cap.text.toStdString() });
        const auto traceLoad = load({ cap.traceDir.toStdString() });
        QVERIFY(textLoad.trace && traceLoad.trace);
        const Trace& x = *textLoad.trace;
        const Trace& t = *traceLoad.trace;
        Tally& tally = m_tally[cap.label];

        // Recognised by content as text, one file per process.
        QVERIFY(!x.files.empty());
        for (const TraceFile& f : x.files)
            QCOMPARE(int(f.format), int(TraceFormat::TorchLogs));
        QCOMPARE(x.files.size(), t.files.size());
        for (const TraceFile& f : x.files)
            tally.foreignLines += f.badLines;
        // Nothing in a capture of a whole run is cut or damaged.
        for (const Diagnostic& d : x.diagnostics)
            QVERIFY2(cap.paste || d.severity == Severity::Info, d.format().c_str());
        if (cap.paste) {
            bool wrapped = false;
            for (const Diagnostic& d : x.diagnostics)
                wrapped = wrapped || d.message.find("wrapped at 120 columns") != std::string::npos;
            QVERIFY2(wrapped, "the paste's wrap width was not found");
            QCOMPARE(x.files[0].badLines, uint64_t(0));
        }

        // Text compiles -> trace compiles: same rank, same id, n-th occurrence of that id.
        auto rankOf
            = [](const Trace& tr, const Compile& c) { return tr.files[c.file].rank.value_or(-1); };
        std::map<std::pair<int64_t, std::string>, std::vector<uint32_t>> byId;
        for (const Compile& c : t.compiles)
            byId[{ rankOf(t, c), c.id.key() }].push_back(c.index);
        std::map<std::pair<int64_t, std::string>, size_t> seen;
        std::vector<uint32_t> match(x.compiles.size(), kNone);
        std::set<uint32_t> matched;
        for (const Compile& c : x.compiles) {
            const auto key = std::make_pair(rankOf(x, c), c.id.key());
            const auto& list = byId[key];
            size_t& n = seen[key];
            // A paste that starts late begins with later occurrences: align from the end.
            size_t pos = n;
            if (cap.paste) {
                size_t inText = 0;
                for (const Compile& o : x.compiles)
                    inText += rankOf(x, o) == key.first && o.id.key() == key.second;
                pos = list.size() >= inText ? list.size() - inText + n : n;
            }
            ++n;
            QVERIFY2(pos < list.size(),
                qPrintable(u"the text has compile "_qs + q(c.id.display())
                    + u" that the trace has not"_qs));
            match[c.index] = list[pos];
            matched.insert(list[pos]);
        }
        tally.traceCompiles = int(t.compiles.size());
        tally.textCompiles = int(x.compiles.size());
        auto mapped = [&](uint32_t textCompile) {
            return textCompile == kNone ? kNone : match[textCompile];
        };
        QCOMPARE(x.compileCount() <= t.compileCount(), true);

        for (const Compile& c : x.compiles) {
            const Compile& tc = t.compiles[match[c.index]];
            const QString where = q(c.id.display()) + u": "_qs;
            QCOMPARE(c.startRecord == kNone, tc.startRecord == kNone);
            // The function's name, file and first line: the trace's, or absent where the text
            // does not say (never a guess, never ":0" for a line it lacks).
            tally.named += !c.coName.empty();
            tally.fact(!c.coName.empty(), !tc.coName.empty());
            if (!c.coName.empty())
                QVERIFY2(c.coName == tc.coName,
                    qPrintable(where + q(c.coName) + u" vs "_qs + q(tc.coName)));
            tally.fact(!c.coFilename.empty(), !tc.coFilename.empty());
            if (!c.coFilename.empty())
                QVERIFY2(sameFile(c.coFilename, tc.coFilename),
                    qPrintable(where + q(c.coFilename) + u" vs "_qs + q(tc.coFilename)));
            tally.fact(c.coFirstLineno != 0, tc.coFirstLineno != 0);
            if (c.coFirstLineno)
                QVERIFY2(c.coFirstLineno == tc.coFirstLineno,
                    qPrintable(
                        where + u"line %1 vs %2"_qs.arg(c.coFirstLineno).arg(tc.coFirstLineno)));
            for (const Attempt& a : c.attempts)
                QVERIFY2(std::any_of(tc.attempts.begin(), tc.attempts.end(),
                             [&](const Attempt& b) { return b.attempt == a.attempt; }),
                    qPrintable(where + u"attempt "_qs + QString::number(a.attempt)));

            // Graph breaks: TORCH_LOGS=graph_breaks logs each one the trace has.
            tally.traceBreaks += int(tc.graphBreaks.size());
            tally.breaks += int(c.graphBreaks.size());
            QCOMPARE(c.graphBreaks.size(), tc.graphBreaks.size());
            for (size_t i = 0; i < c.graphBreaks.size(); ++i) {
                const GraphBreak& g = c.graphBreaks[i];
                const GraphBreak& tg = tc.graphBreaks[i];
                if (!g.reason.empty())
                    QCOMPARE(q(g.reason), q(tg.reason));
                QVERIFY2(sameFile(g.file, tg.file), qPrintable(where + q(g.file)));
                QCOMPARE(g.line, tg.line);
                if (!g.details.empty() && !tg.details.empty()) {
                    QCOMPARE(q(g.details[0].gbCode), q(tg.details[0].gbCode));
                    QCOMPARE(g.details[0].hints.size(), tg.details[0].hints.size());
                }
                // A break logged again (a function called twice) has its user stack
                // suppressed in the text: "Graph break (user stack suppressed due to duplicate
                // graph break) in user code at FILE:LINE". The trace always has it.
                const bool suppressed = g.record != kNone
                    && x.header(g.record).find("user stack suppressed") != std::string::npos;
                tally.fact(!g.userFrames.empty(), !tg.userFrames.empty());
                if (suppressed)
                    QVERIFY(g.userFrames.empty());
                else
                    QCOMPARE(g.userFrames.size(), tg.userFrames.size());
                for (size_t k = 0; k < g.userFrames.size(); ++k) {
                    QVERIFY(sameFile(g.userFrames[k].file, tg.userFrames[k].file));
                    QCOMPARE(g.userFrames[k].line, tg.userFrames[k].line);
                    QCOMPARE(q(g.userFrames[k].name), q(tg.userFrames[k].name));
                }
                tally.traceResumeLinks += tg.resumeCompile != kNone;
                tally.fact(g.resumeCompile != kNone, tg.resumeCompile != kNone);
                if (g.resumeCompile != kNone) {
                    ++tally.resumeLinks;
                    QVERIFY2(mapped(g.resumeCompile) == tg.resumeCompile,
                        qPrintable(where + u"resumes in "_qs
                            + q(x.compiles[g.resumeCompile].id.display()) + u", the trace's in "_qs
                            + (tg.resumeCompile == kNone
                                    ? u"none"_qs
                                    : q(t.compiles[tg.resumeCompile].id.display()))));
                }
                QCOMPARE(g.skipsFrame, tg.skipsFrame);
            }

            // Recompile reasons: every one, linked to the same earlier compile and guard.
            tally.traceReasons += int(tc.recompileReasons.size());
            tally.reasons += int(c.recompileReasons.size());
            if (!cap.paste || !c.recompileReasons.empty())
                QCOMPARE(c.recompileReasons.size(), tc.recompileReasons.size());
            for (size_t i = 0; i < c.recompileReasons.size(); ++i) {
                const RecompileReason& r = c.recompileReasons[i];
                const RecompileReason& tr = tc.recompileReasons[i];
                QCOMPARE(q(r.text), q(tr.text));
                QCOMPARE(mapped(r.earlierCompile), tr.earlierCompile);
                QCOMPARE(q(r.mismatch), q(tr.mismatch));
                QCOMPARE(q(r.source), q(tr.source));
                QCOMPARE(q(r.expected), q(tr.expected));
                QCOMPARE(q(r.actual), q(tr.actual));
                QCOMPARE(frames(r.userStack), frames(tr.userStack));
                tally.traceGuardsLinked += tr.guardNode >= 0;
                const bool haveTree
                    = r.earlierCompile != kNone && x.compiles[r.earlierCompile].guards;
                if (haveTree) {
                    // The text has the earlier compile's guard dump: the same guard is found.
                    QCOMPARE(r.guardNode >= 0, tr.guardNode >= 0);
                    if (r.guardNode >= 0) {
                        ++tally.guardsLinked;
                        const GuardNode& a
                            = x.compiles[r.earlierCompile].guards->nodes[size_t(r.guardNode)];
                        const GuardNode& b
                            = t.compiles[tr.earlierCompile].guards->nodes[size_t(tr.guardNode)];
                        QCOMPARE(q(a.kind), q(b.kind));
                        QCOMPARE(q(a.expr), q(b.expr));
                    }
                }
            }

            // Guard trees, node by node.
            tally.traceTrees += bool(tc.guards);
            if (c.guards) {
                ++tally.trees;
                QVERIFY2(tc.guards, qPrintable(where + u"a guard dump the trace has not"_qs));
                const GuardTree& a = *c.guards;
                const GuardTree& b = *tc.guards;
                QCOMPARE(a.nodes.size(), b.nodes.size());
                for (size_t k = 0; k < a.nodes.size(); ++k) {
                    QCOMPARE(q(a.nodes[k].kind), q(b.nodes[k].kind));
                    QCOMPARE(q(a.nodes[k].expr), q(b.nodes[k].expr));
                    QCOMPARE(q(a.nodes[k].source), q(b.nodes[k].source));
                    QCOMPARE(q(a.nodes[k].userCode), q(b.nodes[k].userCode));
                    QCOMPARE(a.nodes[k].depth, b.nodes[k].depth);
                }
            } else if (!cap.paste && tc.guards && tc.startRecord != kNone) {
                QFAIL(qPrintable(where + u"the text (TORCH_LOGS=guards) has no guard dump"_qs));
            }

            // Shape events: each one of the text is one of the trace's.
            tally.traceShapes += int(tc.shapeEvents.size());
            for (const ShapeEvent& e : c.shapeEvents) {
                ++tally.shapes;
                auto it = std::find_if(tc.shapeEvents.begin(), tc.shapeEvents.end(),
                    [&](const ShapeEvent& o) { return o.kind == e.kind && o.expr == e.expr; });
                if (e.kind == "guard_added" && it == tc.shapeEvents.end()) {
                    --tally.shapes; // TORCH_TRACE logs guard_added only in its fast form
                    continue;
                }
                QVERIFY2(it != tc.shapeEvents.end(), qPrintable(where + q(e.kind + " " + e.expr)));
                if (!e.value.empty())
                    QCOMPARE(q(e.value), q(it->value));
                if (!e.sources.empty())
                    QVERIFY2(it->sources.find(e.sources) != std::string::npos,
                        qPrintable(q(e.sources) + u" vs "_qs + q(it->sources)));
                if (!e.userStack.empty()) {
                    QVERIFY(!it->userStack.empty());
                    const StackFrame& a = e.userStack.back();
                    const StackFrame& b = it->userStack.back();
                    QVERIFY2(
                        sameFile(a.file, b.file), qPrintable(q(a.file) + u" vs "_qs + q(b.file)));
                    QCOMPARE(a.line, b.line);
                    QCOMPARE(q(a.name), q(b.name));
                    QCOMPARE(q(a.loc), q(b.loc));
                }
            }

            // Failures the text logged (the recompile limit; others PyTorch does not log).
            // Endings: the failure the text logged is the trace's (the recompile limit, a
            // frame Dynamo skipped after a break it could not handle); others it does not log.
            tally.traceFailures += tc.failure.has_value();
            tally.fact(c.failure.has_value(), tc.failure.has_value());
            if (c.failure) {
                ++tally.failures;
                QVERIFY2(tc.failure, qPrintable(where + u"a failure the trace has not"_qs));
                QCOMPARE(c.failure->recompileLimit, tc.failure->recompileLimit);
                QCOMPARE(c.failure->frameSkipped, tc.failure->frameSkipped);
                QCOMPARE(q(c.failure->layer), q(tc.failure->layer));
                if (!c.failure->recompileLimit) {
                    QCOMPARE(q(c.failure->type), q(tc.failure->type));
                    QCOMPARE(q(c.failure->reason), q(tc.failure->reason));
                }
            }

            // Dynamo's stack (+dynamo): the same frames, except that the trace's dynamo_start
            // leaves out the compiled function's caller line the text shows.
            if (!c.stack.empty()) {
                ++tally.stacks;
                auto within = [](const Stack& small, const Stack& big) {
                    size_t k = 0;
                    for (const StackFrame& f : big)
                        if (k < small.size() && f.name == small[k].name && f.line == small[k].line)
                            ++k;
                    return k == small.size();
                };
                QVERIFY2(within(tc.stack, c.stack) && c.stack.size() <= tc.stack.size() + 1,
                    qPrintable(q(frames(c.stack)) + u" vs "_qs + q(frames(tc.stack))));
            }

            // Statuses: only what the text can tell.
            switch (c.status) {
            case CompileStatus::Error:
                QCOMPARE(int(tc.status), int(CompileStatus::Error));
                break;
            case CompileStatus::GraphBreak:
                // Empty in the trace when the break came before any operation (its metrics say
                // graph_op_count 0, which the text does not).
                QVERIFY2(tc.status == CompileStatus::GraphBreak || tc.status == CompileStatus::Error
                        || tc.status == CompileStatus::Empty,
                    qPrintable(where + QLatin1String(toString(tc.status))));
                break;
            case CompileStatus::Ok:
                QVERIFY2(tc.status == CompileStatus::Ok || tc.status == CompileStatus::Empty,
                    qPrintable(where + QLatin1String(toString(tc.status))));
                break;
            default:
                break;
            }
            if (c.timeSource == TimeSource::Glog && tc.timeSource != TimeSource::None
                && x.files[c.file].year == t.files[tc.file].year) {
                // The same clock: the prefixes' local time, the trace's zone taken off. A
                // compile's statements lie inside its compile (the recompile reasons come
                // just before it, at most a few milliseconds).
                ++tally.timed;
                const double zone = t.files[tc.file].tzOffsetMinutes * 60e6;
                const double start = c.startUs - zone, end = c.endUs - zone;
                QVERIFY2(start >= tc.startUs - 20000 && end <= tc.endUs + 2000,
                    qPrintable(where
                        + u"text %1..%2 us, trace %3..%4 us"_qs.arg(start, 0, 'f', 0)
                              .arg(end, 0, 'f', 0)
                              .arg(tc.startUs, 0, 'f', 0)
                              .arg(tc.endUs, 0, 'f', 0)));
                tally.textUs += c.durationUs();
                tally.traceUs += tc.durationUs();
            }
            // What the text never carries stays absent.
            QVERIFY(!c.guardCount && !c.graphOpCount && c.phases.empty() && c.cacheEvents.empty());
            QCOMPARE(c.metricsRecord, kNone);
        }
        // A whole capture has every compile that did anything: only compiles with no log
        // statement at all (a failure before any) may be missing.
        if (!cap.paste)
            for (const Compile& tc : t.compiles)
                if (!matched.count(tc.index))
                    QVERIFY2(!tc.guards && tc.graphBreaks.empty() && tc.recompileReasons.empty(),
                        qPrintable(u"the text lacks "_qs + q(tc.id.display())));
    }

    void cleanupTestCase()
    {
        QStringList lines;
        lines
            << u"| Capture | Compiles | Names | Graph breaks | Resume links | Recompile reasons | Failed guards linked | Guard trees | Shape events | Failures | Dynamo stacks | Timed | Time covered | Program lines | Places, links, endings right | absent |"_qs
            << u"| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"_qs;
        auto of = [](int a, int b) { return QString::number(a) + u"/"_qs + QString::number(b); };
        for (const auto& [label, t] : m_tally)
            lines
                << u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 | %11 | %12 | %13 | %14 | %15 | %16 |"_qs
                       .arg(label, of(t.textCompiles, t.traceCompiles), of(t.named, t.textCompiles),
                           of(t.breaks, t.traceBreaks), of(t.resumeLinks, t.traceResumeLinks),
                           of(t.reasons, t.traceReasons), of(t.guardsLinked, t.traceGuardsLinked),
                           of(t.trees, t.traceTrees), of(t.shapes, t.traceShapes),
                           of(t.failures, t.traceFailures), of(t.stacks, t.textCompiles),
                           of(t.timed, t.textCompiles),
                           t.traceUs > 0
                               ? QString::number(100 * t.textUs / t.traceUs, 'f', 0) + u"%"_qs
                               : u"-"_qs,
                           QString::number(t.foreignLines), QString::number(t.right),
                           QString::number(t.absent));
        for (const QString& l : lines)
            qInfo("%s", qPrintable(l));
        const QByteArray out = qgetenv("DYNASCOPE_LOGS_REPORT");
        if (!out.isEmpty()) {
            QFile f(QString::fromLocal8Bit(out));
            if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                f.write((lines.join(u"\n"_qs) + u"\n"_qs).toUtf8());
        }
    }
};

QTEST_GUILESS_MAIN(TestScenarioLogs)
#include "tst_scenario_logs.moc"
