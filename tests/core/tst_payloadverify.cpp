// Payload verification done while the chunks of a file are scanned (LoadOptions::verifyPayloads,
// core/load/chunk_scan.h) finds exactly what the check after the load finds (Trace::verifyPayloads
// reading every payload of a trace loaded without it): the same count per file and the same
// diagnostics in the same order, at every chunk size and thread count; and both agree with the
// check as it was first written (record by record, OpenSSL, Trace::payload). On planted mismatches
// (the md5_mismatches shape, past the 20 listed one by one; edited payloads of a scale trace),
// on payloads of several KB that the nominal chunk boundaries fall inside (chunks of 64 bytes to
// 64 KB), on the edge cases of payload decoding (blank lines inside a payload, CRLF, a missing
// payload, a cut last record, the record limit), and on the real traces of ../shared/traces. The
// scanner decodes each payload as it finds its lines, and hands the records whose text has two
// readings (a blank line inside) to the record-by-record check: the edge cases cover both.
#include "core/io/input_buffer.h"
#include "core/load/finish/append_trace.h"
#include "core/load/loader.h"
#include "core/load/trace/file_builder.h"
#include "core/synth/pathological.h"
#include "core/synth/scale_trace.h"
#include "core/util/md5.h"
#include "core/writer/summary_json.h"

#include "tests/support/trace_files.h"

#include <QtTest>

#include <filesystem>
#include <sstream>

using namespace dynascope;
namespace fs = std::filesystem;

