// Following a trace while it is written (core/load/live_trace.h), on logs PyTorch wrote: the
// committed scenario logs are written into a folder piece by piece, cut anywhere (inside lines,
// inside payloads), the second rank's file appearing half-way; after each piece the follower
// polls and loads what it has. Every snapshot shows each compile once, keeps what the one before
// showed, and the last one is what opening the finished folder shows. Only appended bytes are
// read. Files replaced, truncated or vanishing while followed are said and read again.
#include "scenario_suite.h"

#include "core/io/input_buffer.h"
#include "core/load/live_trace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

using namespace dynascope;
using namespace scenarios;

namespace {

std::string decoded(const QString& path)
{
    std::string error;
    auto buffer = InputBuffer::open(path.toStdString(), 1ull << 30, error);
    return buffer ? std::string(buffer->view()) : std::string();
}

void append(const std::string& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// "file:id" of every compile: unique within a snapshot when each is shown once.
std::vector<std::string> compileKeys(const Trace& t)
{
    std::vector<std::string> keys;
    for (const Compile& c : t.compiles)
        keys.push_back(t.files[c.file].path + ":" + c.id.display() + ":"
            + std::to_string(c.startRecord == kNone ? 0 : t.records[c.startRecord].line));
    return keys;
}

bool hasMessage(const Trace& t, const std::string& part)
{
    return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
        [&](const Diagnostic& d) { return d.message.find(part) != std::string::npos; });
}

} // namespace

