#include "ui/search/compilesearch.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace dynascope::ui {

namespace {
class Needle {
public:
    explicit Needle(const std::string& lower)
        : m_lower(lower)
    {
    }
    bool in(std::string_view hay) const
    {
        if (m_lower.empty() || hay.size() < m_lower.size())
            return false;
        const auto it = std::search(hay.begin(), hay.end(), m_lower.begin(), m_lower.end(),
            [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
        return it != hay.end();
    }

private:
    std::string m_lower;
};

bool matches(const Compile& c, const Needle& n, const SearchOptions& o)
{
    const std::string id = c.id.display();
    if (n.in(id) || n.in(c.coName) || n.in(c.coFilename))
        return true;
    for (const StackFrame& f : c.stack) {
        if (n.in(f.name) || n.in(f.file))
            return true;
    }
    for (const RecompileReason& r : c.recompileReasons) {
        if (n.in(r.text))
            return true;
    }
    if (n.in(c.recompileReasonMetric))
        return true;
    for (const GraphBreak& g : c.graphBreaks) {
        if (n.in(g.reason) || n.in(g.file))
            return true;
    }
    for (const std::string& r : c.restartReasons) {
        if (n.in(r))
            return true;
    }
    if (c.failure && (n.in(c.failure->type) || n.in(c.failure->reason) || n.in(c.failure->file)))
        return true;
    if (o.guards && c.guards) {
        if (const GuardTree* t = c.guards.get()) {
            for (const GuardNode& g : t->nodes) {
                if (n.in(g.kind) || n.in(g.expr) || n.in(g.source))
                    return true;
            }
        }
    }
    return false;
}
} // namespace

std::vector<uint32_t> searchCompiles(
    const Trace& trace, const QString& text, const SearchOptions& options)
{
    std::vector<uint32_t> hits;
    const std::string lower = text.trimmed().toLower().toStdString();
    if (lower.empty())
        return hits;
    const Needle needle(lower);
    for (const Compile& c : trace.compiles) {
        if (matches(c, needle, options))
            hits.push_back(c.index);
    }
    return hits;
}

} // namespace dynascope::ui
