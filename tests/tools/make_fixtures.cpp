// dynascope-fixtures: writes the test fixtures from core/synth into a folder, plus byte-level
// variants made from them (cut mid-payload, CRLF, blank lines, a broken header, compressed
// copies, a two-rank folder), or only the bundled example with --example FILE.
#include "core/synth/rank_folder.h"
#include "core/synth/scenarios.h"
#include "core/writer/compress.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace dynascope;

namespace {

std::string render(const std::function<void(std::ostream&)>& fn)
{
    std::ostringstream out;
    fn(out);
    return out.str();
}

void writeFile(const fs::path& path, const std::string& bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f)
        throw std::runtime_error("cannot open " + path.string() + " for writing");
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f)
        throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::string::size_type pos = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string::npos) {
            lines.push_back(text.substr(pos));
            break;
        }
        lines.push_back(text.substr(pos, nl - pos));
        pos = nl + 1;
    }
    return lines;
}

// Cut inside the payload of the last record that has one: keep half of its second payload line,
// no newline at the end (the process was killed mid-write).
std::string truncateMidPayload(const std::string& text)
{
    auto lines = splitLines(text);
    size_t header = 0;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find("\"has_payload\"") != std::string::npos && lines[i][0] != '\t')
            header = i;
    size_t cutLine = std::min(header + 2, lines.size() - 1);
    std::string out;
    for (size_t i = 0; i < cutLine; ++i)
        out += lines[i] + "\n";
    out += lines[cutLine].substr(0, lines[cutLine].size() / 2);
    return out;
}

std::string toCrlf(const std::string& text)
{
    std::string out;
    out.reserve(text.size() + text.size() / 20);
    for (char c : text) {
        if (c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

// Blank lines between records and between payload lines; the first empty payload line (a lone
// tab) loses its tab, as some editors do.
std::string withBlankLines(const std::string& text)
{
    auto lines = splitLines(text);
    std::string out;
    bool lostTab = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (i > 0 && i % 7 == 0)
            out += "\n";
        if (!lostTab && l == "\t") {
            lostTab = true;
            out += "\n";
            continue;
        }
        out += l + "\n";
        if (l.rfind("V", 0) == 0 && l.find("\"dynamo_start\"") != std::string::npos)
            out += "\n\n";
    }
    return out + "\n";
}

// One header loses its closing brace and a garbage line is inserted before a record.
std::string withBadHeader(const std::string& text)
{
    auto lines = splitLines(text);
    std::string out;
    bool broken = false;
    bool garbage = false;
    for (const auto& l : lines) {
        bool header = !l.empty() && l[0] == 'V';
        if (!broken && header && l.find("\"dynamo_start\"") != std::string::npos) {
            broken = true;
            out += l.substr(0, l.size() - 1) + "\n";
            continue;
        }
        if (broken && !garbage && header
            && l.find("\"dynamo_output_graph\"") != std::string::npos) {
            garbage = true;
            out += "this line is not part of any trace record (pasted by hand)\n";
        }
        out += l + "\n";
    }
    return out;
}

int writeAll(const fs::path& dir)
{
    fs::create_directories(dir);
    const std::string graphBreak = render(writeGraphBreakFixture);
    const std::string chain = render(writeRecompileChainFixture);
    writeFile(dir / "graph_break.log", graphBreak);
    writeFile(dir / "recompile_chain.log", chain);
    writeFile(dir / "dynamic_shape.log", render(writeDynamicShapeFixture));
    writeFile(dir / "backend_failure.log", render(writeBackendFailureFixture));
    writeFile(dir / "compiled_autograd.log", render(writeCompiledAutogradFixture));
    writeFile(dir / "reset_ids.log", render(writeResetFixture));
    writeFile(dir / "legacy_2024.log", render(writeLegacy2024Fixture));
    writeFile(dir / "example.log", render(writeExampleTrace));

    writeFile(dir / "truncated.log", truncateMidPayload(chain));
    writeFile(dir / "crlf.log", toCrlf(graphBreak));
    writeFile(dir / "blank_lines.log", withBlankLines(graphBreak));
    writeFile(dir / "bad_header_json.log", withBadHeader(graphBreak));
    const std::string zst = compressZstd(chain);
    writeFile(dir / "recompile_chain.log.zst", zst);
    writeFile(dir / "recompile_chain.log.gz", compressGzip(chain));
    writeFile(dir / "compressed_no_ext", zst);

    const fs::path ranks = dir / "two_ranks";
    fs::create_directories(ranks);
    writeFile(ranks / "dedicated_log_torch_trace_rank_0_abcd1234.log",
        render([](std::ostream& o) { writeRankFixture(o, 0); }));
    writeFile(ranks / "dedicated_log_torch_trace_rank_1_efgh5678.log",
        render([](std::ostream& o) { writeRankFixture(o, 1); }));
    writeFile(ranks / "notes.txt",
        "Launched with torchrun --nproc-per-node 2 train.py\n"
        "Not a trace: the loader must skip this file.\n");
    return 0;
}

int usage()
{
    std::cerr
        << "usage: dynascope-fixtures OUTDIR\n"
           "       dynascope-fixtures --example FILE\n"
           "       dynascope-fixtures --rank-folder DIR N   (N ranks with divergence planted:\n"
           "           an extra recompile on rank N/2, a graph break on N-1, a missing frame\n"
           "           on 0, a cache miss on 1, a straggler on N/3; core/synth/rank_folder.h)\n";
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        if (args.size() == 2 && args[0] == "--example") {
            writeFile(args[1], render(writeExampleTrace));
            return 0;
        }
        if (args.size() == 3 && args[0] == "--rank-folder") {
            dynascope::synth::RankFolderOptions o;
            o.ranks = std::stoll(args[2]);
            if (o.ranks < 4)
                return usage();
            o.extraRecompileRank = o.ranks / 2;
            o.graphBreakRank = o.ranks - 1;
            o.missingFrameRank = 0;
            o.cacheMissRank = 1;
            o.stragglerRank = o.ranks / 3;
            std::filesystem::create_directories(args[1]);
            const auto folder = dynascope::synth::writeRankFolder(args[1], o);
            for (const auto& p : folder.planted)
                std::cout << p.rule << " rank " << p.rank << " " << p.function << "\n";
            return 0;
        }
        if (args.size() == 1 && args[0].rfind("-", 0) != 0)
            return writeAll(args[0]);
        return usage();
    } catch (const std::exception& e) {
        std::cerr << "dynascope-fixtures: " << e.what() << "\n";
        return 1;
    }
}
