// The Guards tab's What if section (ui/inspector/whatifpanel.h), the guard lab in the app, on
// the committed guard_dtype and dynamic_false recordings and the bundled example: the input
// starts as the recorded call, the verdict follows edits, a bad description says what is wrong,
// a range answers as a table of sizes to verdicts, and Copy as Markdown gives the answer. What
// PyTorch did is in each scenario's facts.json: guard_dtype compiled scale for float32 ([0/0])
// and again for float64 ([0/1]).
#include "ui/compileselection.h"
#include "ui/inspector/guardstab.h"
#include "ui/inspector/whatifpanel.h"
#include "ui/inspectorview.h"

#include "uitesthelpers.h"

#include <QAccessible>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

class TestWhatIf : public QObject {
    Q_OBJECT

    static QString verdictOf(WhatIfPanel* p)
    {
        return p->findChild<QLabel*>(QStringLiteral("whatIfVerdict"))->text();
    }
    // The range table's rows as "sizes | verdict".
    static QStringList rows(QTableWidget* t)
    {
        QStringList out;
        for (int r = 0; r < t->rowCount(); ++r)
            out << t->item(r, 0)->text() + QStringLiteral(" | ") + t->item(r, 1)->text();
        return out;
    }

private Q_SLOTS:
    void followsTheInput()
    {
        const auto trace = uitest::loadTrace(uitest::scenarioTrace(QStringLiteral("guard_dtype")));
        QVERIFY(trace && trace->compiles.size() == 2);
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1200, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(trace);
        sel.setCurrent(0);
        WhatIfPanel* p = v.guardsTab()->whatIf();
        // The recorded call of [0/0]: float32, 8x4; the newest entry checked first is [0/1]
        // (float64), which rejects it; [0/0] runs.
        QCOMPARE(p->inputEdit()->text(), QStringLiteral("x: f32[8, 4]"));
        QCOMPARE(verdictOf(p), QStringLiteral("verdict: reuses [0/0]"));
        QVERIFY(p->answerView()->toPlainText().contains(
            QStringLiteral("[0/1]  fails TENSOR_MATCH: dtype mismatch")));

        // Typed: a dtype neither compile has, after the debounce.
        p->inputEdit()->clear();
        QTest::keyClicks(p->inputEdit(), QStringLiteral("x: f16[8, 4]"));
        QTRY_COMPARE(verdictOf(p),
            QStringLiteral("verdict: recompiles: no entry matches (6 of the recompile limit 8 "
                           "left)"));
        p->inputEdit()->setText(QStringLiteral("x: f64[8, 4]"));
        QTRY_COMPARE(verdictOf(p), QStringLiteral("verdict: reuses [0/1]"));

        // Copy as Markdown: the input and the answer as a code block.
        const QString md = p->markdown();
        QVERIFY2(md.startsWith(QStringLiteral("**What if** `x: f64[8, 4]`:")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("verdict: reuses [0/1]")));

        // A description it cannot read: the reason, no answer.
        p->inputEdit()->setText(QStringLiteral("x: q32[8, 4]"));
        QTRY_VERIFY(verdictOf(p).contains(QStringLiteral("not a dtype")));
        QVERIFY(p->answerView()->toPlainText().isEmpty());
    }

    // The bundled example's scale, as a range: a table of sizes to verdicts. Its guards: [3/0]
    // is static (check_tensor size=[32, 128]); [3/1] made dimension 0 dynamic (size=[None,
    // 128] and the shape guard 2 <= L['x'].size()[0]) and is checked first. So one row
    // recompiles (0/1 specialization) and every size from 2 reuses [3/1], 32 included; along
    // dimension 1 only 128 reuses [3/1].
    void rangeOnTheExample()
    {
        const auto trace = uitest::loadTrace(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE));
        QVERIFY(trace);
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1200, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(trace);
        uint32_t recompile = kNone;
        for (const Compile& c : trace->compiles)
            if (c.id.display() == "[3/1]")
                recompile = c.index;
        QVERIFY(recompile != kNone);
        sel.setCurrent(recompile);
        v.showTabNamed(QStringLiteral("Guards"));
        WhatIfPanel* p = v.guardsTab()->whatIf();
        QVERIFY2(p->inputEdit()->text().startsWith(QStringLiteral("x: f32[")),
            qPrintable(p->inputEdit()->text()));
        QTableWidget* table = p->rangeTable();
        QVERIFY(table->isHidden()); // a single call answers as text
        QVERIFY(!p->answerView()->isHidden());

