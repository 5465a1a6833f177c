// The scale scenario that dynascope-bench measures (core/synth/scale_trace.h): a benchmark on a
// trace that loads with warnings, or that the loader misreads, would time the wrong thing. Checks
// that a few MB of it load without a diagnostic, with every compile complete, graph breaks linked
// to their resume frames, recompile reasons linked to the size guard, every payload hash right,
// and that the output is deterministic and near the size asked for.
#include "core/io/input_buffer.h"
#include "core/load/trace/file_builder.h"
#include "core/synth/scale_trace.h"

#include <QtTest>

#include <sstream>

using namespace dynascope;

namespace {
struct Written {
    std::string bytes;
    ScaleTraceStats stats;
};

Written write(uint64_t size, std::optional<int64_t> rank = {})
{
    std::ostringstream out;
    ScaleTraceOptions o;
    o.targetBytes = size;
    o.rank = rank;
    Written w;
    w.stats = writeScaleTrace(out, o);
    w.bytes = out.str();
    return w;
}

std::unique_ptr<Trace> build(const std::string& bytes)
{
    std::string error;
    auto buffer = InputBuffer::fromBytes(bytes, 1ull << 32, error);
    if (!buffer)
        return nullptr;
    return buildFile({ "scale.log", buffer, {}, {} });
}
} // namespace

class TestScaleTrace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsCleanly()
    {
        const Written w = write(3u << 20);
        QVERIFY(w.stats.bytes >= 3u << 20);
        QCOMPARE(w.stats.bytes, uint64_t(w.bytes.size()));
        QVERIFY(w.stats.programs >= 2);
        auto t = build(w.bytes);
        QVERIFY(t);
        for (const auto& d : t->diagnostics)
            qWarning("%s", d.format().c_str());
        QVERIFY(t->diagnostics.empty());
        QCOMPARE(t->files[0].badLines, uint64_t(0));
        QCOMPARE(t->compileCount(), w.stats.compiles);
        QCOMPARE(t->compiles.size(), size_t(w.stats.compiles));
        auto check = t->verifyPayloads();
        QCOMPARE(check.mismatchesPerFile.at(0), uint64_t(0));

        size_t breaks = 0, linkedBreaks = 0, reasons = 0, linkedReasons = 0, failures = 0;
        size_t phases = 0;
        for (const auto& c : t->compiles) {
            QVERIFY2(c.status != CompileStatus::Missing, c.id.display().c_str());
            QVERIFY(c.metricsRecord != kNone);
            QCOMPARE(c.timeSource, TimeSource::Chromium);
            QVERIFY(c.phases.size() >= 8);
            phases += c.phases.size();
            for (const auto& p : c.phases)
                QVERIFY(!p.openEnd && !p.openStart);
            for (const auto& gb : c.graphBreaks) {
                ++breaks;
                linkedBreaks += gb.resumeCompile != kNone;
            }
            for (const auto& r : c.recompileReasons) {
                ++reasons;
                linkedReasons
                    += r.earlierCompile != kNone && r.guardNode >= 0 && r.mismatch == "size";
            }
            failures += c.failure.has_value();
        }
        QVERIFY(breaks >= w.stats.programs);
        QCOMPARE(linkedBreaks, breaks);
        QVERIFY(reasons >= w.stats.programs);
        QCOMPARE(linkedReasons, reasons);
        QVERIFY(failures <= w.stats.programs / 5 + 1);
        // The metrics lines are as long as 2025 logs have them.
        const Compile& first = t->compiles.front();
        QVERIFY(t->header(first.metricsRecord).size() > 15000);
        QVERIFY(phases > 10 * t->compiles.size());
    }

    void deterministic()
    {
        QCOMPARE(write(1u << 20).bytes, write(1u << 20).bytes);
        QVERIFY(write(1u << 20, 3).bytes != write(1u << 20, 4).bytes);
    }

    void rankInEveryEnvelope()
    {
        auto t = build(write(1u << 20, 5).bytes);
        QVERIFY(t && t->diagnostics.empty());
        QCOMPARE(t->files[0].rank, std::optional<int64_t>(5));
        for (uint32_t r = 0; r < t->records.size(); ++r)
            if (t->kindName(r) != "str") // the string table is per process, without a rank
                QVERIFY(t->headerJson(r).find("\"rank\": 5") != std::string_view::npos);
    }
};

QTEST_GUILESS_MAIN(TestScaleTrace)
#include "tst_scaletrace.moc"
