#include "ui/inspector/rawview.h"

#include "core/io/trace_source.h"
#include "core/parse/log_line.h"
#include "ui/inspector/codeviewer.h"
#include "ui/models/format.h"

#include <QLabel>

#include <QLocale>
#include <QVBoxLayout>
#include <algorithm>

namespace dynascope::ui {

RawView::RawView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("rawView"));
    m_info = new QLabel;
    m_info->setObjectName(QStringLiteral("rawInfo"));
    m_info->setTextFormat(Qt::PlainText);
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_viewer = new CodeViewer;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_info);
    layout->addWidget(m_viewer, 1);
}

void RawView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showRecord(kNone);
}

QString RawView::infoText() const
{
    return m_info->text();
}

QString RawView::rawText(const Trace& t, uint32_t r)
{
    if (r >= t.records.size())
        return {};
    const std::string h = t.header(r);
    QString out = QString::fromUtf8(h.data(), static_cast<qsizetype>(h.size()));
    if (t.files[t.fileOf(r)].format == TraceFormat::TorchLogs) {
        // A TORCH_LOGS statement: its lines as the text had them, each with the prefix.
        const auto l = logs::parseLogLine(h);
        const QString prefix = qs(std::string(h.substr(0, l ? l->prefixEnd : 0)));
        if (t.records[r].payloadLength > 0)
            for (const QString& line : qs(t.payload(r)).split(QLatin1Char('\n')))
                out += QLatin1Char('\n') + prefix + QLatin1Char(' ') + line;
        return out;
    }
    if (t.records[r].payloadLength > 0 || t.records[r].hasPayload()) {
        const QStringList lines = qs(t.payload(r)).split(QLatin1Char('\n'));
        for (const QString& l : lines)
            out += QStringLiteral("\n\t") + l;
    }
    return out;
}

void RawView::showRecord(uint32_t r)
{
    m_record = r;
    if (!m_trace || r >= m_trace->records.size()) {
        m_info->setText(m_trace ? tr("Select an artifact, or click “raw record” in the Why tab, to "
                                     "see the record as the trace file has it.")
                                : QString());
        m_viewer->clear();
        return;
    }
    const Trace& t = *m_trace;
    const Record& rec = t.records[r];
    const uint32_t f = t.fileOf(r);
    const QString file = f < t.files.size() ? qs(t.files[f].path) : QString();
    QString hash;
    const bool text = f < t.files.size() && t.files[f].format == TraceFormat::TorchLogs;
    // Records are read again from their file (core/io/trace_source.h): one that changed on disk
    // since it was loaded is said to have, rather than shown as it is now. The header reads empty
    // when the record is no longer what was loaded; reading it is what finds the change.
    const bool headerRead = !t.header(r).empty();
    const auto& source = t.files[f].source;
    const std::string changed = source ? source->problem() : std::string();
    const bool unreadable = !headerRead && !changed.empty();
    if (unreadable) {
        hash = tr("not shown: the record is no longer in the file as it was loaded");
    } else if (text) {
        const std::string p = t.payload(r);
        const uint64_t lines
            = 1 + (rec.payloadLength ? uint64_t(std::count(p.begin(), p.end(), '\n')) + 1 : 0);
        hash = tr("a TORCH_LOGS statement (%1, shown with their prefixes)")
                   .arg(plural(lines, tr("line"), tr("lines")));
    } else if (!(rec.flags & kHasPayloadHash))
        hash = tr("no payload hash declared");
    else if (t.payloadHashMatches(r))
        hash = tr("MD5 ✓ the payload matches its has_payload hash");
    else
        hash = tr("MD5 ✕ mismatch: the payload does not match its has_payload hash (the file was "
                  "edited or damaged)");
    // The gutter shows the trace file's own line numbers.
    const QString raw = unreadable ? QString() : rawText(t, r);
    QStringList notes;
    if (!changed.empty())
        notes << qs(changed);
    if (rec.flags & kBadJson)
        notes << tr("the header JSON does not parse");
    if ((rec.flags & kTruncated) && text)
        notes << tr("a line of it ends where the paste cut it");
    else if (rec.flags & kTruncated)
        notes << tr("the file ends inside this record");
    m_info->setText(file + QLatin1Char(':') + QString::number(rec.line) + QStringLiteral(" · ")
        + qs(t.kindName(r)) + QStringLiteral(" · ")
        + QLocale::system().formattedDataSize(
            rec.headerLength + rec.payloadLength, 1, QLocale::DataSizeTraditionalFormat)
        + QStringLiteral(" · ") + hash
        + (notes.isEmpty() ? QString() : QStringLiteral(" · ") + notes.join(QStringLiteral(", "))));
    if (unreadable) {
        m_viewer->clear();
        return;
    }
    std::vector<int64_t> numbers(static_cast<size_t>(raw.count(QLatin1Char('\n')) + 1));
    for (size_t i = 0; i < numbers.size(); ++i)
        numbers[i] = static_cast<int64_t>(rec.line + i);
    m_viewer->setContent(raw, PayloadLanguage::Plain, std::move(numbers));
}

} // namespace dynascope::ui
