// appendTrace: merges a one-file trace (a file of a folder, a process of a TORCH_LOGS text) into
// the trace being built, shifting every index; linear in the part's size.
#include "core/load/finish/append_trace.h"

#include "core/parse/kind_names.h"

#include <string>

namespace dynascope {

void appendTrace(Trace& into, Trace&& part)
{
    if (into.files.empty() && into.records.empty() && into.compiles.empty() && into.frames.empty()
        && into.kindNames.empty() && into.kindCounts.empty()
        && into.records.capacity() < part.records.size()) {
        // The first file (and no room reserved for more): every offset below is 0 and the kind
        // map the identity, so the parts move over instead of being copied record by record.
        into.files = std::move(part.files);
        into.records = std::move(part.records);
        into.compiles = std::move(part.compiles);
        into.frames = std::move(part.frames);
        into.kindNames = std::move(part.kindNames);
        into.kindCounts = std::move(part.kindCounts);
        into.pools = std::move(part.pools);
        for (auto& d : part.diagnostics)
            into.diagnostics.push_back(std::move(d));
        return;
    }
    // Indices are 32-bit (kNone is the largest): a part that would pass it is left out, said.
    const uint64_t records = uint64_t(into.records.size()) + part.records.size();
    const uint64_t compiles = uint64_t(into.compiles.size()) + part.compiles.size();
    if (records >= kMaxIndex || compiles >= kMaxIndex) {
        for (const auto& f : part.files)
            into.diagnostics.push_back({ Severity::Error, DiagnosticCode::Other, f.path, 0,
                "not loaded: with the files before it the trace would hold more than "
                    + std::to_string(kMaxIndex) + " records or compiles" });
        return;
    }
    const uint32_t rOff = static_cast<uint32_t>(into.records.size());
    const uint32_t cOff = static_cast<uint32_t>(into.compiles.size());
    const uint32_t fOff = static_cast<uint32_t>(into.frames.size());
    const uint32_t fileOff = static_cast<uint32_t>(into.files.size());
    auto shiftRecord = [&](uint32_t& v) {
        if (v != kNone)
            v += rOff;
    };
    auto shiftCompile = [&](uint32_t& v) {
        if (v != kNone)
            v += cOff;
    };
    auto shiftFrame = [&](uint32_t& v) {
        if (v != kNone)
            v += fOff;
    };
    KindNames kinds(into.kindNames);
    std::vector<uint16_t> kindMap(part.kindNames.size());
    for (size_t k = 0; k < part.kindNames.size(); ++k)
        kindMap[k] = kinds.intern(part.kindNames[k]);
    for (auto& r : part.records) {
        shiftCompile(r.compile);
        r.kind = kindMap[r.kind];
        into.records.push_back(r);
    }
    for (auto& c : part.compiles) {
        c.index += cOff;
        c.file += fileOff;
        shiftFrame(c.frame);
        shiftRecord(c.startRecord);
        shiftRecord(c.metricsRecord);
        shiftRecord(c.guardsRecord);
        c.records.shift(rOff);
        for (auto& a : c.attempts)
            shiftRecord(a.firstRecord);
        for (auto& p : c.phases) {
            shiftRecord(p.beginRecord);
            shiftRecord(p.endRecord);
        }
        for (auto& i : c.instants)
            shiftRecord(i.record);
        for (auto& g : c.graphBreaks) {
            shiftRecord(g.record);
            shiftFrame(g.resumeFrame);
            shiftCompile(g.resumeCompile);
        }
        for (auto& r : c.recompileReasons)
            shiftCompile(r.earlierCompile);
        if (c.failure)
            shiftRecord(c.failure->record);
        for (auto& e : c.cacheEvents)
            shiftRecord(e.record);
        for (auto& e : c.shapeEvents)
            shiftRecord(e.record);
        into.compiles.push_back(std::move(c));
    }
    for (auto& f : part.frames) {
        f.index += fOff;
        f.file += fileOff;
        for (auto& c : f.compiles)
            c += cOff;
        shiftCompile(f.breakOrigin);
        into.frames.push_back(std::move(f));
    }
    for (auto& f : part.files) {
        f.firstRecord += rOff;
        into.files.push_back(std::move(f));
    }
    for (auto& d : part.diagnostics)
        into.diagnostics.push_back(std::move(d));
    for (auto& p : part.pools)
        into.pools.push_back(std::move(p));
    // Counted under the names the records now have: past the cap, kOtherKinds.
    for (auto& [k, n] : part.kindCounts) {
        const bool other = kinds.intern(k) == kOtherKindsId;
        into.kindCounts[other ? std::string(kOtherKinds) : k] += n;
    }
}

} // namespace dynascope
