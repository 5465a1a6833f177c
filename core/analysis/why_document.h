// The Why document of one compile: the why-chain (why_chain.h) worded once, as blocks of styled
// text with links, which each face renders in its own way: the app's Why tab as a QTextDocument
// whose links select what they name (ui/inspector/whyview), `dynascope-cli why` and the Python
// package's Compile.why() as plain text or Markdown (core/report/why_render.h).
//
// What it says, in order: the title (id, function, file:line, status, duration); the graph break
// a resume frame resumes after; why it recompiled (what changed, the values along the frame, the
// fix, the guard that failed with expected and actual values, where the guard was made, and the
// older cache entries' rejections, folded unless asked for); each graph break (PyTorch's break
// type, GB code, explanation and hints, the user traceback, the resume frame); restarts of the
// analysis; the failure (type, layer, user frame, traceback); dynamic-shape events; "no
// surprises" when nothing went wrong; the call site.
//
// Trace text is kept as text in spans (never markup): a renderer escapes it for its medium.
// Cost: explainCompile() plus one pass over the compile's shape events.
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dynascope {

enum class WhyStyle : uint8_t { Plain, Bold, Dim, Mono };

// What a span links to (the app selects it; text renderers may ignore it).
struct WhyLink {
    enum class Kind : uint8_t { None, Compile, Guard, Source, Record, ToggleRejections };
    Kind kind = Kind::None;
    uint32_t compile = kNone; // Compile, Guard: a Trace::compiles index
    int guardNode = -1; // Guard: the node in that compile's guard tree
    std::string file; // Source
    int64_t line = 0; // Source
    uint32_t record = kNone; // Record: a Trace::records index
};

struct WhySpan {
    std::string text;
    WhyStyle style = WhyStyle::Plain;
    WhyLink link;
};

struct WhyBlock {
    enum class Kind : uint8_t { Title, Heading, Paragraph };
    Kind kind = Kind::Paragraph;
    int indent = 0; // levels in
    int spaceBefore = 2; // pixels in the app; a blank line in text above 4
    std::vector<WhySpan> spans;
};

struct WhyDocument {
    uint32_t compile = kNone; // kNone: no such compile (no blocks)
    std::vector<WhyBlock> blocks;
    size_t hiddenRejections = 0; // older entries' rejections folded away
};

struct WhyOptions {
    // The older cache entries' rejections of a recompile, listed (else one toggle link).
    bool showAllRejections = false;
};

WhyDocument whyDocument(const Trace& trace, uint32_t compile, const WhyOptions& options = {});

} // namespace dynascope
