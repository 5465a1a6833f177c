// The tabbed inspector and the stack trie, offscreen, on the example trace: the Why tab's
// sentences and links (a click selects the compile it names), the failed guard highlighted in the
// Guards tab, the Source tab's fallback to the trace's own source lines and its path remapping,
// the Artifacts and Raw tabs, and hostile trace text shown literally. Every new model runs under
// QAbstractItemModelTester.
#include "core/report/why_render.h"
#include "ui/compileselection.h"
#include "ui/inspector/artifactstab.h"
#include "ui/inspector/codeviewer.h"
#include "ui/inspector/guardstab.h"
#include "ui/inspector/rawview.h"
#include "ui/inspector/sourcetab.h"
#include "ui/inspector/summarytab.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/models/artifactlistmodel.h"
#include "ui/models/guardtreemodel.h"
#include "ui/models/itemroles.h"
#include "ui/models/metricsmodel.h"
#include "ui/models/shapeeventmodel.h"
#include "ui/models/stacktriemodel.h"
#include "ui/stacktrie/stacktriedock.h"

#include "uitesthelpers.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;

namespace {
uint32_t compileIndex(const Trace& t, const char* id)
{
    for (const Compile& c : t.compiles) {
        if (c.id.display() == id)
            return c.index;
    }
    return kNone;
}

// Clicks the first link with `href` in a text browser like a user would.
bool clickLink(QTextBrowser* b, const QString& href)
{
    for (QTextBlock block = b->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.isValid() || f.charFormat().anchorHref() != href)
                continue;
            QTextCursor c(b->document());
            c.setPosition(f.position() + std::min(1, f.length() - 1));
            QRect r = b->cursorRect(c);
            if (!b->viewport()->rect().contains(r.center())) {
                b->verticalScrollBar()->setValue(b->verticalScrollBar()->value() + r.top() - 20);
                r = b->cursorRect(c);
            }
            QTest::mouseClick(b->viewport(), Qt::LeftButton, {}, r.center() + QPoint(1, 0));
            return true;
        }
    }
    return false;
}

QString hostileTrace(const QString& dir)
{
    const QByteArray payload = "Graph break in user code at /tmp/hostile/<b>x</b>.py:5\n"
                               "Graph Break Reason: <b>x</b> <i>reason</i>\n"
                               "User code traceback:\n"
                               "  File \"/tmp/hostile/<b>x</b>.py\", line 5, in <b>x</b>\n"
                               "    <b>x</b> = 1";
    const QByteArray md5 = QCryptographicHash::hash(payload, QCryptographicHash::Md5).toHex();
    QByteArray text;
    const QByteArray p = "V0314 10:41:02.000000 4242 torch/x.py:1] ";
    text += p + R"({"str": ["/tmp/hostile/<b>x</b>.py", 0]})" + "\n";
    text += p
        + R"({"dynamo_start": {"stack": [{"line": 5, "name": "<b>x</b>", "filename": 0, "loc": "<b>x</b> = 1"}]}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})"
        + "\n";
    text += p
        + R"({"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": ")"
        + md5 + "\"}\n";
    for (const QByteArray& l : payload.split('\n'))
        text += "\t" + l + "\n";
    text += p
        + R"({"compilation_metrics": {"co_name": "<b>x</b>", "co_filename": "/tmp/hostile/<b>x</b>.py", "co_firstlineno": 5, "graph_op_count": 1, "fail_type": "<b>x</b>", "fail_reason": "<a href='file:///etc/passwd'>y</a>"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})"
        + "\n";
    const QString path = dir + QStringLiteral("/hostile.log");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return path;
}

// What the Why tab shows for each of `compiles`, as a user reads it: the text, the links (text and
// target), and, where other rejections are folded, the text once they are shown.
QString whyDocument(
    const std::shared_ptr<const Trace>& trace, const std::vector<uint32_t>& compiles)
{
    CompileSelection sel;
    WhyView v(&sel);
    v.resize(1200, 800);
    v.setTrace(trace);
    QString out;
    for (uint32_t ci : compiles) {
        v.showCompile(ci);
        out += QStringLiteral("=== %1 %2\n")
                   .arg(ci)
                   .arg(QString::fromStdString(trace->compiles[ci].id.display()));
        out += v.toPlainText() + QStringLiteral("\n--- links\n");
        for (const auto& l : v.links())
            out += l.text + QStringLiteral(" | ") + l.href + QLatin1Char('\n');
        const auto links = v.links();
        const bool folded = std::any_of(links.begin(), links.end(),
            [](const WhyView::Link& l) { return l.href == QLatin1String("toggle:rejections"); });
        if (folded && v.activate(QStringLiteral("toggle:rejections")) && v.showsAllRejections())
            out += QStringLiteral("--- all rejections\n") + v.toPlainText() + QLatin1Char('\n');
    }
    return out;
}

