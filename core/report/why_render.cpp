#include "core/report/why_render.h"

#include "core/util/text_format.h"

namespace dynascope {

namespace {

// A link to a record (the app's Raw tab) means nothing outside the app: it is left out.
bool appOnly(const WhySpan& s)
{
    return s.link.kind == WhyLink::Kind::Record;
}

// The fold toggle ("▸ Show the 2 other rejections") as words outside the app: "2 other
// rejections not shown" when folded, "2 other rejections:" when listed below.
std::string spanWords(const WhySpan& s)
{
    if (s.link.kind != WhyLink::Kind::ToggleRejections)
        return s.text;
    const size_t the = s.text.find("the ");
    const std::string what = the == std::string::npos ? s.text : s.text.substr(the + 4);
    return what + (s.text.find("Show") != std::string::npos ? " not shown" : ":");
}

std::string spansText(const WhyBlock& b)
{
    std::string out;
    for (const WhySpan& s : b.spans)
        if (!appOnly(s))
            out += spanWords(s);
    while (out.ends_with(' '))
        out.pop_back();
    return text::cleanUtf8(out);
}

// `marker` around the text, with the spaces around it left outside (`** x**` is no emphasis).
std::string emphasised(std::string_view s, std::string_view marker)
{
    const size_t first = s.find_first_not_of(' ');
    if (first == std::string_view::npos)
        return std::string(s);
    const size_t last = s.find_last_not_of(' ');
    return std::string(s.substr(0, first)) + std::string(marker)
        + text::mdText(s.substr(first, last - first + 1)) + std::string(marker)
        + std::string(s.substr(last + 1));
}

std::string spansMarkdown(const WhyBlock& b)
{
    std::string out;
    for (const WhySpan& s : b.spans) {
        if (appOnly(s))
            continue;
        const std::string words = spanWords(s);
        switch (s.style) {
        case WhyStyle::Mono:
            out += text::mdCode(words);
            break;
        case WhyStyle::Bold:
            out += emphasised(words, "**");
            break;
        case WhyStyle::Dim:
            out += emphasised(words, "*");
            break;
        case WhyStyle::Plain:
            out += text::mdText(words);
            break;
        }
    }
    while (out.ends_with(' '))
        out.pop_back();
    return out;
}

bool empty(const WhyBlock& b)
{
    for (const WhySpan& s : b.spans)
        if (!appOnly(s) && s.text.find_first_not_of(' ') != std::string::npos)
            return false;
    return true;
}

} // namespace

std::string whyText(const WhyDocument& doc)
{
    std::string out;
    for (const WhyBlock& b : doc.blocks) {
        if (empty(b))
            continue;
        if (!out.empty() && (b.kind == WhyBlock::Kind::Heading || b.spaceBefore > 4))
            out += "\n";
        out += std::string(static_cast<size_t>(b.indent) * 2, ' ') + spansText(b) + "\n";
    }
    return out;
}

std::string whyMarkdown(const WhyDocument& doc)
{
    std::string out;
    bool inList = false;
    for (const WhyBlock& b : doc.blocks) {
        if (empty(b))
            continue;
        switch (b.kind) {
        case WhyBlock::Kind::Title:
            out += "**" + text::mdText(spansText(b)) + "**\n";
            inList = false;
            break;
        case WhyBlock::Kind::Heading:
            out += "\n### " + text::mdText(spansText(b)) + "\n\n";
            inList = false;
            break;
        case WhyBlock::Kind::Paragraph:
            if (b.indent == 0) {
                if (!out.ends_with("\n\n"))
                    out += "\n";
                out += spansMarkdown(b) + "\n";
                inList = false;
            } else {
                if (!inList && !out.empty() && !out.ends_with("\n\n"))
                    out += "\n";
                // The item's own bullet and leading blanks would show literally after "- ".
                std::string item = spansMarkdown(b);
                item.erase(0, item.find_first_not_of(' '));
                if (item.starts_with("• "))
                    item.erase(0, std::string_view("• ").size());
                out += std::string(static_cast<size_t>(b.indent - 1) * 2, ' ') + "- " + item + "\n";
                inList = true;
            }
            break;
        }
    }
    return out;
}

} // namespace dynascope
