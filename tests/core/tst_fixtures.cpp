// The loader on the project's own fixtures (written by dynascope-fixtures from core/synth): graph
// breaks with resume frames, recompile chains linked to TENSOR_MATCH guards, dynamic shapes,
// failures, compiled autograd ids, ids repeating after a reset, and broken files (cut, CRLF, blank
// lines, bad header JSON, compressed, several ranks).
#include "core/load/loader.h"

#include <QtTest>

#include <filesystem>

using namespace dynascope;

namespace {
std::string fixture(const char* name)
{
    return std::string(DYNASCOPE_FIXTURES_DIR) + "/" + name;
}

std::shared_ptr<const Trace> loadOne(
    const std::string& path, std::vector<Diagnostic>* errors = nullptr)
{
    auto r = load({ path });
    if (errors)
        *errors = r.errors;
    return r.trace;
}

const Compile* byId(const Trace& t, const char* id, int nth = 0)
{
    for (const auto& c : t.compiles)
        if (c.id.display() == id && nth-- == 0)
            return &c;
    return nullptr;
}

bool hasDiagnostic(const Trace& t, DiagnosticCode code)
{
    return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
        [&](const Diagnostic& d) { return d.code == code; });
}
} // namespace

class TestFixtures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!std::filesystem::exists(fixture("graph_break.log")))
            QSKIP("fixtures not generated: run ctest (the make_fixtures test writes them first)");
    }

    void graphBreakLinksResumeFrame()
    {
        auto t = loadOne(fixture("graph_break.log"));
        QVERIFY(t && t->diagnostics.empty());
        const Compile* c = byId(*t, "[0/0]");
        QVERIFY(c);
        QCOMPARE(c->status, CompileStatus::GraphBreak);
        QCOMPARE(c->attempts.size(), size_t(2));
        QCOMPARE(c->graphBreaks.size(), size_t(1));
        const GraphBreak& gb = c->graphBreaks[0];
        QVERIFY(gb.record != kNone);
        QCOMPARE(gb.line, int64_t(19));
        QVERIFY(gb.file.ends_with("train.py"));
        QVERIFY(!gb.reason.empty());
        QVERIFY(!gb.userFrames.empty());
        QCOMPARE(gb.userFrames.back().line, int64_t(19));
        QVERIFY(gb.resumeCompile != kNone);
        const Compile& resume = t->compiles[gb.resumeCompile];
        QCOMPARE(resume.coName, std::string("torch_dynamo_resume_in_step_at_19"));
        QCOMPARE(t->frames[resume.frame].breakOrigin, c->index);
        QCOMPARE(c->timeSource, TimeSource::Chromium);
        QVERIFY(c->durationUs() > 0);
        QVERIFY(!c->phases.empty());
        for (const auto& p : c->phases) {
            QVERIFY2(p.startUs >= c->startUs && p.endUs <= c->endUs, std::string(p.name()).c_str());
        }
    }

    void recompileChainNamesTensorMatchGuards()
    {
        auto t = loadOne(fixture("recompile_chain.log"));
        QVERIFY(t);
        QCOMPARE(t->compiles.size(), size_t(5));
        QCOMPARE(t->recompileCount(), uint64_t(4));
        const int rows[] = { 32, 64, 128, 256, 512 };
        for (size_t i = 1; i < 5; ++i) {
            const Compile& c = t->compiles[i];
            QVERIFY(!c.recompileReasons.empty());
            const RecompileReason& r = c.recompileReasons.front();
            QCOMPARE(r.mismatch, std::string("size"));
            QCOMPARE(r.expected, std::to_string(rows[i - 1]));
            QCOMPARE(r.actual, std::to_string(rows[i]));
            QCOMPARE(r.earlierCompile, uint32_t(i - 1));
            QVERIFY(r.guardNode >= 0);
            const GuardTree& tree = *t->compiles[r.earlierCompile].guards;
            const GuardNode& g = tree.nodes[size_t(r.guardNode)];
            QCOMPARE(g.kind, std::string("TENSOR_MATCH"));
            QCOMPARE(tree.sourceOf(r.guardNode), std::string("L['x']"));
            QVERIFY2(
                g.expr.find("size=[" + std::to_string(rows[i - 1]) + ", ") != std::string::npos,
                g.expr.c_str());
        }
        // All compiles are of one frame.
        QCOMPARE(t->frames.size(), size_t(1));
        QCOMPARE(t->frames[0].compiles.size(), size_t(5));
    }

    void dynamicShapeCompile()
    {
        auto t = loadOne(fixture("dynamic_shape.log"));
        QVERIFY(t);
        const Compile* c = byId(*t, "[0/0]");
        QVERIFY(c && c->guards);
        bool dynamicGuard = false;
        for (const auto& n : c->guards->nodes)
            dynamicGuard
                |= n.kind == "TENSOR_MATCH" && n.expr.find("size=[None, 128]") != std::string::npos;
        QVERIFY(dynamicGuard);
        QVERIFY(!c->shapeEvents.empty());
        bool userLine = false;
        for (const auto& e : c->shapeEvents)
            userLine |= !e.userStack.empty() && e.userStack.back().file.ends_with(".py")
                && e.userStack.back().line > 0;
        QVERIFY2(userLine, "shape events carry the user line that caused them");
    }

    void backendFailure()
    {
        auto t = loadOne(fixture("backend_failure.log"));
        QVERIFY(t);
        QCOMPARE(t->failureCount(), uint64_t(1));
        const Compile& c = t->compiles.front();
        QCOMPARE(c.status, CompileStatus::Error);
        QCOMPARE(c.failure->type, std::string("BackendCompilerFailed"));
        QVERIFY(c.failure->line > 0);
        QVERIFY(!c.failure->file.empty());
        QVERIFY2(c.failure->traceback.find("Traceback") != std::string::npos,
            "dynamo_error artifact attached");
    }

    void compiledAutogradIds()
    {
        auto t = loadOne(fixture("compiled_autograd.log"));
        QVERIFY(t);
        QVERIFY(byId(*t, "[!0/0/0]"));
        QVERIFY(byId(*t, "[!0/1/0]"));
        QVERIFY(byId(*t, "[0/0]"));
        // Different compiled-autograd ids are different frames from the plain frame 0.
        QCOMPARE(byId(*t, "[!0/0/0]")->frame == byId(*t, "[0/0]")->frame, false);
    }

    void idsRepeatAfterReset()
    {
        auto t = loadOne(fixture("reset_ids.log"));
        QVERIFY(t);
        QCOMPARE(t->compiles.size(), size_t(6));
        for (int round = 0; round < 3; ++round) {
            const Compile* f = byId(*t, "[0/0]", round);
            QVERIFY(f);
            QVERIFY(f->metricsRecord != kNone);
            QCOMPARE(f->status, CompileStatus::Ok);
            // Each round's records stay with that round's compile.
            for (uint32_t r : f->records)
                QCOMPARE(t->records[r].compile, f->index);
            if (round > 0)
                QVERIFY(f->startUs > byId(*t, "[0/0]", round - 1)->endUs);
        }
    }

    void legacyForm()
    {
        auto t = loadOne(fixture("legacy_2024.log"));
        QVERIFY(t);
        const Compile* c = byId(*t, "[0/0]");
        QVERIFY(c);
        QCOMPARE(c->graphBreaks.size(), size_t(1));
        QVERIFY(c->graphBreaks[0].record == kNone); // from restart_reasons
        QVERIFY(c->graphBreaks[0].resumeCompile != kNone);
        QVERIFY(c->guards && !c->guards->fromCpp);
        QVERIFY(!c->phases.empty()); // id-less chromium events attached by position
        QCOMPARE(t->failureCount(), uint64_t(1));
    }

    void truncatedKeepsEverythingBefore()
    {
        auto full = loadOne(fixture("recompile_chain.log"));
        auto cut = loadOne(fixture("truncated.log"));
        QVERIFY(full && cut);
        QVERIFY(hasDiagnostic(*cut, DiagnosticCode::TruncatedRecord));
        QCOMPARE(cut->compiles.size(), full->compiles.size());
        QCOMPARE(cut->records.size(), full->records.size());
        for (size_t i = 0; i + 1 < cut->compiles.size(); ++i)
            QCOMPARE(cut->compiles[i].recompileReasons.size(),
                full->compiles[i].recompileReasons.size());
        const auto& diag = cut->diagnostics.front();
        QVERIFY(diag.file.ends_with("truncated.log"));
        QVERIFY(diag.line > 0);
    }

    void crlfAndBlankLinesLoadLikeTheOriginal()
    {
        auto plain = loadOne(fixture("graph_break.log"));
        for (const char* name : { "crlf.log", "blank_lines.log" }) {
            auto t = loadOne(fixture(name));
            QVERIFY(t);
            QCOMPARE(t->compiles.size(), plain->compiles.size());
            QCOMPARE(t->records.size(), plain->records.size());
            QCOMPARE(t->graphBreakCount(), plain->graphBreakCount());
            // blank_lines.log inserts blank lines into payloads: compare the reason's first line.
            auto firstLine = [](const std::string& s) { return s.substr(0, s.find('\n')); };
            QCOMPARE(firstLine(t->compiles[0].graphBreaks[0].reason),
                firstLine(plain->compiles[0].graphBreaks[0].reason));
            QVERIFY(t->compiles[0].guards);
            QCOMPARE(t->compiles[0].guards->nodes.size(), plain->compiles[0].guards->nodes.size());
        }
        auto crlf = loadOne(fixture("crlf.log"));
        QCOMPARE(crlf->verifyPayloads().mismatchesPerFile[0], uint64_t(0));
    }

    void badHeaderIsADiagnosticNotAnError()
    {
        auto t = loadOne(fixture("bad_header_json.log"));
        QVERIFY(t);
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadJson));
        QVERIFY(hasDiagnostic(*t, DiagnosticCode::BadPrefix));
        QCOMPARE(t->files[0].badLines, uint64_t(2));
        // The compile whose dynamo_start broke is rebuilt from its other records.
        auto plain = loadOne(fixture("graph_break.log"));
        QCOMPARE(t->compiles.size(), plain->compiles.size());
        QCOMPARE(t->graphBreakCount(), plain->graphBreakCount());
        for (const auto& d : t->diagnostics)
            QVERIFY(d.line > 0 && d.file.ends_with("bad_header_json.log"));
    }

    void compressedCopiesAreIdentical()
    {
        auto plain = loadOne(fixture("recompile_chain.log"));
        for (const char* name :
            { "recompile_chain.log.zst", "recompile_chain.log.gz", "compressed_no_ext" }) {
            auto t = loadOne(fixture(name));
            QVERIFY(t);
            QVERIFY2(!t->files[0].compression.empty(), name);
            QCOMPARE(t->records.size(), plain->records.size());
            QCOMPARE(t->compiles.size(), plain->compiles.size());
            QCOMPARE(t->payload(t->compiles[1].guardsRecord),
                plain->payload(plain->compiles[1].guardsRecord));
            QCOMPARE(t->compiles[4].recompileReasons[0].text,
                plain->compiles[4].recompileReasons[0].text);
        }
    }

    void twoRankFolder()
    {
        std::vector<Diagnostic> errors;
        auto t = loadOne(fixture("two_ranks"), &errors);
        QVERIFY(errors.empty());
        QCOMPARE(t->files.size(), size_t(2)); // notes.txt ignored
        QCOMPARE(t->files[0].rank, std::optional<int64_t>(0));
        QCOMPARE(t->files[1].rank, std::optional<int64_t>(1));
        for (const auto& c : t->compiles)
            for (uint32_t r : c.records)
                QCOMPARE(t->fileOf(r), c.file);
        LoadOptions newest;
        newest.newestOnly = true;
        auto one = load({ fixture("two_ranks") }, newest);
        QCOMPARE(one.trace->files.size(), size_t(1));
    }

    void unreadableInputs()
    {
        auto r = load({ fixture("does_not_exist.log") });
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY(r.errors[0].file.ends_with("does_not_exist.log"));
        std::filesystem::create_directories(fixture("empty_folder"));
        r = load({ fixture("empty_folder") });
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY(r.errors[0].message.find("dedicated_log_torch_trace") != std::string::npos);
        // Nothing could be read: no trace, so a caller can keep the one it showed (issue 17).
        QVERIFY(!r.trace);
        r = load({ fixture("does_not_exist.log"), fixture("example.log") });
        QCOMPARE(r.errors.size(), size_t(1));
        QVERIFY(r.trace); // what could be read is kept
        QCOMPARE(r.trace->files.size(), size_t(1));
    }

    void cancelStopsEarly()
    {
        std::stop_source stop;
        stop.request_stop();
        auto r = load({ fixture("example.log") }, {}, {}, stop.get_token());
        QVERIFY(r.cancelled);
    }
};

QTEST_GUILESS_MAIN(TestFixtures)
#include "tst_fixtures.moc"