// Compares `actual` with tests/golden/NAME; DYNASCOPE_UPDATE_GOLDEN=1 rewrites the file.
bool matchesGolden(const QString& name, const QString& actual, QString* why)
{
    const QString path = QStringLiteral(DYNASCOPE_SOURCE_DIR "/tests/golden/") + name;
    QFile f(path);
    if (qgetenv("DYNASCOPE_UPDATE_GOLDEN") == "1") {
        if (!f.open(QIODevice::WriteOnly))
            return false;
        f.write(actual.toUtf8());
        return true;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("no golden file %1; run with DYNASCOPE_UPDATE_GOLDEN=1").arg(path);
        return false;
    }
    const QStringList want = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    const QStringList got = actual.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < std::max(want.size(), got.size()); ++i) {
        if (want.value(i) != got.value(i)) {
            *why = QStringLiteral("%1 differs at line %2:\n  want: %3\n  got:  %4")
                       .arg(path)
                       .arg(i + 1)
                       .arg(want.value(i), got.value(i));
            return false;
        }
    }
    return true;
}
} // namespace

class TestInspector : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> m_example;

    void checkModels(const std::shared_ptr<const Trace>& t)
    {
        for (const Compile& c : t->compiles) {
            GuardTreeModel guards;
            QAbstractItemModelTester g(
                &guards, QAbstractItemModelTester::FailureReportingMode::QtTest);
            guards.setCompile(t, c.index);
            guards.setHighlightedNode(0);
            QSortFilterProxyModel proxy;
            proxy.setRecursiveFilteringEnabled(true);
            proxy.setFilterKeyColumn(-1);
            proxy.setSourceModel(&guards);
            QAbstractItemModelTester gp(
                &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
            proxy.setFilterFixedString(QStringLiteral("TENSOR"));
            proxy.setFilterFixedString(QString());

            ShapeEventModel shapes;
            QAbstractItemModelTester s(
                &shapes, QAbstractItemModelTester::FailureReportingMode::QtTest);
            shapes.setCompile(t, c.index);

            ArtifactListModel artifacts;
            QAbstractItemModelTester a(
                &artifacts, QAbstractItemModelTester::FailureReportingMode::QtTest);
            artifacts.setCompile(t, c.index);

            MetricsModel metrics;
            QAbstractItemModelTester m(
                &metrics, QAbstractItemModelTester::FailureReportingMode::QtTest);
            const std::string mj = c.metricsJson.text();
            metrics.setMetricsJson(QByteArray(mj.data(), static_cast<qsizetype>(mj.size())));
        }
        StackTrieModel trie;
        QAbstractItemModelTester tt(&trie, QAbstractItemModelTester::FailureReportingMode::QtTest);
        trie.setTrace(t);
        for (const Compile& c : t->compiles) {
            if (!c.stack.empty())
                QCOMPARE(trie.compileAt(trie.indexForCompile(c.index)), c.index);
        }
        trie.setTrace(nullptr);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_inspector"));
        saveSourceRemaps({});
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        m_example = uitest::loadTrace(uitest::exampleTrace());
        QVERIFY(m_example);
    }

    void modelsUnderTester()
    {
        checkModels(m_example);
        // Empty and null states.
        GuardTreeModel g;
        QAbstractItemModelTester gt(&g, QAbstractItemModelTester::FailureReportingMode::QtTest);
        g.setCompile(nullptr, kNone);
        MetricsModel m;
        QAbstractItemModelTester mt(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setMetricsJson({});
        m.setMetricsJson("not json");
        QCOMPARE(m.rowCount(), 1);
    }

    void modelsOnRealTrace()
    {
        const QString path = uitest::realRank1Trace();
        SKIP_UNLESS_EXISTS(path);
        checkModels(uitest::loadTrace(path));
    }

    // rank 1's [0/14] was rejected by 14 cache entries: the Why tab leads with the values that
    // changed and the hint, shows the newest entry's failed guard, and folds the other 13.
    void whyLeadsWithValueChainAndFoldsRejections()
    {
        const QString path = uitest::realRank1Trace();
        SKIP_UNLESS_EXISTS(path);
        const auto trace = uitest::loadTrace(path);
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(trace);
        sel.setCurrent(compileIndex(*trace, "[0/14]"));
        QString text = v.whyView()->toPlainText();
        const qsizetype chain = text.indexOf(QStringLiteral(
            "x.size(0) across the frame's compiles: 2 → 3 → 4 → … → 15 → 16  (15 values)"));
        const qsizetype hint = text.indexOf(QStringLiteral("Hint: Sizes change between calls: "
                                                           "torch._dynamo.mark_dynamic(x, 0)"));
        const qsizetype newest = text.indexOf(QStringLiteral("[0/13] rejected it: tensor 'x'"));
        QVERIFY2(chain > 0 && hint > chain && newest > hint, qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("[0/12] rejected it")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("▸ Show the 13 other rejections")));
        QVERIFY(clickLink(v.whyView(), QStringLiteral("toggle:rejections")));
        text = v.whyView()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("[0/12] rejected it")));
        QVERIFY(text.contains(QStringLiteral("[0/0] rejected it")));
        QVERIFY(text.contains(QStringLiteral("▾ Hide the 13 other rejections")));
        // Another compile starts folded again.
        sel.setCurrent(compileIndex(*trace, "[0/13]"));
        QVERIFY(!v.whyView()->toPlainText().contains(QStringLiteral("[0/11] rejected it")));
    }

    // The Why tab as the user reads it, pinned: every compile of the bundled example, and the
    // 14th recompile of rank 1 of multi_rank_logs (tests/golden/*.why.txt; a re-recorded example
    // is regenerated with DYNASCOPE_UPDATE_GOLDEN=1 ctest -R tst_inspector).
    void whyTabGolden()
    {
        const QString path = QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE);
        SKIP_UNLESS_EXISTS(path);
        const auto example = uitest::loadTrace(path);
        std::vector<uint32_t> all(example->compiles.size());
        for (uint32_t i = 0; i < all.size(); ++i)
            all[i] = i;
        QString why;
        QVERIFY2(matchesGolden(
                     QStringLiteral("bundled_example.why.txt"), whyDocument(example, all), &why),
            qPrintable(why));
        const QString rank1 = uitest::realRank1Trace();
        SKIP_UNLESS_EXISTS(rank1);
        const auto trace = uitest::loadTrace(rank1);
        QVERIFY2(matchesGolden(QStringLiteral("multi_rank_logs_rank_1.why.txt"),
                     whyDocument(trace, { compileIndex(*trace, "[0/14]") }), &why),
            qPrintable(why));
    }

    // `dynascope-cli why` and Python's Compile.why() print the Why tab's words: the core's one
    // document (core/analysis/why_document.h) rendered as text says, line for line, what the app's
    // view shows (less the app-only "raw record" link and the fold toggle), for every compile of
    // the example and of every committed recording, TORCH_TRACE and TORCH_LOGS text both.
    void whyTextSaysWhatTheWhyTabSays()
    {
        QStringList inputs { QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) };
        const QDir recorded(uitest::scenarioTrace(QString()));
        for (const QString& name : recorded.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            inputs << recorded.filePath(name);
            if (QFile::exists(recorded.filePath(name + QStringLiteral("/torch_logs.txt.zst"))))
                inputs << recorded.filePath(name + QStringLiteral("/torch_logs.txt.zst"));
        }
        QVERIFY(inputs.size() > 40);
        size_t compared = 0;
        auto lines = [](const QString& text) {
            QStringList out;
            for (QString l : text.split(QLatin1Char('\n'))) {
                l.replace(QStringLiteral("  raw record"), QString());
                l = l.trimmed();
                // The fold toggle reads as words outside the app ("1 other rejection not shown").
                if (!l.isEmpty()
                    && !l.endsWith(
                        QStringLiteral("(the older cache entries the call was checked against)")))
                    out << l;
            }
            return out;
        };
        for (const QString& input : inputs) {
            const auto trace = uitest::loadTrace(input);
            QVERIFY2(trace, qPrintable(input));
            CompileSelection sel;
            WhyView v(&sel);
            v.setTrace(trace);
            for (uint32_t ci = 0; ci < trace->compiles.size(); ++ci) {
                v.showCompile(ci);
                const QStringList app = lines(v.toPlainText());
                const QStringList text = lines(QString::fromStdString(
                    whyText(dynascope::whyDocument(*trace, ci, WhyOptions {}))));
                if (app != text) {
                    qsizetype i = 0;
                    while (i < app.size() && i < text.size() && app[i] == text[i])
                        ++i;
                    QFAIL(qPrintable(input
                        + QStringLiteral(" #%1 differs at line %2:\n  app:  %3\n  text: %4")
                              .arg(ci)
                              .arg(i + 1)
                              .arg(app.value(i), text.value(i))));
                }
                ++compared;
            }
        }
        // 120 compiles today: the example's, the recordings' traces' and their text's.
        QVERIFY2(compared >= 100, qPrintable(QString::number(compared)));
    }

    // A value guard (`factor == 2`) names the earlier compile's value only: the Why tab reads the
    // call's from the recompile's own guards or symbols, and never shows an empty value (it
    // showed "2 → " and "expected 2, actual " before).
    void whyValueGuards()
    {
        struct Case {
            const char* scenario;
            const char* id;
            QString chain, values;
        };
        const Case cases[] = {
            { "guard_constant", "[0/1]",
                QStringLiteral("factor.value across the frame's compiles: 2 → 3"),
                QStringLiteral("expected 2, actual 3  (value mismatch)") },
            { "guard_global", "[0/1]",
                QStringLiteral("G['THRESHOLD'].value across the frame's compiles: 0.5 → 0.25"),
                QStringLiteral("expected 0.5, actual 0.25  (value mismatch)") },
            { "guard_training_flag", "[0/1]",
                QStringLiteral("training.value across the frame's compiles: True → False"),
                QStringLiteral("expected True, actual False  (value mismatch)") },
            { "recompile_limit", "[0/3]",
                QStringLiteral("k.value across the frame's compiles: 0 → 1 → 2 → 3"),
                QStringLiteral("expected 2, actual 3  (value mismatch)") },
        };
        for (const Case& c : cases) {
            const QString dir = uitest::scenarioTrace(QString::fromLatin1(c.scenario));
            SKIP_UNLESS_EXISTS(dir);
            const auto trace = uitest::loadTrace(dir);
            QVERIFY(trace);
            CompileSelection sel;
            WhyView v(&sel);
            v.setTrace(trace);
            v.showCompile(compileIndex(*trace, c.id));
            const QString text = v.toPlainText();
            QVERIFY2(text.contains(c.chain), qPrintable(text));
            QVERIFY2(text.contains(c.values), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("→ \n"))
                    && !text.contains(QStringLiteral("→  →"))
                    && !text.contains(QStringLiteral("actual  ")),
                qPrintable(text));
        }
        // requires_grad: the reason says "expected requires_grad=0" only; no chain of one value.
        const QString dir = uitest::scenarioTrace(QStringLiteral("guard_requires_grad"));
        const auto trace = uitest::loadTrace(dir);
        CompileSelection sel;
        WhyView v(&sel);
        v.setTrace(trace);
        v.showCompile(compileIndex(*trace, "[0/1]"));
        QVERIFY2(!v.toPlainText().contains(QStringLiteral("across the frame's compiles")),
            qPrintable(v.toPlainText()));
        QVERIFY(
            v.toPlainText().contains(QStringLiteral("Hint: The input's requires_grad differs")));
    }

    // The bundled example is a real 2.13 trace: the Why tab shows PyTorch's structured break
    // text (type, GB code, explanation, hints, link as text), the failure's layer, and a guard's
    // user line in the Guards tab.
    void whyShowsRealGraphBreakText()
    {
        const QString path = QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE);
        SKIP_UNLESS_EXISTS(path);
        auto trace = uitest::loadTrace(path);
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.setTrace(trace);
        sel.setCurrent(compileIndex(*trace, "[1/0]"));
        QString text = v.whyView()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral(": Data-dependent branching  (gb0170)")),
            qPrintable(text));
        QVERIFY(text.contains(
            QStringLiteral("Hint: Use `torch.cond` to express dynamic control flow.")));
        QVERIFY(text.contains(QStringLiteral(
            "More: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0170.html")));
        for (const auto& l : v.whyView()->links())
            QVERIFY2(!l.href.startsWith(QStringLiteral("http")), qPrintable(l.href));
        sel.setCurrent(compileIndex(*trace, "[4/0]"));
        text = v.whyView()->toPlainText();
        QVERIFY2(
            text.contains(QStringLiteral("BackendCompilerFailed  in backend")), qPrintable(text));
    }

    void whyRecompileLinksEarlierCompile()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(m_example);
        const uint32_t c32 = compileIndex(*m_example, "[3/2]");
        const uint32_t c31 = compileIndex(*m_example, "[3/1]");
        QVERIFY(c32 != kNone && c31 != kNone);
        sel.setCurrent(c32);
        QCOMPARE(v.tabs()->currentIndex(), int(InspectorView::WhyIndex));
        const QString text = v.whyView()->toPlainText();
        QVERIFY2(
            text.contains(QStringLiteral("[3/1] rejected it: tensor 'x' size mismatch at index 0")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("expected 64, actual 128")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("failed guard: TENSOR_MATCH on L['x']")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("size=[64, 128]")), qPrintable(text));

        const QString href = QStringLiteral("compile:%1").arg(c31);
        bool linked = false;
        for (const auto& l : v.whyView()->links())
            linked = linked || (l.href == href && l.text == QStringLiteral("[3/1]"));
        QVERIFY(linked);
        QVERIFY(clickLink(v.whyView(), href));
        QCOMPARE(sel.current(), c31);
        QVERIFY(v.whyView()->toPlainText().startsWith(QStringLiteral("[3/1]")));
    }

    void whyGraphBreakLinksResume()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(m_example);
        const uint32_t c10 = compileIndex(*m_example, "[1/0]");
        const uint32_t c20 = compileIndex(*m_example, "[2/0]");
        sel.setCurrent(c10);
        const QString text = v.whyView()->toPlainText();
        QVERIFY2(text.contains(
                     QStringLiteral("broke the graph at train.py:19: Data-dependent branching")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("The code after the break resumes in [2/0]")),
            qPrintable(text));
        QVERIFY(clickLink(v.whyView(), QStringLiteral("compile:%1").arg(c20)));
        QCOMPARE(sel.current(), c20);
        const QString resume = v.whyView()->toPlainText();
        QVERIFY2(resume.contains(
                     QStringLiteral("[2/0] resumes after the graph break in [1/0] at train.py:19")),
            qPrintable(resume));
        // And back: the origin is a link too.
        QVERIFY(clickLink(v.whyView(), QStringLiteral("compile:%1").arg(c10)));
        QCOMPARE(sel.current(), c10);
    }

    void whyPlainAndFailure()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.setTrace(m_example);
        sel.setCurrent(compileIndex(*m_example, "[0/0]"));
        QVERIFY2(
            v.whyView()->toPlainText().contains(QStringLiteral("Compiled once, no recompiles.")),
            qPrintable(v.whyView()->toPlainText()));
        sel.setCurrent(compileIndex(*m_example, "[4/0]"));
        const QString text = v.whyView()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Compile failed")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("BackendCompilerFailed")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Traceback:")), qPrintable(text));
        bool sourceLink = false;
        for (const auto& l : v.whyView()->links())
            sourceLink = sourceLink || l.href.startsWith(QLatin1String("source:"));
        QVERIFY(sourceLink);
    }

    void guardsTabHighlightsFailedGuard()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(m_example);
        const uint32_t c32 = compileIndex(*m_example, "[3/2]");
        sel.setCurrent(c32);
        const RecompileReason& r = m_example->compiles[c32].recompileReasons.front();
        QVERIFY(r.guardNode >= 0);
        GuardsTab* g = v.guardsTab();
        QCOMPARE(g->model()->compile(), r.earlierCompile);
        QCOMPARE(g->model()->highlightedNode(), r.guardNode);
        const QModelIndex cur = g->view()->currentIndex();
        QVERIFY(cur.isValid());
        QCOMPARE(cur.data(GuardNodeRole).toInt(), r.guardNode);
        QVERIFY(cur.data(HighlightRole).toBool());
        QVERIFY(cur.data().toString().startsWith(QStringLiteral("✕ TENSOR_MATCH")));
        QVERIFY(cur.siblingAtColumn(GuardTreeModel::ExpressionColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("size=[64, 128]")));
        QVERIFY(g->caption()->text().contains(QStringLiteral("which is why [3/2] recompiled")));

        // The guard link in Why opens the Guards tab on it.
        v.showTab(InspectorView::GuardsIndex);
        g->treeChooser()->setCurrentIndex(g->treeChooser()->count() - 1);
        Q_EMIT g->treeChooser()->activated(g->treeChooser()->count() - 1); // its own guards
        QCOMPARE(g->model()->compile(), c32);
        v.showTab(InspectorView::WhyIndex);
        QVERIFY(clickLink(
            v.whyView(), QStringLiteral("guard:%1:%2").arg(r.earlierCompile).arg(r.guardNode)));
        QCOMPARE(v.tabs()->currentIndex(), int(InspectorView::GuardsIndex));
        QCOMPARE(g->model()->compile(), r.earlierCompile);
        QCOMPARE(g->view()->currentIndex().data(GuardNodeRole).toInt(), r.guardNode);

        // Search keeps the matching guards and their managers.
        g->filterEdit()->setText(QStringLiteral("TENSOR_MATCH"));
        QVERIFY(g->proxy()->rowCount() > 0);
        g->filterEdit()->setText(QStringLiteral("no such guard at all"));
        QCOMPARE(g->proxy()->rowCount(), 0);
        g->filterEdit()->clear();

        // [3/4]: dynamic, with shape guards and their user lines.
        sel.setCurrent(compileIndex(*m_example, "[3/4]"));
        QVERIFY(g->shapeModel()->rowCount() >= 2);
        bool sawGuard = false;
        for (int i = 0; i < g->shapeModel()->rowCount(); ++i) {
            const QString expr
                = g->shapeModel()->index(i, ShapeEventModel::ExpressionColumn).data().toString();
            if (expr == QStringLiteral("16 < s0")) {
                sawGuard = true;
                QCOMPARE(
                    g->shapeModel()->index(i, ShapeEventModel::UserCodeColumn).data().toString(),
                    QStringLiteral("train.py:26"));
            }
        }
        QVERIFY(sawGuard);
    }

    void sourceFallbackAndRemap()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(m_example);
        sel.setCurrent(compileIndex(*m_example, "[1/0]"));
        const QString trainPy = QStringLiteral("/home/alice/proj/train.py");
        QVERIFY(!QFileInfo::exists(trainPy));

        // Clicking the break's file:line opens the Source tab there.
        QString href;
        for (const auto& l : v.whyView()->links()) {
            if (href.isEmpty() && l.text == QStringLiteral("train.py:19"))
                href = l.href;
        }
        QVERIFY(!href.isEmpty());
        QVERIFY(clickLink(v.whyView(), href));
        QCOMPARE(v.tabs()->currentIndex(), int(InspectorView::SourceIndex));
        SourceTab* s = v.sourceTab();
        QCOMPARE(s->requestedPath(), trainPy);
        QCOMPARE(s->origin(), SourceTab::Origin::TraceText);
        QVERIFY2(s->statusText().contains(QStringLiteral(
                     "file not found on this machine; showing the source lines the trace carries")),
            qPrintable(s->statusText()));
        const QString shown = s->viewer()->text();
        QVERIFY2(shown.contains(QStringLiteral("if y.sum() > 0:")), qPrintable(shown));
        const int hot = s->viewer()->highlightedBlock();
        QVERIFY(hot >= 0);
        QCOMPARE(s->viewer()->editor()->document()->findBlockByNumber(hot).text(),
            QStringLiteral("if y.sum() > 0:"));

        // A remap to a folder that has train.py shows the real file, line 19 highlighted.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.path() + QStringLiteral("/train.py"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 40; ++i)
            f.write(i == 19 ? QByteArray("    if y.sum() > 0:  # the real line 19\n")
                            : QByteArray(QByteArray("# line ") + QByteArray::number(i) + "\n"));
        f.close();
        s->setRemaps({ { QStringLiteral("/home/alice/proj/"), dir.path() } }, false);
        QCOMPARE(s->origin(), SourceTab::Origin::LocalFile);
        QCOMPARE(s->resolvedPath(), dir.path() + QStringLiteral("/train.py"));
        QCOMPARE(s->viewer()->highlightedBlock(), 18);
        QCOMPARE(s->viewer()->editor()->document()->findBlockByNumber(18).text(),
            QStringLiteral("    if y.sum() > 0:  # the real line 19"));
        QVERIFY(s->statusText().contains(QStringLiteral("remapped")));
        s->setRemaps({}, false);
        QCOMPARE(s->origin(), SourceTab::Origin::TraceText);
    }

    void remapResolution()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("sub")));
        QFile f(dir.path() + QStringLiteral("/sub/a.py"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const QString want = dir.path() + QStringLiteral("/sub/a.py");
        QCOMPARE(resolveSourcePath(QStringLiteral("/r/proj/sub/a.py"),
                     { { QStringLiteral("/r/proj"), dir.path() } }),
            want);
        QCOMPARE(resolveSourcePath(QStringLiteral("/r/proj/sub/a.py"),
                     { { QStringLiteral("/r/proj/"), dir.path() + QStringLiteral("/") } }),
            want);
        QCOMPARE(resolveSourcePath(QStringLiteral("/r/projx/sub/a.py"),
                     { { QStringLiteral("/r/proj"), dir.path() } }),
            QString());
        QCOMPARE(resolveSourcePath(QStringLiteral("C:\\r\\proj\\sub\\a.py"),
                     { { QStringLiteral("C:\\r\\proj"), dir.path() } }),
            want);
        std::string file, code;
        int64_t line = 0;
        QVERIFY(TraceSourceIndex::parseFileComment(
            "         # File: /home/a b/model.py:13 in forward, code: h = self.act(self.fc1(x))",
            &file, &line, &code));
        QCOMPARE(QString::fromStdString(file), QStringLiteral("/home/a b/model.py"));
        QCOMPARE(line, int64_t(13));
        QCOMPARE(QString::fromStdString(code), QStringLiteral("h = self.act(self.fc1(x))"));
    }

    void artifactsAndRaw()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(m_example);
        sel.setCurrent(compileIndex(*m_example, "[0/0]"));
        ArtifactsTab* a = v.artifactsTab();
        QVERIFY(a->model()->rowCount() > 3);
        // Opens on the captured graph, coloured as Python.
        QCOMPARE(a->model()->row(a->list()->currentIndex().row())->kind,
            QStringLiteral("dynamo_output_graph"));
        QCOMPARE(a->viewer()->language(), PayloadLanguage::Python);
        QVERIFY(a->viewer()->text().contains(QStringLiteral("class GraphModule")));
        // The Raw tab follows: the record as in the file, with its hash checked.
        QCOMPARE(v.rawView()->record(), a->currentRecord());
        QVERIFY(v.rawView()->viewer()->text().contains(QStringLiteral("{\"dynamo_output_graph\"")));
        QVERIFY(v.rawView()->viewer()->text().contains(QStringLiteral("\n\tclass GraphModule")));
        QVERIFY2(v.rawView()->infoText().contains(QStringLiteral("MD5 ✓")),
            qPrintable(v.rawView()->infoText()));
        QVERIFY(v.rawView()->infoText().contains(QStringLiteral("example.log:")));

        // A JSON artifact is pretty-printed.
        int json = -1;
        for (int r = 0; r < a->model()->rowCount(); ++r) {
            if (a->model()->row(r)->name == QStringLiteral("fx_graph_cache_miss"))
                json = r;
        }
        QVERIFY(json >= 0);
        a->list()->setCurrentIndex(a->model()->index(json, 0));
        QCOMPARE(a->viewer()->language(), PayloadLanguage::Json);
        QVERIFY(a->viewer()->text().contains(QStringLiteral("\n    \"")));

        // Ctrl+F in the viewer opens its find bar; Enter finds.
        v.showTab(InspectorView::ArtifactsIndex);
        a->viewer()->editor()->setFocus();
        QTest::keyClick(a->viewer()->editor(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(a->viewer()->findBar()->isVisible());
        QTest::keyClicks(a->viewer()->findEdit(), QStringLiteral("key"));
        QVERIFY(a->viewer()->editor()->textCursor().hasSelection());
        QTest::keyClick(a->viewer()->findEdit(), Qt::Key_Escape);
        QVERIFY(!a->viewer()->findBar()->isVisible());
    }

    // Records are read again from their file: a file cut after loading shows no stale or wrong
    // text in the Raw tab, says why, and does not blame the payload's hash.
    void rawOfAFileChangedSinceLoaded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.log"));
        QVERIFY(QFile::copy(uitest::exampleTrace(), path));
        auto trace = uitest::loadTrace(path);
        QVERIFY(trace);
        RawView raw;
        raw.setTrace(trace);
        const uint32_t r = trace->compiles[compileIndex(*trace, "[3/1]")].records.back();
        raw.showRecord(r);
        QVERIFY(!raw.viewer()->text().isEmpty());
        QVERIFY(QFile::resize(path, 4000));
        raw.showRecord(r);
        QVERIFY(raw.viewer()->text().isEmpty());
        QVERIFY2(raw.infoText().contains(QStringLiteral("changed since it was loaded")),
            qPrintable(raw.infoText()));
        QVERIFY2(raw.infoText().contains(QStringLiteral("no longer in the file")),
            qPrintable(raw.infoText()));
        QVERIFY(!raw.infoText().contains(QStringLiteral("MD5")));
    }

    void summaryFacts()
    {
        CompileSelection sel;
        InspectorView v(&sel);
        v.setTrace(m_example);
        sel.setCurrent(compileIndex(*m_example, "[3/2]"));
        const QString facts = v.summaryTab()->factsText();
        QVERIFY2(facts.contains(QStringLiteral("Compile: [3/2]  ↻ recompile")), qPrintable(facts));
        QVERIFY2(facts.contains(QStringLiteral("Function: scale")), qPrintable(facts));
        // Time by phase as the report counts it: groups with durations and shares.
        QVERIFY2(facts.contains(QStringLiteral("Time by phase: ")), qPrintable(facts));
        QVERIFY2(facts.contains(QRegularExpression(
                     QStringLiteral("Dynamo tracing  [0-9.]+ ms  \\([0-9]+%\\)"))),
            qPrintable(facts));
        QVERIFY2(
            facts.contains(QStringLiteral("Reason: x.size(0) 64→128  (+1)")), qPrintable(facts));
        QVERIFY2(facts.contains(QStringLiteral("Trace: example.log, line ")), qPrintable(facts));
        QVERIFY2(facts.contains(QStringLiteral("Guards: ")), qPrintable(facts));
        QVERIFY2(facts.contains(QStringLiteral("Graph: ")), qPrintable(facts));
        QCOMPARE(v.summaryTab()->metricsModel()->valueOf(QStringLiteral("co_name")),
            QStringLiteral("scale"));
        const Compile& c32 = m_example->compiles[compileIndex(*m_example, "[3/2]")];
        const auto phases = SummaryTab::phaseTotals(c32);
        QVERIFY(!phases.empty());
        double sum = 0;
        for (const auto& p : phases)
            sum += p.second;
        QVERIFY(std::abs(sum - c32.durationUs()) < phases.size() + 1.0); // the parts add up

        // Metric values read as times, dates and sizes, by their names' units.
        QCOMPARE(MetricsModel::readableNumber(
                     QStringLiteral("entire_frame_compile_time_s"), 0.009148999999999999),
            QStringLiteral("9.15 ms"));
        QVERIFY(MetricsModel::readableNumber(QStringLiteral("start_time_us"), 1752877803260874.0)
                    .startsWith(QStringLiteral("2025-07-18 22:30:03.260")));
        QCOMPARE(MetricsModel::readableNumber(QStringLiteral("duration_us"), 370803),
            QStringLiteral("371 ms"));
        QCOMPARE(MetricsModel::readableNumber(QStringLiteral("peak_bytes"), 1536),
            QStringLiteral("1.50 KB"));
        QVERIFY(MetricsModel::readableNumber(QStringLiteral("guard_count"), 8).isEmpty());
    }

    void hostileTextShowsLiterally()
    {
        QTemporaryDir dir;
        const QString path = hostileTrace(dir.path());
        auto t = uitest::loadTrace(path);
        QVERIFY(t);
        QCOMPARE(t->compiles.size(), size_t(1));
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1200, 800);
        v.show();
        v.setTrace(t);
        sel.setCurrent(0);
        const QString why = v.whyView()->toPlainText();
        QVERIFY2(why.contains(QStringLiteral("<b>x</b>")), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("<i>reason</i>")), qPrintable(why));
        QVERIFY2(
            why.contains(QStringLiteral("<a href='file:///etc/passwd'>y</a>")), qPrintable(why));
        // No anchor came from the trace text: every link is one of ours.
        for (const auto& l : v.whyView()->links())
            QVERIFY2(!l.href.contains(QLatin1String("file:")), qPrintable(l.href));
        QVERIFY(v.summaryTab()->factsText().contains(QStringLiteral("Function: <b>x</b>")));
        v.showTab(InspectorView::SourceIndex);
        QVERIFY(v.sourceTab()->statusText().contains(QStringLiteral("<b>x</b>")));
        QVERIFY(v.sourceTab()->viewer()->text().contains(QStringLiteral("<b>x</b> = 1")));
        StackTrieModel trie;
        trie.setTrace(t);
        QCOMPARE(trie.index(0, 0).data().toString(),
            QStringLiteral("<b>x</b> (b>.py:5)") /* "</b>" holds a path separator */);
    }

    void stackTrieSelects()
    {
        CompileSelection sel;
        StackTrieDock dock(&sel);
        dock.show();
        dock.setTrace(m_example);
        const uint32_t c32 = compileIndex(*m_example, "[3/2]");
        const QModelIndex leaf = dock.model()->indexForCompile(c32);
        QVERIFY(leaf.isValid());
        QVERIFY(leaf.data().toString().startsWith(QStringLiteral("[3/2] ")));
        // The leaf sits under scale (train.py:25), under main (train.py:47), under <module>.
        QCOMPARE(leaf.parent().data().toString(), QStringLiteral("scale (train.py:25)"));
        QCOMPARE(leaf.parent().parent().data().toString(), QStringLiteral("main (train.py:47)"));
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(dock.view()->model());
        QVERIFY(proxy);
        dock.view()->setCurrentIndex(proxy->mapFromSource(leaf));
        QCOMPARE(sel.current(), c32);
        const uint32_t c00 = compileIndex(*m_example, "[0/0]");
        sel.setCurrent(c00);
        QCOMPARE(dock.model()->compileAt(proxy->mapToSource(dock.view()->currentIndex())), c00);
        // All of [3/0]..[3/3] share one frame node, [3/4] came from another call site.
        const QModelIndex l30 = dock.model()->indexForCompile(compileIndex(*m_example, "[3/0]"));
        QCOMPARE(l30.parent(), leaf.parent());
    }
};

QTEST_MAIN(TestInspector)
#include "tst_inspector.moc"
