#include "bench/bench_heap.h"

#include "core/model/trace.h"

#include <cstdio>
#include <type_traits>

namespace dynascope::bench {
namespace {

// glibc malloc's chunk for a request of n bytes (64-bit): n plus the 8-byte size field, rounded
// up to 16, at least 32 bytes.
double chunk(size_t n)
{
    if (n == 0)
        return 0;
    const size_t c = (n + 8 + 15) & ~size_t { 15 };
    return static_cast<double>(c < 32 ? 32 : c);
}

double str(const std::string& s)
{
    return s.capacity() > 15 ? chunk(s.capacity() + 1) : 0.0;
}

template <class V> double cap(const V& v)
{
    return chunk(v.capacity() * sizeof(typename V::value_type));
}

// A stack's frames (their texts are in the trace's pools, counted with the phase names).
double stack(const Stack& s)
{
    return cap(s);
}

double details(const std::vector<GraphBreakDetail>& ds)
{
    double b = cap(ds);
    for (const auto& d : ds) {
        b += str(d.title) + str(d.explanation) + str(d.developerContext) + str(d.gbCode)
            + str(d.link) + cap(d.hints);
        for (const auto& h : d.hints)
            b += str(h);
    }
    return b;
}

// What one part holds: bytes, and the largest contributors inside it.
struct Parts {
    double records = 0, compiles = 0, compileNames = 0, compileStacks = 0, recordLists = 0,
           attempts = 0, phases = 0, phaseNames = 0, instants = 0, graphBreaks = 0,
           recompileReasons = 0, failures = 0, cacheEvents = 0, shapeEvents = 0, guardTrees = 0,
           restartReasons = 0, frames = 0, files = 0, other = 0;
    size_t stackFrames = 0, phaseCount = 0, guardStates = 0;
};

Parts measure(const Trace& t)
{
    Parts p;
    p.records = cap(t.records);
    p.compiles = cap(t.compiles);
    for (const auto& c : t.compiles) {
        p.compileNames += str(c.coName) + str(c.coFilename);
        p.compileStacks += stack(c.stack);
        p.stackFrames += c.stack.size();
        p.recordLists += c.records.heapBytes() ? chunk(c.records.heapBytes()) : 0;
        p.attempts += cap(c.attempts);
        p.phases += cap(c.phases);
        p.phaseCount += c.phases.size();
        p.instants += cap(c.instants);
        p.graphBreaks += cap(c.graphBreaks);
        for (const auto& g : c.graphBreaks) {
            p.graphBreaks += str(g.reason) + str(g.operation) + details(g.details)
                + str(g.stackAttribution) + str(g.file) + str(g.traceback) + stack(g.userFrames);
            p.stackFrames += g.userFrames.size();
        }
        p.recompileReasons += cap(c.recompileReasons);
        for (const auto& r : c.recompileReasons) {
            p.recompileReasons += str(r.text) + str(r.earlierKey) + str(r.detail) + str(r.mismatch)
                + str(r.source) + str(r.expected) + str(r.actual) + stack(r.userStack);
            p.stackFrames += r.userStack.size();
        }
        if (c.failure) {
            const auto& f = *c.failure;
            p.failures += str(f.type) + str(f.rawType) + str(f.reason) + str(f.file)
                + str(f.traceback) + details(f.details) + str(f.layer);
        }
        p.cacheEvents += cap(c.cacheEvents);
        for (const auto& e : c.cacheEvents)
            p.cacheEvents += str(e.cache);
        p.shapeEvents += cap(c.shapeEvents);
        for (const auto& e : c.shapeEvents) {
            p.shapeEvents += str(e.kind) + str(e.expr) + str(e.value) + str(e.sources)
                + str(e.reason) + stack(e.userStack) + stack(e.stack);
            p.stackFrames += e.userStack.size() + e.stack.size();
        }
        if (c.guards) // LazyGuardTree's state, made with make_shared (its control block inline)
            ++p.guardStates;
        p.restartReasons += cap(c.restartReasons);
        for (const auto& r : c.restartReasons)
            p.restartReasons += str(r);
        p.restartReasons += str(c.recompileReasonMetric);
    }
    p.guardTrees = static_cast<double>(p.guardStates) * chunk(112);
    for (const auto& pool : t.pools)
        p.phaseNames += static_cast<double>(pool->bytes())
            + static_cast<double>(pool->count())
                * chunk(48); // a hash node: next, the string, its hash
    p.frames = cap(t.frames);
    for (const auto& f : t.frames) {
        p.frames += str(f.coName) + str(f.coFilename) + cap(f.compiles);
    }
    p.files = cap(t.files);
    for (const auto& f : t.files) {
        p.files += str(f.path) + str(f.compression) + str(f.label) + cap(f.strings);
        for (const auto& s : f.strings)
            p.files += str(s);
    }
    p.other = cap(t.kindNames) + cap(t.diagnostics) + cap(t.runs);
    for (const auto& k : t.kindNames)
        p.other += str(k);
    for (const auto& d : t.diagnostics)
        p.other += str(d.file) + str(d.message);
    for (const auto& [k, n] : t.kindCounts) // a red-black tree node: 3 pointers and a colour
        p.other += chunk(32 + sizeof(std::pair<const std::string, uint64_t>)) + str(k);
    return p;
}

} // namespace

void printHeapParts(const Trace& t)
{
    const Parts p = measure(t);
    const double mb = 1024.0 * 1024.0;
    const double total = p.records + p.compiles + p.compileNames + p.compileStacks + p.recordLists
        + p.attempts + p.phases + p.phaseNames + p.instants + p.graphBreaks + p.recompileReasons
        + p.failures + p.cacheEvents + p.shapeEvents + p.guardTrees + p.restartReasons + p.frames
        + p.files + p.other;
    std::fprintf(stderr,
        "dynascope-bench: heap by part (malloc chunks), %.1f MB in all: records %.1f MB (%zu x "
        "%zu B), compiles %.1f MB (%zu x %zu B) + names %.1f MB + stacks %.1f MB, per-compile "
        "record lists %.1f MB, attempts %.1f MB, phase spans %.1f MB (%zu x %zu B) + pooled names "
        "and stack texts %.1f "
        "MB, instants %.1f MB, graph breaks %.1f MB, recompile reasons %.1f MB, failures %.1f "
        "MB, cache events %.1f MB, shape events %.1f MB, guard trees (unparsed) %.1f MB, restart "
        "reasons %.1f MB, frames %.1f MB, files %.1f MB, other %.1f MB; %zu stack frames of %zu "
        "B\n",
        total / mb, p.records / mb, t.records.size(), sizeof(Record), p.compiles / mb,
        t.compiles.size(), sizeof(Compile), p.compileNames / mb, p.compileStacks / mb,
        p.recordLists / mb, p.attempts / mb, p.phases / mb, p.phaseCount, sizeof(PhaseSpan),
        p.phaseNames / mb, p.instants / mb, p.graphBreaks / mb, p.recompileReasons / mb,
        p.failures / mb, p.cacheEvents / mb, p.shapeEvents / mb, p.guardTrees / mb,
        p.restartReasons / mb, p.frames / mb, p.files / mb, p.other / mb, p.stackFrames,
        sizeof(StackFrame));
}

} // namespace dynascope::bench
