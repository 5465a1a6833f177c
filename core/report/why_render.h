// The Why document (core/analysis/why_document.h) as plain text and as Markdown: what
// `dynascope-cli why` prints and the Python package's Compile.why() returns. The app renders the
// same document as rich text with live links (ui/inspector/whyview).
//
// Plain text: one line per block, indented two spaces a level, a blank line before headings and
// wider gaps; links read as their text. Markdown: headings as ###, indented blocks as nested list
// items, monospace spans as code, every trace string escaped (text::mdText, text::mdCode) so
// nothing from a log becomes markup.
#pragma once

#include "core/analysis/why_document.h"

#include <string>

namespace dynascope {

std::string whyText(const WhyDocument& doc);
std::string whyMarkdown(const WhyDocument& doc);

} // namespace dynascope
