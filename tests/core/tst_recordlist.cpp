// RecordList (core/model/record_list.h), a compile's records as runs of consecutive indices,
// lists what a sorted set of the same indices lists: after appends in order (runs, gaps of every
// varint length, up to the largest index), appends out of order and repeated, erases and
// shifts; front, back and size agree; a compile's usual list (one run) needs no allocation. On
// real traces, each compile's list is sorted, and every record that names a compile is in its
// list exactly once.
#include "core/load/loader.h"
#include "core/model/record_list.h"

#include "tests/support/trace_files.h"

#include <QtTest>

#include <random>
#include <set>

using namespace dynascope;

namespace {
bool same(const RecordList& l, const std::set<uint32_t>& want)
{
    if (l.size() != want.size() || l.empty() != want.empty())
        return false;
    if (!want.empty() && (l.front() != *want.begin() || l.back() != *want.rbegin()))
        return false;
    return l.toVector() == std::vector<uint32_t>(want.begin(), want.end());
}
} // namespace

class TestRecordList : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void empty()
    {
        RecordList l;
        QVERIFY(l.empty());
        QVERIFY(l.begin() == l.end());
        QCOMPARE(l.runs(), size_t(0));
        l.erase(3);
        l.shift(5);
        QVERIFY(l.empty());
    }

    void oneRunIsInline()
    {
        RecordList l;
        for (uint32_t i = 1000; i < 101000; ++i)
            l.push_back(i);
        QCOMPARE(l.size(), size_t(100000));
        QCOMPARE(l.runs(), size_t(1));
        QCOMPARE(l.heapBytes(), size_t(0));
        QCOMPARE(l.front(), 1000u);
        QCOMPARE(l.back(), 100999u);
        // A few runs still fit in the string's inline bytes.
        l.push_back(200000);
        l.push_back(200001);
        l.push_back(300000);
        QCOMPARE(l.runs(), size_t(3));
        QCOMPARE(l.heapBytes(), size_t(0));
    }

    // Appends in increasing order with gaps of every varint length (1 to 5 bytes).
    void gapsOfEveryLength()
    {
        RecordList l;
        std::set<uint32_t> want;
        uint32_t at = 0;
        for (uint32_t gap : { 0u, 1u, 127u, 128u, 16383u, 16384u, 2097151u, 2097152u, 268435455u,
                 268435456u, 1u }) {
            at += gap;
            for (uint32_t k = 0; k < 3; ++k, ++at) {
                l.push_back(at);
                want.insert(at);
            }
        }
        QVERIFY(same(l, want));
        RecordList top;
        top.push_back(0xfffffffcu);
        top.push_back(0xfffffffdu);
        top.push_back(0xfffffffeu);
        QVERIFY(same(top, { 0xfffffffcu, 0xfffffffdu, 0xfffffffeu }));
        QCOMPARE(top.runs(), size_t(1));
    }

    // Random operations against a sorted set.
    void againstASet()
    {
        std::mt19937 rng(11);
        for (int round = 0; round < 200; ++round) {
            RecordList l;
            std::set<uint32_t> want;
            uint32_t next = rng() % 50;
            for (int op = 0; op < 300; ++op) {
                const unsigned what = rng() % 100;
                if (what < 70) { // in order, mostly the next index
                    next += rng() % 4 == 0 ? 1 + rng() % 300 : 0;
                    l.push_back(next);
                    want.insert(next);
                    ++next;
                } else if (what < 85) { // out of order, or again
                    const uint32_t i = rng() % (next + 1);
                    l.push_back(i);
                    want.insert(i);
                } else if (what < 95) {
                    const uint32_t i = rng() % (next + 1);
                    l.erase(i);
                    want.erase(i);
                } else {
                    const uint32_t by = rng() % 1000;
                    l.shift(by);
                    std::set<uint32_t> shifted;
                    for (uint32_t i : want)
                        shifted.insert(i + by);
                    want.swap(shifted);
                    next += by;
                }
                if (!same(l, want))
                    QFAIL(("round " + std::to_string(round) + ", operation " + std::to_string(op))
                              .c_str());
            }
            // Built at once from the same indices, shuffled and repeated.
            std::vector<uint32_t> v(want.begin(), want.end());
            v.insert(v.end(), want.begin(), want.end());
            std::shuffle(v.begin(), v.end(), rng);
            QVERIFY(same(RecordList(v), want));
        }
    }

    // Interleaved records (every other one) cost 2 bytes each, less than the 4 of an index.
    void interleavedIsSmall()
    {
        RecordList l;
        for (uint32_t i = 0; i < 20000; i += 2)
            l.push_back(i);
        l.shrink_to_fit();
        QCOMPARE(l.runs(), size_t(10000));
        QVERIFY2(l.heapBytes() <= 2 * 10000 + 16, std::to_string(l.heapBytes()).c_str());
    }

    // On real traces (../shared/traces and the committed scenario logs): every record that
    // names a compile is in that compile's list, once, and the lists are sorted.
    void realTraces()
    {
        std::vector<std::string> files;
        testsupport::addTraceFiles(DYNASCOPE_SOURCE_DIR "/tests/scenarios/recorded", files);
        const size_t committed = files.size();
        testsupport::addTraceFiles(DYNASCOPE_SHARED_TRACES, files);
        QVERIFY2(committed > 0, "no committed scenario logs under tests/scenarios/recorded");
        if (files.size() == committed)
            qInfo("../shared/traces is absent: the committed scenario logs only");
        size_t compiles = 0;
        for (const std::string& path : files) {
            LoadResult res = load(std::vector<std::string> { path });
            if (!res.trace)
                continue;
            const Trace& t = *res.trace;
            std::vector<size_t> named(t.compiles.size());
            for (const Record& r : t.records)
                if (r.compile != kNone)
                    ++named[r.compile];
            for (const Compile& c : t.compiles) {
                ++compiles;
                size_t n = 0;
                uint32_t prev = 0;
                for (uint32_t r : c.records) {
                    QVERIFY2(n == 0 || r > prev, path.c_str());
                    QVERIFY2(t.records[r].compile == c.index, path.c_str());
                    prev = r;
                    ++n;
                }
                QVERIFY2(n == c.records.size() && n == named[c.index], path.c_str());
            }
        }
        QVERIFY(compiles > 0);
    }
};

QTEST_GUILESS_MAIN(TestRecordList)
#include "tst_recordlist.moc"
