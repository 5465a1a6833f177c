// The timeline with many ranks (a folder of 64 rank files written by core/synth/rank_folder, one
// rank with an extra recompile): every rank but one is a compact row of its compiles, the first
// rank's lanes are open, selecting a compile opens its rank's lanes, and a click on a compact
// row's label opens that rank.
#include "core/load/loader.h"
#include "core/synth/rank_folder.h"
#include "ui/compileselection.h"
#include "ui/mainwindow.h"
#include "ui/timeline/timelineview.h"

#include "windowdriver.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;
using timeline::Row;

class TestManyRanks : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<const Trace> m_trace;

    uint32_t compileOf(int64_t rank, const char* id) const
    {
        for (const Compile& c : m_trace->compiles)
            if (m_trace->files[c.file].rank == rank && c.id.display() == id)
                return c.index;
        return kNone;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        synth::RankFolderOptions options;
        options.ranks = 64;
        options.extraRecompileRank = 40;
        synth::writeRankFolder(m_dir.path().toStdString(), options);
        m_trace = load({ m_dir.path().toStdString() }).trace;
        QVERIFY(m_trace);
        QCOMPARE(m_trace->files.size(), size_t(64));
        QCOMPARE(m_trace->files[40].rank, std::optional<int64_t>(40)); // natural order
    }

    void compactRowsAndExpansion()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 800);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const auto& layout = view.layout();
        QVERIFY(layout.compactRanks());
        QCOMPARE(layout.expandedFile(), 0u);
        int compact = 0, lanes = 0;
        for (const Row& r : layout.rows()) {
            compact += r.compactRank ? 1 : 0;
            lanes += r.kind == Row::Kind::Lane ? 1 : 0;
            if (r.compactRank) {
                QVERIFY(r.height >= 4 && r.height <= 10);
                QCOMPARE(static_cast<size_t>(r.compileCount), r.spans.size());
            }
        }
        QCOMPARE(compact, 63);
        QCOMPARE(lanes, 4); // rank 0's forward, step, its resume, helper

        // A compile of a compact rank is in that rank's row and can be clicked.
        const uint32_t r10 = compileOf(10, "[0/0]");
        const int row10 = layout.laneOf(r10);
        QVERIFY(row10 >= 0 && layout.rows()[static_cast<size_t>(row10)].compactRank);

        // Selecting rank 40's recompile opens rank 40 and folds rank 0.
        const uint32_t extra = compileOf(40, "[0/1]");
        QVERIFY(extra != kNone);
        selection.setCurrent(extra);
        QCOMPARE(layout.expandedFile(), 40u);
        const int lane = layout.laneOf(extra);
        QVERIFY(lane >= 0);
        QCOMPARE(layout.rows()[static_cast<size_t>(lane)].kind, Row::Kind::Lane);
        const QRect shown = view.compileRect(extra);
        QVERIFY2(shown.isValid() && view.rect().contains(shown.center()),
            "the selected compile is scrolled into view");
        QVERIFY(layout.rows()[0].compactRank); // rank 0 folded

        // A click on a compact row's label opens that rank.
        const QRect mark = view.compileRect(compileOf(41, "[0/0]"));
        QVERIFY(mark.isValid());
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(30, mark.center().y()));
        QCOMPARE(layout.expandedFile(), 41u);
    }

    // The window marks the rows of the ranks that rank findings single out, and no other: the
    // straggler and the rank with a graph break the others lack, with the findings' titles as
    // the mark's tooltip.
    void divergentRanksAreMarked()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        synth::RankFolderOptions options;
        options.ranks = 48;
        options.stragglerRank = 17;
        options.graphBreakRank = 30;
        synth::writeRankFolder(dir.path().toStdString(), options);
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(uitest::openAndWait(w, { dir.path() }));
        TimelineView* tl = w.timeline();
        const auto& marks = tl->rankMarks();
        QCOMPARE(marks.size(), size_t(2));
        const auto& trace = *w.trace();
        std::map<int64_t, QStringList> words;
        for (const auto& [file, mark] : marks) {
            words[*trace.files[file].rank] = mark.words;
            QCOMPARE(mark.severity, 1); // warnings
        }
        QCOMPARE(words[17], QStringList { QStringLiteral("straggler") });
        QCOMPARE(words[30], QStringList { QStringLiteral("graph breaks") });
        // Its tooltip, on the rank's label (a compact row: a view tall enough to show it).
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 1600);
        view.setTrace(w.trace());
        view.setRankMarks(marks);
        const auto& rows = view.layout().rows();
        const auto row17 = std::find_if(rows.begin(), rows.end(),
            [](const Row& r) { return r.kind == Row::Kind::Rank && r.file == 17; });
        QVERIFY(row17 != rows.end() && row17->compactRank);
        int y = -1;
        for (int py = 0; py < view.height() && y < 0; ++py)
            if (view.toolTipAt(QPoint(40, py)).contains(QStringLiteral("compiled for")))
                y = py;
        QVERIFY2(y >= 0, "rank 17's mark has the straggler finding as its tooltip");
        QVERIFY(view.toolTipAt(QPoint(40, y)).startsWith(QStringLiteral("rank 17")));
        QVERIFY(view.toolTipAt(QPoint(40, y)).contains(QStringLiteral("Rank 17 compiled for")));
    }
};

QTEST_MAIN(TestManyRanks)
#include "tst_manyranks.moc"
