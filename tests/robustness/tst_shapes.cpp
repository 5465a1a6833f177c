// Pathological shapes of input (core/synth/pathological.h): for each, the loader's peak heap and
// its number of allocations per input byte, at two sizes four times apart, must not grow with the
// size; and bad content is a bounded number of diagnostics. Deterministic (bytes and counts, not
// time): the throughput per shape is dynascope-bench --shapes.
#include "robustness_helpers.h"

#include "core/synth/pathological.h"
#include "tests/support/heap_counter.h"

using namespace dynascope;
using namespace dynascope::robustness;

namespace {
struct Cost {
    double peakPerByte = 0; // heap above what was live before, per input byte
    double allocationsPerByte = 0;
    size_t diagnostics = 0;
    size_t records = 0;
};

Cost measure(const std::string& shape, size_t bytes)
{
    std::string error;
    auto buffer = InputBuffer::fromBytes(synth::makePathological(shape, bytes), ~0ull, error);
    const double size = static_cast<double>(buffer->size());
    const int64_t before = testing::liveHeap();
    const int64_t allocationsBefore = testing::allocations();
    testing::resetPeak();
    Cost c;
    {
        auto t = buildFile({ shape + ".log", buffer, {}, {} });
        // What the CLI does by default after loading: verify the payloads.
        const auto check = t->verifyPayloads();
        c.diagnostics = t->diagnostics.size() + check.diagnostics.size();
        c.records = t->records.size();
        const std::string violations = fuzz::checkTrace(*t);
        if (!violations.empty())
            qWarning("%s: %s", shape.c_str(), violations.c_str());
    }
    c.peakPerByte = static_cast<double>(testing::peakHeap() - before) / size;
    c.allocationsPerByte = static_cast<double>(testing::allocations() - allocationsBefore) / size;
    return c;
}
} // namespace

class TestShapes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void heapPerByteDoesNotGrow_data()
    {
        QTest::addColumn<QString>("shape");
        for (const auto& s : synth::pathologicalShapes())
            QTest::newRow(s.name) << QString::fromUtf8(s.name);
    }
    void heapPerByteDoesNotGrow()
    {
        if (!testing::kHeapCounted)
            QSKIP("heap counting is off in sanitizer builds (they keep their own allocator)");
        QFETCH(QString, shape);
        const std::string name = shape.toStdString();
        const Cost small = measure(name, 2u << 20);
        const Cost large = measure(name, 8u << 20);
        qInfo("%-22s peak heap/byte %.3f -> %.3f, allocations/byte %.4f -> %.4f, "
              "diagnostics %zu -> %zu, records %zu -> %zu",
            name.c_str(), small.peakPerByte, large.peakPerByte, small.allocationsPerByte,
            large.allocationsPerByte, small.diagnostics, large.diagnostics, small.records,
            large.records);
        // Four times the input: the same heap and allocations per byte, within a margin for
        // vectors that double (a table that just doubled holds up to twice what it needs).
        QVERIFY2(large.peakPerByte <= small.peakPerByte * 1.3 + 0.05,
            qPrintable(QStringLiteral("peak heap per byte grew: %1 -> %2")
                           .arg(small.peakPerByte)
                           .arg(large.peakPerByte)));
        QVERIFY2(large.allocationsPerByte <= small.allocationsPerByte * 1.1 + 1e-4,
            qPrintable(QStringLiteral("allocations per byte grew: %1 -> %2")
                           .arg(small.allocationsPerByte)
                           .arg(large.allocationsPerByte)));
        // Diagnostics are listed up to 20 of a code and then counted: never one per line.
        QVERIFY2(large.diagnostics <= 3 * 21, qPrintable(QString::number(large.diagnostics)));
        // Content that is not records costs nothing per line: under a byte of heap per byte
        // (was 150 bytes per byte for bad lines).
        const bool noRecords = name == "bad_lines" || name == "blank_lines"
            || name == "payload_then_blanks" || name == "tab_lines" || name == "glog_text";
        if (noRecords)
            QVERIFY2(large.peakPerByte < 0.05, qPrintable(QString::number(large.peakPerByte)));
    }
};

QTEST_GUILESS_MAIN(TestShapes)
#include "tst_shapes.moc"
