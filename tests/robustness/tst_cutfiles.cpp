// Cut files: a trace cut at any byte (the process was killed, the copy stopped, the upload was
// truncated) loads without crashing, says that it was cut, and keeps everything before the cut
// exactly as the whole file has it. Fixtures are cut at every line boundary, inside lines,
// inside payloads and inside .zst/.gz streams; a sample of the cuts is also read from disk so the
// mmap path (including page-aligned sizes) is covered.
#include "robustness_helpers.h"

#include "core/io/trace_source.h"
#include "core/writer/compress.h"

using namespace dynascope;
using namespace dynascope::robustness;

namespace {

uint64_t recordEnd(const Record& r)
{
    return r.payloadLength ? r.payloadOffset() + r.payloadLength : r.offset + r.headerLength;
}

// Compares the model of `bytes[0, k)` with the model of the whole file. Returns "" when the cut
// keeps everything before it, or what differs.
std::string checkCut(const Trace& full, const Trace& cut, uint64_t k, bool requireDiagnostic)
{
    std::string v = fuzz::checkTrace(cut, false);
    if (!v.empty())
        return v;
    const auto& fr = full.records;
    const auto& cr = cut.records;
    size_t headers = 0; // full records whose header line is complete before the cut
    while (headers < fr.size() && fr[headers].offset + fr[headers].headerLength <= k)
        ++headers;
    if (cr.size() != headers && cr.size() != headers + 1)
        return "has " + std::to_string(cr.size()) + " records, expected " + std::to_string(headers);
    for (size_t r = 0; r < headers; ++r) {
        const Record &a = fr[r], &b = cr[r];
        if (a.offset != b.offset || a.line != b.line || a.headerLength != b.headerLength
            || full.kindName(uint32_t(r)) != cut.kindName(uint32_t(r)))
            return "record " + std::to_string(r) + " differs";
        const bool payloadBeforeCut = r + 1 < fr.size() && fr[r + 1].offset <= k;
        if (payloadBeforeCut ? a.payloadLength != b.payloadLength
                             : b.payloadLength > a.payloadLength)
            return "record " + std::to_string(r) + " payload length differs";
        const uint32_t fc = a.compile;
        // Records after their compile's dynamo_start stay with it; records before it (pre-start
        // records waiting for the dynamo_start) may settle elsewhere when that start is cut off.
        if (fc != kNone && full.compiles[fc].startRecord != kNone
            && full.compiles[fc].startRecord <= r && b.compile != fc
            && full.kindName(uint32_t(r)) != "chromium_event")
            return "record " + std::to_string(r) + " moved from compile " + std::to_string(fc)
                + " to " + std::to_string(b.compile);
    }
    if (cut.compiles.size() > full.compiles.size())
        return "more compiles than the whole file";
    for (size_t i = 0; i < cut.compiles.size(); ++i) {
        const Compile &a = full.compiles[i], &b = cut.compiles[i];
        if (a.id.display() != b.id.display() || a.startRecord != b.startRecord)
            return "compile " + std::to_string(i) + " differs";
        if (a.metricsRecord != kNone && a.metricsRecord + 1 < headers
            && (b.metricsRecord != a.metricsRecord || b.coName != a.coName
                || b.failure.has_value() != a.failure.has_value()))
            return "compile " + std::to_string(i) + " lost its metrics";
    }
    // The full record the cut falls in: if the cut is inside it, the cut must be reported.
    if (requireDiagnostic && !fr.empty()) {
        size_t last = headers < fr.size() && fr[headers].offset < k ? headers : headers - 1;
        if (headers == 0 && !(fr[0].offset < k))
            return {};
        const Record& r = fr[last];
        const bool insideHeader = k < r.offset + r.headerLength;
        if (k < recordEnd(r) && (insideHeader || r.hasPayload())
            && !hasDiagnostic(cut, DiagnosticCode::TruncatedRecord)
            && !(k >= r.offset + r.headerLength && k <= r.payloadOffset()
                && hasDiagnostic(cut, DiagnosticCode::MissingPayload)))
            return "no diagnostic about the cut inside record " + std::to_string(last) + ":\n"
                + diagnosticsText(cut);
    }
    return {};
}

} // namespace

class TestCutFiles : public QObject {
    Q_OBJECT

