// The Findings panel on the bundled example (a log PyTorch 2.13 wrote): FindingsModel under
// QAbstractItemModelTester; the panel filled as soon as the trace opens, in rank order; the Why
// tab's overview while nothing is selected; a click on a finding selects its compile and opens
// the Why tab; Copy gives the finding as Markdown; the status bar counts findings.
#include "ui/compileselection.h"
#include "ui/findingsdock.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/mainwindow.h"
#include "ui/models/findingsmodel.h"

#include "core/load/loader.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;

class TestFindingsDock : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    void modelOnTheExample()
    {
        auto r = load({ DYNASCOPE_BUNDLED_EXAMPLE });
        QVERIFY(r.trace);
        FindingsModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto found = findFindings(*r.trace);
        QVERIFY(found.size() >= 3);
        const std::string firstTitle = found[0].title;
        model.setFindings(std::move(found));
        QCOMPARE(
            model.index(0, FindingsModel::RuleColumn).data().toString(), QStringLiteral("failure"));
        QCOMPARE(model.index(0, FindingsModel::TitleColumn).data().toString(),
            QString::fromStdString(firstTitle));
        QVERIFY(model.index(0, FindingsModel::SeverityColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("error")));
        // Tooltips carry the evidence and the next step, as plain text.
        const QString tip
            = model.index(1, FindingsModel::TitleColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Next:")), qPrintable(tip));
        model.setFindings({});
        QCOMPARE(model.rowCount(), 0);
    }

    void panelInTheWindow()
    {
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openPaths({ QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) });
        QVERIFY(spy.wait(60000));
        FindingsDock* dock = w.findingsDock();
        QVERIFY(dock->isVisible());
        QVERIFY(dock->model()->rowCount() >= 3);
        QVERIFY2(w.summaryText().contains(QStringLiteral("findings: 1 ✕ 1 ⚠")),
            qPrintable(w.summaryText()));
        // Nothing selected: the Why tab lists the top findings.
        WhyView* why = w.inspector()->whyView();
        QVERIFY2(why->placeholderText().startsWith(QStringLiteral("What this trace shows")),
            qPrintable(why->placeholderText()));

        // A click on the second finding (the data-dependent break) selects the compile that broke
        // and shows its Why.
        w.inspector()->showTab(InspectorView::SummaryIndex);
        QTreeView* view = dock->view();
        const QRect rect = view->visualRect(view->model()->index(1, FindingsModel::TitleColumn));
        QVERIFY(!rect.isEmpty());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        const uint32_t selected = w.selection()->current();
        QVERIFY(selected != kNone);
        QVERIFY(dock->findingAt(1)->rule == Rule::DataDependent);
        QCOMPARE(selected, dock->findingAt(1)->compiles.front());
        QCOMPARE(w.inspector()->tabs()->currentIndex(), int(InspectorView::WhyIndex));
        QVERIFY(why->toPlainText().contains(QStringLiteral("Data-dependent branching")));

        // Copy as Markdown, for an issue.
        const QString md = dock->currentMarkdown();
        QVERIFY2(md.startsWith(QStringLiteral("**warning** `data-dependent`")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("```python\ntorch.cond(")));
    }
};

QTEST_MAIN(TestFindingsDock)
#include "tst_findingsdock.moc"
