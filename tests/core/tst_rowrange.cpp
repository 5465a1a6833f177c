// RowRange (core/model/row_range.h): a table's rows as a typed range. Iteration, bounds at the
// top of the 32-bit index space, and recordsOf() partitioning a multi-file trace's records the
// way Trace::fileOf() assigns them.
#include "core/load/loader.h"
#include "core/model/row_range.h"

#include <QtTest>

#include <type_traits>
#include <vector>

using namespace dynascope;

class TestRowRange : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void iterates()
    {
        const RecordRange r(5, 3);
        std::vector<uint32_t> rows(r.begin(), r.end());
        QCOMPARE(rows, (std::vector<uint32_t> { 5, 6, 7 }));
        QVERIFY(r.contains(5) && r.contains(7));
        QVERIFY(!r.contains(4) && !r.contains(8));
        QCOMPARE(r.size(), uint32_t(3));
        QVERIFY(RecordRange().empty());
        QVERIFY(RecordRange(9, 0).begin() == RecordRange(9, 0).end());
        // Ranges of different tables are different types.
        static_assert(!std::is_same_v<RecordRange, RowRange<Compile>>);
        static_assert(!std::is_convertible_v<RowRange<Compile>, RecordRange>);
    }

    // The last row index a trace can hold is 2^32 - 2 (kNone is 2^32 - 1): a range ending there
    // ends, and one reaching 2^32 - 1 does not wrap to 0.
    void topOfTheIndexSpace()
    {
        const RecordRange r(0xfffffff0u, 0xf);
        size_t n = 0;
        uint32_t last = 0;
        for (uint32_t row : r) {
            ++n;
            last = row;
        }
        QCOMPARE(n, size_t(15));
        QCOMPARE(last, 0xfffffffeu);
        QVERIFY(!r.contains(0xffffffffu));
        const RecordRange full(0xfffffff0u, 0x10);
        QCOMPARE(size_t(std::distance(full.begin(), full.end())), size_t(16));
    }

    void partitionsTheRecords()
    {
        const auto t = load({ std::string(DYNASCOPE_FIXTURES_DIR "/two_ranks") }).trace;
        QVERIFY(t);
        QCOMPARE(t->files.size(), size_t(2));
        size_t seen = 0;
        for (uint32_t fi = 0; fi < t->files.size(); ++fi) {
            for (uint32_t r : recordsOf(t->files[fi])) {
                QCOMPARE(t->fileOf(r), fi);
                ++seen;
            }
        }
        QCOMPARE(seen, t->records.size());
    }
};

QTEST_GUILESS_MAIN(TestRowRange)
#include "tst_rowrange.moc"
