// DiagnosticsModel under QAbstractItemModelTester: the diagnostics of a real capture (the
// terminal paste of the example scenario: a statement cut at the top, a wrapped text), a reset
// to another list and to none, and what each column shows.
#include "ui/models/diagnosticsmodel.h"

#include "core/load/loader.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

class TestDiagnosticsModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void realDiagnosticsAndResets()
    {
        const std::string paste = DYNASCOPE_SOURCE_DIR
            "/tests/scenarios/recorded/torch-2.13.0/example/terminal_paste.txt";
        LoadResult r = load({ paste });
        QVERIFY(r.trace);
        const std::vector<Diagnostic>& diags = r.trace->diagnostics;
        QVERIFY(diags.size() >= 2);

        DiagnosticsModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setDiagnostics(diags);
        QCOMPARE(model.rowCount(), int(diags.size()));
        QCOMPARE(model.columnCount(), int(DiagnosticsModel::ColumnCount));
        for (int row = 0; row < model.rowCount(); ++row) {
            const Diagnostic& d = diags[size_t(row)];
            const QString where
                = model.index(row, DiagnosticsModel::LocationColumn).data().toString();
            QVERIFY2(where.startsWith(QStringLiteral("terminal_paste.txt")), qPrintable(where));
            if (d.line)
                QVERIFY(where.endsWith(QLatin1Char(':') + QString::number(d.line)));
            QCOMPARE(model.index(row, DiagnosticsModel::MessageColumn).data().toString(),
                QString::fromStdString(d.message));
            QVERIFY(
                !model.index(row, DiagnosticsModel::SeverityColumn).data().toString().isEmpty());
        }

        // Another list, then none: the tester checks the resets' signals.
        model.setDiagnostics({ { Severity::Error, DiagnosticCode::IoError, "/x/missing.log", 0,
            "cannot read: No such file or directory" } });
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, DiagnosticsModel::LocationColumn).data().toString(),
            QStringLiteral("missing.log"));
        model.setDiagnostics({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestDiagnosticsModel)
#include "tst_diagnosticsmodel.moc"