namespace {
const std::string kPrefix = "V0314 10:41:02.000000 4242 torch/_dynamo/convert_frame.py:1] ";

// Counts and diagnostics of a check, as text (QCOMPARE shows the first difference).
QStringList describe(const Trace::PayloadCheck& check)
{
    QStringList out;
    for (uint64_t n : check.mismatchesPerFile)
        out << QStringLiteral("mismatches %1").arg(n);
    for (const Diagnostic& d : check.diagnostics)
        out << QString::fromStdString(d.format());
    return out;
}

// The check as it was written before the loader did it, record by record: the payload text
// (Trace::payload), its MD5 by OpenSSL, against the last has_payload value of the header JSON.
// Per file: the lines of the records that do not match.
std::vector<std::vector<uint64_t>> oracle(const Trace& t)
{
    std::vector<std::vector<uint64_t>> out(t.files.size());
    for (size_t fi = 0; fi < t.files.size(); ++fi) {
        const TraceFile& f = t.files[fi];
        for (uint32_t r = f.firstRecord; r < f.firstRecord + f.recordCount; ++r) {
            if (!t.records[r].hasPayload() || (t.records[r].flags & kTruncated))
                continue;
            const std::string json = t.headerJson(r);
            size_t p = json.rfind("\"has_payload\"");
            std::string want;
            if (p != std::string_view::npos && (p = json.find('"', p + 13)) != json.npos) {
                const size_t e = json.find('"', p + 1);
                if (e != json.npos)
                    want = json.substr(p + 1, e - p - 1);
            }
            if (md5Hex(t.payload(r)) != want)
                out[fi].push_back(t.records[r].line);
        }
    }
    return out;
}

// Whether `check` says what the oracle says: the counts, and the lines of those listed.
bool agreesWithOracle(const Trace& t, const Trace::PayloadCheck& check)
{
    const auto lines = oracle(t);
    size_t d = 0;
    for (size_t fi = 0; fi < lines.size(); ++fi) {
        if (check.mismatchesPerFile[fi] != lines[fi].size())
            return false;
        for (size_t k = 0; k < std::min<size_t>(lines[fi].size(), 20); ++k) {
            while (d < check.diagnostics.size() && check.diagnostics[d].file != t.files[fi].path)
                ++d;
            if (d == check.diagnostics.size() || check.diagnostics[d].line != lines[fi][k])
                return false;
            ++d;
        }
    }
    return true;
}

struct BuildSettings {
    unsigned threads = 1;
    uint64_t chunkBytes = 1ull << 40; // one chunk
    bool verify = false;
    uint64_t maxRecords = kMaxIndex - 1;
};

std::unique_ptr<Trace> build(
    const std::string& path, std::shared_ptr<const InputBuffer> buffer, const BuildSettings& s)
{
    FileBuildInput in { path, std::move(buffer), {}, {} };
    in.threads = s.threads;
    in.chunkBytes = s.chunkBytes;
    in.verifyPayloads = s.verify;
    in.maxRecords = s.maxRecords;
    auto part = buildFile(in);
    auto t = std::make_unique<Trace>();
    appendTrace(*t, std::move(*part));
    return t;
}

// The check after an unverified one-pass load, against in-scan checks at several chunk sizes
// and thread counts. Returns the check (for the caller's own expectations).
Trace::PayloadCheck compareAll(
    const std::string& path, const std::shared_ptr<const InputBuffer>& buffer, uint64_t maxRecords)
{
    BuildSettings plain;
    plain.maxRecords = maxRecords;
    auto after = build(path, buffer, plain);
    if (after->files[0].payloadMismatches)
        qFatal("an unverified load recorded payload mismatches");
    const Trace::PayloadCheck want = after->verifyPayloads();
    if (!agreesWithOracle(*after, want))
        QTest::qFail((path + ": the check after the load differs from the oracle").c_str(),
            __FILE__, __LINE__);
    const std::string wantJson = summaryJson(*after);
    for (unsigned threads : { 1u, 2u, 3u }) {
        for (uint64_t chunk :
            { uint64_t(64), uint64_t(4096), uint64_t(65536), uint64_t(1) << 40 }) {
            if (chunk == 64 && buffer->size() > (1u << 20))
                continue; // slow on big files; 4 KB chunks still fall inside most payloads
            BuildSettings s { threads, chunk, true, maxRecords };
            auto t = build(path, buffer, s);
            const std::string where = path + ": " + std::to_string(threads) + " threads, chunks of "
                + std::to_string(chunk);
            if (!t->files[0].payloadMismatches) {
                QTest::qFail((where + ": the scan did not verify").c_str(), __FILE__, __LINE__);
                return want;
            }
            const QStringList got = describe(t->verifyPayloads());
            if (got != describe(want)) {
                QTest::qFail((where + ": in-scan check differs:\n"
                                 + got.join(QLatin1Char('\n')).toStdString() + "\nwant:\n"
                                 + describe(want).join(QLatin1Char('\n')).toStdString())
                                 .c_str(),
                    __FILE__, __LINE__);
                return want;
            }
            if (summaryJson(*t) != wantJson) {
                QTest::qFail((where + ": summary differs").c_str(), __FILE__, __LINE__);
                return want;
            }
        }
    }
    return want;
}

std::shared_ptr<const InputBuffer> bytesBuffer(const std::string& text)
{
    std::string error;
    auto b = InputBuffer::fromBytes(text, 1ull << 32, error);
    if (!b)
        qFatal("%s", error.c_str());
    return b;
}

// A record of kind `kind` whose header declares `hash` and whose payload lines are `lines` as
// written (each with its leading tab, or blank), ending in `eol`.
std::string record(const std::string& kind, const std::string& hash,
    const std::vector<std::string>& lines, const std::string& eol = "\n")
{
    std::string s = kPrefix + "{\"artifact\": {\"name\": \"" + kind
        + "\", \"encoding\": \"string\"}, \"has_payload\": \"" + hash + "\"}" + eol;
    for (const auto& l : lines)
        s += l + eol;
    return s;
}

// Payload lines (tab-prefixed) of `text`, and its MD5.
std::vector<std::string> payloadLines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back("\t" + l);
    return out;
}

std::string bigText(int lines, int seed)
{
    std::string t;
    for (int i = 0; i < lines; ++i) {
        if (i)
            t += '\n';
        t += "    x_" + std::to_string(i) + " = torch.ops.aten.add(x_" + std::to_string(i + seed)
            + ", 1)  # some graph code to make a long line";
    }
    return t;
}

void addSharedTraces(std::vector<std::string>& out)
{
    testsupport::addTraceFiles(DYNASCOPE_SHARED_TRACES, out);
}
} // namespace

