#include "ui/tracefacts.h"

#include "ui/models/format.h"

#include <QCoreApplication>

#include <algorithm>

namespace dynascope::ui {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("TraceFacts", text);
}

QString overviewOf(const std::vector<Finding>& found)
{
    if (found.empty())
        return {};
    QString overview = tr("What this trace shows, most costly first:");
    for (size_t i = 0; i < std::min<size_t>(found.size(), 5); ++i)
        overview += QStringLiteral("\n  %1. [%2] %3")
                        .arg(i + 1)
                        .arg(QString::fromLatin1(toString(found[i].severity)), qs(found[i].title));
    if (found.size() > 5)
        overview += tr("\n  … and %1 more in the Findings panel").arg(found.size() - 5);
    return overview;
}
} // namespace

std::shared_ptr<const TraceFacts> computeTraceFacts(
    std::shared_ptr<const Trace> trace, std::stop_token stop)
{
    auto facts = std::make_shared<TraceFacts>();
    facts->trace = std::move(trace);
    if (!facts->trace)
        return facts;
    const Trace& t = *facts->trace;
    facts->diagnostics = t.diagnostics;
    try {
        Trace::PayloadCheck check = t.verifyPayloads();
        facts->payloadsVerified = true;
        for (Diagnostic& d : check.diagnostics)
            facts->diagnostics.push_back(std::move(d));
    } catch (const std::exception& e) {
        facts->diagnostics.push_back({ Severity::Warning, DiagnosticCode::Other,
            t.files.empty() ? std::string() : t.files.front().path, 0,
            std::string("payload hashes were not checked: ") + e.what() });
    }
    facts->torch = torchVersionOf(t);
    facts->findings = findFindings(t, stop);
    facts->counts = countFindings(facts->findings);
    facts->overview = overviewOf(facts->findings);
    for (const Finding& f : facts->findings) {
        // Warnings and errors are flagged on the timeline at the compiles they name.
        if (f.severity != FindingSeverity::Note)
            for (uint32_t c : f.compiles)
                facts->findingMarks[c]
                    = std::max(facts->findingMarks[c], static_cast<int>(f.severity));
        // Ranks that rank findings single out get a mark on their rows.
        const RuleInfo& rule = ruleInfo(f.rule);
        for (uint32_t file : f.files) {
            timeline::RankMark& m = facts->rankMarks[file];
            m.severity = std::max(m.severity, static_cast<int>(f.severity));
            const QString word = qs(rule.rankWord.empty() ? rule.id : rule.rankWord);
            if (!m.words.contains(word))
                m.words << word;
            m.titles << qs(f.title);
        }
    }
    return facts;
}

} // namespace dynascope::ui
