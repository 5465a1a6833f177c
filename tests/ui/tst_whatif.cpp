// The Guards tab's What if section (ui/inspector/whatifpanel.h), the guard lab in the app, on
// the committed guard_dtype recording and the bundled example: the input starts as the recorded
// call, the verdict follows edits, a bad description says what is wrong, and Copy as Markdown
// gives the answer. What PyTorch did is in each scenario's facts.json: guard_dtype compiled
// scale for float32 ([0/0]) and again for float64 ([0/1]).
#include "ui/compileselection.h"
#include "ui/inspector/guardstab.h"
#include "ui/inspector/whatifpanel.h"
#include "ui/inspectorview.h"

#include "uitesthelpers.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

class TestWhatIf : public QObject {
    Q_OBJECT

    static QString verdictOf(WhatIfPanel* p)
    {
        return p->findChild<QLabel*>(QStringLiteral("whatIfVerdict"))->text();
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

    // The bundled example's scale: [3/1] made the size dynamic, so any row count from 2 up
    // reuses it; a range answers for every size at once.
    void rangeOnTheExample()
    {
        const auto trace = uitest::loadTrace(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE));
        QVERIFY(trace);
        CompileSelection sel;
        InspectorView v(&sel);
        v.setTrace(trace);
        uint32_t recompile = kNone;
        for (const Compile& c : trace->compiles)
            if (c.id.display() == "[3/1]")
                recompile = c.index;
        QVERIFY(recompile != kNone);
        sel.setCurrent(recompile);
        WhatIfPanel* p = v.guardsTab()->whatIf();
        QVERIFY2(p->inputEdit()->text().startsWith(QStringLiteral("x: f32[")),
            qPrintable(p->inputEdit()->text()));
        p->inputEdit()->setText(QStringLiteral("x.size(0) in 1..600"));
        QTRY_VERIFY(
            p->answerView()->toPlainText().contains(QStringLiteral("2..600  reuses [3/1]")));
    }
};

QTEST_MAIN(TestWhatIf)
#include "tst_whatif.moc"