class TestPayloadVerify : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The md5_mismatches shape: every payload mismatches, so the 20 listed and the aggregate of
    // the rest (its line range) must both come out the same.
    void plantedMismatches()
    {
        const std::string text = synth::makePathological("md5_mismatches", 256u << 10);
        const auto want = compareAll("md5.log", bytesBuffer(text), kMaxIndex - 1);
        QCOMPARE(want.mismatchesPerFile.size(), size_t(1));
        QVERIFY(want.mismatchesPerFile[0] > 1000);
        QCOMPARE(want.diagnostics.size(), size_t(21)); // 20 listed, one that counts the rest
        QVERIFY(want.diagnostics.back().message.find("not listed one by one") != std::string::npos);
    }

    // Records past the record limit are not read, so not checked either.
    void recordLimit()
    {
        const std::string text = synth::makePathological("md5_mismatches", 64u << 10);
        const auto want = compareAll("md5.log", bytesBuffer(text), 30);
        QCOMPARE(want.mismatchesPerFile[0], uint64_t(30));
    }

    // The edge cases of reading a payload, each next to payloads of several KB that chunk
    // boundaries fall inside.
    void decodingEdgeCases()
    {
        const std::string big = bigText(200, 1), big2 = bigText(150, 7);
        std::string t;
        t += record("ok", md5Hex(big), payloadLines(big));
        t += record("edited", md5Hex(big2), payloadLines(big2 + " edited"));
        // A blank line a tool inserted (skipped), and one whose lone tab an editor stripped
        // (kept: the hash says which reading is meant).
        t += record("blank_inserted", md5Hex("a\nb"), { "\ta", "", "\tb" });
        t += record("blank_stripped", md5Hex("a\n\nb"), { "\ta", "", "\tb" });
        t += record("blank_neither", md5Hex("a\nc"), { "\ta", "", "\tb" });
        // Blank lines before the first payload line, a line of a lone tab (not blank), a line
        // of a lone CR (blank), a blank line after the last payload line (not in the payload).
        t += record("blank_first_kept", md5Hex("\na"), { "", "\ta" });
        t += record("blank_first_skipped", md5Hex("a"), { "", "", "\ta" });
        t += record("lone_tab", md5Hex("a\n\nb"), { "\ta", "\t", "\tb" });
        t += record("lone_cr", md5Hex("a\nb"), { "\ta", "\r", "\tb" });
        t += record("blank_after", md5Hex("a\nb"), { "\ta", "\tb", "" });
        t += record("crlf", md5Hex(big2), payloadLines(big2), "\r\n");
        t += record("crlf_edited", md5Hex(big), payloadLines(big + "!"), "\r\n");
        t += record("missing", md5Hex("x"), {});
        t += record("empty_declared", md5Hex(""), {});
        t += record("ok2", md5Hex(big2), payloadLines(big2));
        t += "\n\n"; // blank lines between records
        t += record("after_blanks", md5Hex("y"), { "\tz" });
        const auto want = compareAll("edges.log", bytesBuffer(t), kMaxIndex - 1);
        QCOMPARE(want.mismatchesPerFile[0], uint64_t(5)); // edited, blank_neither, crlf_edited,
                                                          // missing, after_blanks

        // Cut inside the last payload: that record is truncated and not checked.
        std::string cut = t + record("cut", md5Hex(big), payloadLines(big));
        cut.resize(cut.size() - 40);
        const auto cutWant = compareAll("cut.log", bytesBuffer(cut), kMaxIndex - 1);
        QCOMPARE(cutWant.mismatchesPerFile[0], uint64_t(5));
    }

    // A scale trace (graph payloads of several KB) with some payloads edited.
    void editedScaleTrace()
    {
        std::ostringstream out;
        ScaleTraceOptions o;
        o.targetBytes = 3u << 20;
        writeScaleTrace(out, o);
        std::string text = out.str();
        // Edit a letter in every 97th payload line: those records no longer match.
        size_t edited = 0, payloadLine = 0;
        for (size_t pos = 0; pos < text.size();) {
            size_t nl = text.find('\n', pos);
            if (nl == std::string::npos)
                break;
            if (text[pos] == '\t' && ++payloadLine % 97 == 0) {
                for (size_t i = pos + 1; i < nl; ++i)
                    if (text[i] >= 'a' && text[i] <= 'y') {
                        ++text[i];
                        ++edited;
                        break;
                    }
            }
            pos = nl + 1;
        }
        QVERIFY(edited > 20);
        const auto want = compareAll("scale.log", bytesBuffer(text), kMaxIndex - 1);
        QVERIFY(want.mismatchesPerFile[0] > 20);
    }

    void realTraces_data()
    {
        QTest::addColumn<QString>("path");
        std::vector<std::string> files;
        addSharedTraces(files);
        if (files.empty())
            QSKIP("no ../shared/traces (the real traces from tlparse); nothing to compare");
        for (const auto& f : files)
            QTest::newRow(f.c_str()) << QString::fromStdString(f);
    }
    void realTraces()
    {
        QFETCH(QString, path);
        std::string error;
        auto buffer = InputBuffer::open(path.toStdString(), 1ull << 32, error);
        QVERIFY2(buffer, error.c_str());
        compareAll(path.toStdString(), buffer, kMaxIndex - 1);
    }

    // A clean real trace: many payloads, all match, through the loader as the CLI calls it.
    void cleanRealTrace()
    {
        const fs::path path
            = fs::path(DYNASCOPE_SHARED_TRACES) / "tlparse/tests/inputs/cache_hit_miss.log";
        if (!fs::exists(path))
            QSKIP(
                "no ../shared/traces/tlparse/tests/inputs/cache_hit_miss.log (a clean real trace)");
        LoadOptions o;
        o.verifyPayloads = true;
        auto verified = load({ path.string() }, o);
        QVERIFY(verified.trace && verified.errors.empty());
        QVERIFY(verified.trace->files[0].payloadMismatches);
        const auto check = verified.trace->verifyPayloads();
        QCOMPARE(check.mismatchesPerFile, std::vector<uint64_t> { 0 });
        QVERIFY(check.diagnostics.empty());
        const auto withPayload = std::count_if(verified.trace->records.begin(),
            verified.trace->records.end(), [](const Record& r) { return r.hasPayload(); });
        QVERIFY(withPayload > 100); // 159
        auto plain = load({ path.string() });
        QVERIFY(!plain.trace->files[0].payloadMismatches);
        QCOMPARE(summaryJson(*verified.trace), summaryJson(*plain.trace));
        QVERIFY(agreesWithOracle(*verified.trace, verified.trace->verifyPayloads()));
    }

    // Through load(): several files (each checked by its own scan, indices shifted by the
    // merge) and TORCH_LOGS text (no scan of that kind: checked afterwards), same as after.
    void loaderFolders_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("fixtures") << QStringLiteral(DYNASCOPE_FIXTURES_DIR);
        const fs::path shared = DYNASCOPE_SHARED_TRACES;
        for (const char* sub : { "tlparse/tests/inputs/multi_rank_logs",
                 "tlparse/tests/inputs/multi_rank_messy_input", "tlparse/tests/inputs" })
            if (fs::is_directory(shared / sub))
                QTest::newRow(sub) << QString::fromStdString((shared / sub).string());
    }
    void loaderFolders()
    {
        QFETCH(QString, path);
        std::vector<std::string> inputs;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(path.toStdString(), ec))
            if (e.is_regular_file(ec) && e.file_size(ec) < (8u << 20))
                inputs.push_back(e.path().string());
        std::sort(inputs.begin(), inputs.end());
        if (inputs.empty())
            QSKIP("no files (run ctest: make_fixtures writes the fixtures)");
        LoadOptions o;
        o.run = RunChoice::All;
        auto plain = load(inputs, o);
        o.verifyPayloads = true;
        auto verified = load(inputs, o);
        QVERIFY(plain.trace && verified.trace);
        QCOMPARE(verified.trace->files.size(), plain.trace->files.size());
        QCOMPARE(
            describe(verified.trace->verifyPayloads()), describe(plain.trace->verifyPayloads()));
        QCOMPARE(summaryJson(*verified.trace), summaryJson(*plain.trace));
        QVERIFY(agreesWithOracle(*verified.trace, verified.trace->verifyPayloads()));
    }
};

QTEST_GUILESS_MAIN(TestPayloadVerify)
#include "tst_payloadverify.moc"