class TestLiveTrace : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scenarios_data() { addScenarioRows(); }

    void scenarios()
    {
        QFETCH(QString, name);
        const QDir source(suiteDir() + u'/' + name);
        const QStringList logs
            = source.entryList({ u"dedicated_log_torch_trace*"_qs }, QDir::Files, QDir::Name);
        QVERIFY(!logs.isEmpty());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string folder = dir.path().toStdString() + "/run";

        // The folder does not exist yet (the program has not started): nothing, no error.
        LiveTrace live({ folder });
        QVERIFY(!live.poll().changed);
        QVERIFY(!live.snapshot().trace);
        std::filesystem::create_directory(folder);

        std::vector<std::pair<std::string, std::string>> files; // target, content
        uint64_t total = 0;
        for (const QString& log : logs) {
            QString plain = log;
            plain.remove(u".zst"_qs);
            files.emplace_back(folder + "/" + plain.toStdString(), decoded(source.filePath(log)));
            QVERIFY(!files.back().second.empty());
            total += files.back().second.size();
        }
        // Pieces cut anywhere: 12 per file, at seeded random places; the files are written one
        // after the other, so a second rank's file appears half-way through the run.
        std::mt19937 rng(7);
        std::vector<std::pair<size_t, size_t>> steps; // file, end of the piece
        for (size_t f = 0; f < files.size(); ++f) {
            std::vector<size_t> cuts { files[f].second.size() };
            for (int k = 0; k < 11; ++k)
                cuts.push_back(rng() % files[f].second.size());
            std::sort(cuts.begin(), cuts.end());
            for (size_t cut : cuts)
                steps.emplace_back(f, cut);
        }
        std::vector<size_t> written(files.size(), 0);
        std::set<std::string> seen;
        size_t lastRecords = 0;
        int snapshots = 0;
        for (const auto& [f, end] : steps) {
            if (end > written[f]) {
                append(files[f].first,
                    std::string_view(files[f].second).substr(written[f], end - written[f]));
                written[f] = end;
            }
            if (!live.poll().changed)
                continue;
            const LoadResult r = live.snapshot();
            if (!r.trace)
                continue;
            ++snapshots;
            const std::vector<std::string> keys = compileKeys(*r.trace);
            const std::set<std::string> unique(keys.begin(), keys.end());
            QCOMPARE(unique.size(), keys.size()); // each compile once
            for (const std::string& k : seen) // what was shown stays shown
                QVERIFY2(unique.contains(k), k.c_str());
            seen = unique;
            QVERIFY(r.trace->records.size() >= lastRecords);
            lastRecords = r.trace->records.size();
        }
        QVERIFY(snapshots >= 3);
        // Every byte was read once: what was appended, never the whole file again.
        QCOMPARE(live.totalBytesRead(), total);
        QCOMPARE(live.bytesHeld(), total);

        // The last snapshot is what opening the finished folder shows.
        const LoadResult last = live.snapshot();
        const LoadResult opened = load({ folder });
        QVERIFY(last.trace && opened.trace);
        QCOMPARE(last.trace->files.size(), opened.trace->files.size());
        QCOMPARE(last.trace->records.size(), opened.trace->records.size());
        QCOMPARE(compileKeys(*last.trace), compileKeys(*opened.trace));
        for (size_t i = 0; i < opened.trace->compiles.size(); ++i) {
            const Compile& a = last.trace->compiles[i];
            const Compile& b = opened.trace->compiles[i];
            QCOMPARE(a.status, b.status);
            QCOMPARE(a.startUs, b.startUs);
            QCOMPARE(a.endUs, b.endUs);
            QCOMPARE(a.graphBreaks.size(), b.graphBreaks.size());
            QCOMPARE(a.recompileReasons.size(), b.recompileReasons.size());
        }
        QCOMPARE(last.trace->diagnostics.size(), opened.trace->diagnostics.size());
        QVERIFY(!live.poll().changed); // nothing new
        QCOMPARE(live.totalBytesRead(), total);
    }

    // A compile whose compilation_metrics has not been written yet is shown as it is so far,
    // and is the same compile (not a second one) once its end arrives.
    void compileInProgressBecomesComplete()
    {
        const QString path = suiteDir() + u"/example/dedicated_log_torch_trace.log.zst"_qs;
        const std::string text = decoded(path);
        QVERIFY(!text.empty());
        const size_t metrics = text.find("\"compilation_metrics\"");
        QVERIFY(metrics != std::string::npos);
        const size_t lineStart = text.rfind('\n', metrics) + 1;
        QTemporaryDir dir;
        const std::string file = dir.path().toStdString() + "/dedicated_log_torch_trace.log";
        append(file, std::string_view(text).substr(0, lineStart));
        LiveTrace live({ file });
        QVERIFY(live.poll().changed);
        const LoadResult before = live.snapshot();
        QVERIFY(before.trace && !before.trace->compiles.empty());
        const size_t n = before.trace->compiles.size();
        append(file, std::string_view(text).substr(lineStart));
        QVERIFY(live.poll().changed);
        const LoadResult after = live.snapshot();
        QVERIFY(after.trace->compiles.size() >= n);
        for (size_t i = 0; i < n; ++i)
            QCOMPARE(after.trace->compiles[i].id.display(), before.trace->compiles[i].id.display());
        QVERIFY(after.trace->compiles[n - 1].metricsRecord != kNone);
    }

    // Truncated (a job restarted with the same file name), replaced (another inode at the path),
    // removed: each is said, and what is shown is the file as it is now.
    void replacedTruncatedAndVanished()
    {
        const QString path = suiteDir() + u"/example/dedicated_log_torch_trace.log.zst"_qs;
        const std::string text = decoded(path);
        QTemporaryDir dir;
        const std::string file = dir.path().toStdString() + "/dedicated_log_torch_trace.log";
        append(file, text);
        LiveTrace live({ dir.path().toStdString() });
        QVERIFY(live.poll().changed);
        const size_t full = live.snapshot().trace->records.size();

        const size_t half = text.find('\n', text.size() / 2) + 1;
        std::filesystem::resize_file(file, half);
        QVERIFY(live.poll().changed);
        LoadResult r = live.snapshot();
        QVERIFY(r.trace->records.size() < full);
        QVERIFY(hasMessage(*r.trace, "the file shrank while it was followed"));

        const std::string other = file + ".new";
        append(other, text);
        std::filesystem::rename(other, file); // another inode, bigger again
        QVERIFY(live.poll().changed);
        r = live.snapshot();
        QCOMPARE(r.trace->records.size(), full);
        QVERIFY(hasMessage(*r.trace, "the file was replaced while it was followed"));

        std::filesystem::remove(file);
        QVERIFY(!live.poll().changed);
        r = live.snapshot();
        QCOMPARE(r.trace->records.size(), full); // kept what was read
        QVERIFY(hasMessage(*r.trace, "the file vanished while it was followed"));
    }
};

QTEST_GUILESS_MAIN(TestLiveTrace)
#include "tst_livetrace.moc"