        p->inputEdit()->setText(QStringLiteral("x.size(0) in 1..600"));
        QTRY_COMPARE(rows(table),
            QStringList({ QStringLiteral("1 | recompiles: no entry matches (6 of the recompile "
                                         "limit 8 left)"),
                QStringLiteral("2..600 | reuses [3/1]") }));
        QVERIFY(table->isVisible());
        QVERIFY(p->answerView()->isHidden());
        QCOMPARE(table->horizontalHeaderItem(0)->text(), QStringLiteral("sizes"));
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("verdict"));
        QVERIFY(!QAccessible::queryAccessibleInterface(table)->text(QAccessible::Name).isEmpty());
        QVERIFY(!QAccessible::queryAccessibleInterface(table)
                     ->text(QAccessible::Description)
                     .isEmpty());
        // The same words as dynascope-cli guards: the header, and the advice below the table.
        QVERIFY2(verdictOf(p).startsWith(QStringLiteral("scale (example.py:36): 2 cache entries")),
            qPrintable(verdictOf(p)));
        QVERIFY2(p->adviceLabel()->text().startsWith(QStringLiteral(
                     "one call, torch._dynamo.mark_dynamic(x, 0) before the first call")),
            qPrintable(p->adviceLabel()->text()));
        QCOMPARE(p->adviceLabel()->textFormat(), Qt::PlainText);
        // Rows tall enough to read all of them without scrolling.
        QVERIFY(table->minimumHeight()
            >= table->horizontalHeader()->height() + 2 * table->rowHeight(0));

        // Copy as Markdown: a table, the verdicts escaped as Markdown text.
        const QString md = p->markdown();
        QVERIFY2(
            md.contains(QStringLiteral("| sizes | verdict |\n| --- | --- |\n")), qPrintable(md));
        QVERIFY2(md.contains(QStringLiteral("| 2..600 | reuses \\[3/1\\] |")), qPrintable(md));
        QVERIFY2(md.contains(QStringLiteral("mark\\_dynamic")), qPrintable(md));

        // Along dimension 1 both entries hold 128 (the tensor given: the lab's prefill takes a
        // dynamic dimension as 1, which [3/1]'s 2 <= L['x'].size()[0] rejects).
        p->setInput(QStringLiteral("x: f32[64, 128]; x.size(1) in 126..130"));
        QCOMPARE(rows(table),
            QStringList({ QStringLiteral("126..127 | recompiles: no entry matches (6 of the "
                                         "recompile limit 8 left)"),
                QStringLiteral("128 | reuses [3/1]"),
                QStringLiteral("129..130 | recompiles: no entry matches (6 of the recompile "
                               "limit 8 left)") }));

        // A tensor the frame does not guard: no rows, the reason in the advice.
        p->setInput(QStringLiteral("y.size(0) in 1..4"));
        QCOMPARE(table->rowCount(), 0);
        QCOMPARE(p->adviceLabel()->text(), QStringLiteral("'y' is not a tensor this frame guards"));

        // Back to one call: the text answer again, the table hidden.
        p->setInput(QStringLiteral("x: f32[1000, 128]"));
        QVERIFY(table->isHidden());
        QCOMPARE(verdictOf(p), QStringLiteral("verdict: reuses [3/1]"));
    }

    // dynamic_false compiled scale once per size, static each time (facts: rows 32, 64, 128,
    // 256, 512 and compiles [0/0]..[0/4]): each of those sizes reuses its own entry, every
    // other recompiles.
    void rangeAcrossStaticEntries()
    {
        const auto trace
            = uitest::loadTrace(uitest::scenarioTrace(QStringLiteral("dynamic_false")));
        QVERIFY(trace && trace->compiles.size() == 5);
        CompileSelection sel;
        InspectorView v(&sel);
        v.setTrace(trace);
        sel.setCurrent(0);
        WhatIfPanel* p = v.guardsTab()->whatIf();
        p->setInput(QStringLiteral("x.size(0) in 30..70"));
        const QString again
            = QStringLiteral("recompiles: no entry matches (3 of the recompile limit 8 left)");
        QCOMPARE(rows(p->rangeTable()),
            QStringList({ QStringLiteral("30..31 | ") + again, QStringLiteral("32 | reuses [0/0]"),
                QStringLiteral("33..63 | ") + again, QStringLiteral("64 | reuses [0/1]"),
                QStringLiteral("65..70 | ") + again }));
        QVERIFY(p->adviceLabel()->text().contains(QStringLiteral("mark_dynamic(x, 0)")));
    }
};

QTEST_MAIN(TestWhatIf)
#include "tst_whatif.moc"