    // Cuts `name` at `offsets`, in memory; every `diskEvery`-th cut also through load() from disk.
    void cutAt(const char* name, const std::vector<uint64_t>& offsets, size_t diskEvery)
    {
        const std::string bytes = readAll(fixturePath(name));
        QVERIFY(!bytes.empty());
        auto full = loadBytes(bytes);
        QVERIFY(full.trace);
        VERIFY_INVARIANTS(*full.trace);
        const std::string tmp = QDir::tempPath().toStdString() + "/dynascope_cut_" + name;
        size_t n = 0;
        for (uint64_t k : offsets) {
            if (k > bytes.size())
                continue;
            auto cut = loadBytes(std::string_view(bytes).substr(0, k));
            QVERIFY(cut.trace);
            std::string why = checkCut(*full.trace, *cut.trace, k, true);
            QVERIFY2(why.empty(),
                (std::string(name) + " cut at " + std::to_string(k) + ": " + why).c_str());
            if (diskEvery && n++ % diskEvery == 0) {
                writeAll(tmp, std::string_view(bytes).substr(0, k));
                auto r = load({ tmp });
                QVERIFY(r.errors.empty() && r.trace);
                why = checkCut(*full.trace, *r.trace, k, true);
                QVERIFY2(why.empty(),
                    (std::string(name) + " read from disk, cut at " + std::to_string(k) + ": "
                        + why)
                        .c_str());
            }
        }
        std::filesystem::remove(tmp);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!std::filesystem::exists(fixturePath("graph_break.log")))
            QSKIP("fixtures not generated: run ctest (the make_fixtures test writes them first)");
    }

    // Every line boundary (after each '\n') of small fixtures, and three offsets inside each
    // line: just after its first byte, its middle, just before its end. Payload lines are lines,
    // so this cuts inside every payload too.
    void cutAtEveryLineBoundaryAndInsideLines_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : { "graph_break.log", "legacy_2024.log", "crlf.log",
                 "backend_failure.log", "compiled_autograd.log" })
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void cutAtEveryLineBoundaryAndInsideLines()
    {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const std::string bytes = readAll(fixturePath(n));
        std::vector<uint64_t> offsets { 0 };
        uint64_t start = 0;
        for (uint64_t i = 0; i < bytes.size(); ++i) {
            if (bytes[i] != '\n')
                continue;
            const uint64_t len = i - start;
            for (uint64_t k : { start + 1, start + len / 2, i > 0 ? i - 1 : 0, i, i + 1 })
                if (k > start || k == i + 1)
                    offsets.push_back(k);
            start = i + 1;
        }
        std::sort(offsets.begin(), offsets.end());
        offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
        QVERIFY(offsets.size() > 500);
        cutAt(n.c_str(), offsets, 40);
    }

    // File sizes that are multiples of the page size: the JSON parser's padding after the last
    // line is then past the mapping and the loader must copy that line.
    void pageAlignedCutsFromDisk()
    {
        std::vector<uint64_t> offsets;
        for (uint64_t k = 4096; k < 330000; k += 4096)
            offsets.push_back(k);
        cutAt("example.log", offsets, 1);
    }

    // Cut .gz and .zst streams: the bytes that decompressed are kept (they are a prefix of the
    // plain file), the cut is reported, and the model of that prefix keeps what the whole has.
    void cutCompressedStreams_data()
    {
        QTest::addColumn<QString>("plain");
        QTest::addColumn<bool>("zstd");
        QTest::newRow("recompile_chain.gz") << QStringLiteral("recompile_chain.log") << false;
        QTest::newRow("recompile_chain.zst") << QStringLiteral("recompile_chain.log") << true;
        QTest::newRow("example.zst (several blocks)") << QStringLiteral("example.log") << true;
        QTest::newRow("example.gz") << QStringLiteral("example.log") << false;
    }
    void cutCompressedStreams()
    {
        QFETCH(QString, plain);
        QFETCH(bool, zstd);
        const std::string text = readAll(fixturePath(plain.toStdString()));
        const std::string packed = zstd ? compressZstd(text, 3) : compressGzip(text);
        auto full = loadBytes(text);
        QVERIFY(full.trace);
        std::vector<uint64_t> offsets;
        for (uint64_t k = 0; k < 24 && k < packed.size(); ++k)
            offsets.push_back(k);
        for (uint64_t k = 24; k < packed.size(); k += std::max<uint64_t>(1, packed.size() / 150))
            offsets.push_back(k);
        for (uint64_t k = packed.size() > 24 ? packed.size() - 24 : 0; k < packed.size(); ++k)
            offsets.push_back(k);
        uint64_t lastDecoded = 0;
        const std::string tmp = QDir::tempPath().toStdString() + "/dynascope_cut_"
            + plain.toStdString() + (zstd ? ".zst" : ".gz");
        size_t n = 0;
        for (uint64_t k : offsets) {
            const std::string_view bytes = std::string_view(packed).substr(0, k);
            auto cut = loadBytes(bytes);
            const std::string at
                = " (cut at " + std::to_string(k) + " of " + std::to_string(packed.size()) + ")";
            if (!cut.trace) {
                // Only a stream too short to be recognised at all may fail outright.
                QVERIFY2(!cut.ioError.empty(), at.c_str());
                continue;
            }
            if (InputBuffer::sniff(bytes) == InputBuffer::Compression::None) {
                // Too short for the magic bytes: read as (garbage) text.
                VERIFY_INVARIANTS(*cut.trace);
                continue;
            }
            const std::string decoded = cut.trace->files[0].source->readAll();
            QVERIFY2(std::string_view(text).substr(0, decoded.size()) == decoded,
                ("decoded bytes are not a prefix of the file" + at).c_str());
            QVERIFY2(!cut.ioError.empty(), ("the cut is not reported" + at).c_str());
            QVERIFY2(decoded.size() >= lastDecoded, ("a longer cut decoded less" + at).c_str());
            lastDecoded = decoded.size();
            std::string why = checkCut(*full.trace, *cut.trace, decoded.size(), true);
            QVERIFY2(why.empty(), (why + at).c_str());
            if (n++ % 25 == 0) {
                // Through the loader, the stream's error is a diagnostic of the file.
                writeAll(tmp, bytes);
                auto r = load({ tmp });
                QVERIFY(r.trace);
                bool reported = std::any_of(r.trace->diagnostics.begin(),
                    r.trace->diagnostics.end(), [&](const Diagnostic& d) {
                        return d.code == DiagnosticCode::TruncatedRecord && d.file == tmp
                            && d.message.find("cut short") != std::string::npos;
                    });
                QVERIFY2(reported, (diagnosticsText(*r.trace) + at).c_str());
            }
        }
        // What decoded before the cut survives a cut near the end. zstd decodes whole blocks
        // (128 KiB), so a smaller file cut anywhere keeps nothing; gzip streams byte by byte.
        if (!zstd || text.size() > (256u << 10))
            QVERIFY2(lastDecoded > text.size() / 2, std::to_string(lastDecoded).c_str());
        std::filesystem::remove(tmp);
    }
};

QTEST_GUILESS_MAIN(TestCutFiles)
#include "tst_cutfiles.moc"
