// The inspector's Kernels tab (ui/inspector/kernelstab.h) on the 2.11 H200 CUDA traces (skipped
// without ../shared): the table's rows and cells, plain text, and a row that opens the output
// code in the Artifacts tab at the kernel's definition; on the bundled CPU example, C++ kernels.
#include "ui/compileselection.h"
#include "ui/inspector/artifactstab.h"
#include "ui/inspector/codeviewer.h"
#include "ui/inspector/kernelstab.h"
#include "ui/inspectorview.h"
#include "ui/models/kernelmodel.h"

#include "uitesthelpers.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;

namespace {

QString cudaScenario(const char* name)
{
    return QStringLiteral(DYNASCOPE_SHARED_TRACES) + u"/torch-2.11-h200/cuda-scenarios/"_qs
        + QString::fromUtf8(name);
}

QString cell(const KernelModel* m, int row, int column)
{
    return m->data(m->index(row, column)).toString();
}

int rowNamed(const KernelModel* m, const QString& name)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (cell(m, r, KernelModel::NameColumn) == name)
            return r;
    return -1;
}

} // namespace

class TestKernelsTab : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // clean_mlp: the pointwise kernel and the two matmuls; Enter on the kernel opens the output
    // code at `triton_poi_fused_addmm_gelu_0 = async_compile.triton(`.
    void cleanMlpRowsAndJump()
    {
        const QString dir = cudaScenario("clean_mlp");
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        const auto trace = uitest::loadTrace(dir);
        QVERIFY(trace && trace->compiles.size() == 1);
        CompileSelection sel;
        InspectorView v(&sel);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setTrace(trace);
        sel.setCurrent(0);
        QVERIFY(v.showTabNamed(QStringLiteral("kernels")));
        QCOMPARE(v.tabs()->currentIndex(), int(InspectorView::KernelsIndex));
        KernelsTab* tab = v.kernelsTab();
        const KernelModel* m = tab->model();
        QAbstractItemModelTester tester(
            const_cast<KernelModel*>(m), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m->rowCount(), 3);
        const int k = rowNamed(m, QStringLiteral("triton_poi_fused_addmm_gelu_0"));
        QVERIFY(k >= 0);
        QCOMPARE(cell(m, k, KernelModel::KindColumn), QStringLiteral("pointwise"));
        QCOMPARE(cell(m, k, KernelModel::GraphColumn), QStringLiteral("inference"));
        QCOMPARE(cell(m, k, KernelModel::OpsColumn), QStringLiteral("aten.addmm, aten.gelu"));
        QCOMPARE(cell(m, k, KernelModel::TimeColumn), QStringLiteral("551 ms"));
        QCOMPARE(cell(m, k, KernelModel::AutotuneColumn), QStringLiteral("miss (2 configs)"));
        QVERIFY(rowNamed(m, QStringLiteral("extern_kernels.mm")) >= 0);
        QVERIFY(rowNamed(m, QStringLiteral("extern_kernels.addmm")) >= 0);
        QCOMPARE(tab->summary()->textFormat(), Qt::PlainText);
        QVERIFY2(tab->summary()->text().startsWith(QStringLiteral("1 pointwise, 2 extern; 551.3 ms "
                                                                  "compiling Triton kernels; 1 "
                                                                  "autotuned after a cache miss.")),
            qPrintable(tab->summary()->text()));

        // Enter on the row: the Artifacts tab, the output code, its definition line highlighted.
        tab->table()->setFocus();
        tab->table()->setCurrentIndex(m->index(k, 0));
        QTest::keyClick(tab->table(), Qt::Key_Return);
        QCOMPARE(v.tabs()->currentIndex(), int(InspectorView::ArtifactsIndex));
        ArtifactsTab* a = v.artifactsTab();
        QCOMPARE(trace->kindName(a->currentRecord()), std::string("inductor_output_code"));
        const int block = a->viewer()->highlightedBlock();
        QVERIFY(block >= 0);
        const QString line = a->viewer()->editor()->document()->findBlockByNumber(block).text();
        QVERIFY2(line.startsWith(
                     QStringLiteral("triton_poi_fused_addmm_gelu_0 = async_compile.triton(")),
            qPrintable(line));
    }

    // graph_break_item: the compile whose kernel came from the FX graph cache says so.
    void cachedKernelSaysSo()
    {
        const QString dir = cudaScenario("graph_break_item");
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        const auto trace = uitest::loadTrace(dir);
        QVERIFY(trace);
        KernelsTab tab;
        tab.setTrace(trace);
        bool sawCached = false, sawOnlyConfig = false;
        for (const Compile& c : trace->compiles) {
            tab.showCompile(c.index);
            const KernelModel* m = tab.model();
            for (int r = 0; r < m->rowCount(); ++r) {
                const QString autotune = cell(m, r, KernelModel::AutotuneColumn);
                if (autotune
                    == QStringLiteral(
                        "only 1 config: R0_BLOCK=2048, XBLOCK=1, num_warps=16, num_stages=1"))
                    sawOnlyConfig = true;
            }
            if (tab.summary()->text().contains(QStringLiteral("The FX graph cache hit")))
                sawCached = true;
        }
        QVERIFY(sawCached && sawOnlyConfig);
    }

    // The bundled example (2.13, CPU): a C++ kernel, ops from its name, no autotuning.
    void cppKernelsOnTheExample()
    {
        const auto trace = uitest::loadTrace(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE));
        QVERIFY(trace && !trace->compiles.empty());
        KernelsTab tab;
        tab.setTrace(trace);
        tab.showCompile(0);
        const KernelModel* m = tab.model();
        int cpp = -1;
        for (int r = 0; r < m->rowCount(); ++r)
            if (cell(m, r, KernelModel::KindColumn) == QStringLiteral("cpp"))
                cpp = r;
        QVERIFY(cpp >= 0);
        QVERIFY(cell(m, cpp, KernelModel::NameColumn).startsWith(QStringLiteral("cpp_fused_")));
        QCOMPARE(cell(m, cpp, KernelModel::TimeColumn), QStringLiteral("–"));
        QCOMPARE(cell(m, cpp, KernelModel::AutotuneColumn), QStringLiteral("–"));
        // A compile without Inductor output says why the table is empty.
        for (const Compile& c : trace->compiles) {
            tab.showCompile(c.index);
            if (m->rowCount() == 0) {
                QVERIFY(tab.summary()->text().startsWith(QStringLiteral("No kernels")));
                return;
            }
        }
    }
};

QTEST_MAIN(TestKernelsTab)
#include "tst_kernelstab.moc"
