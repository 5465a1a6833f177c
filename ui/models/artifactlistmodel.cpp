#include "ui/models/artifactlistmodel.h"

#include "core/parse/log_line.h"

#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/plaintooltip.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

namespace dynascope::ui {

namespace {
bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size()
        && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

QString prettyJson(const QByteArray& json)
{
    QJsonParseError err {};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || doc.isNull())
        return QString::fromUtf8(json);
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

ArtifactListModel::ArtifactListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

bool ArtifactListModel::isListed(const std::string& kind, bool hasPayload)
{
    if (kind == "chromium_event" || kind == "str")
        return false;
    if (kind == "compilation_metrics" || kind == "compilation_metrics_runtime"
        || kind == "bwd_compilation_metrics" || kind == "link" || kind == "dynamo_start")
        return true;
    return hasPayload;
}

PayloadLanguage ArtifactListModel::languageOf(const QString& kind, const QString& name, bool json)
{
    if (json || kind.startsWith(QLatin1String("compilation_metrics"))
        || kind == QLatin1String("bwd_compilation_metrics")
        || kind == QLatin1String("dynamo_guards") || kind == QLatin1String("link")
        || kind == QLatin1String("dynamo_start"))
        return PayloadLanguage::Json;
    if (kind.endsWith(QLatin1String("_graph")) || kind == QLatin1String("inductor_output_code")
        || kind == QLatin1String("graph_dump") || kind == QLatin1String("dump_file")
        || kind == QLatin1String("optimize_ddp_split_child"))
        return PayloadLanguage::Python;
    if (kind == QLatin1String("artifact")
        && (name.contains(QLatin1String("graph")) || name.contains(QLatin1String("runnable"))
            || name.contains(QLatin1String("code"))))
        return PayloadLanguage::Python;
    return PayloadLanguage::Plain;
}

void ArtifactListModel::setCompile(std::shared_ptr<const Trace> trace, uint32_t compile)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_rows.clear();
    if (m_trace && compile < m_trace->compiles.size()) {
        const Trace& t = *m_trace;
        for (uint32_t r : t.compiles[compile].records) {
            const Record& rec = t.records[r];
            const std::string& kind = t.kindName(r);
            // TORCH_LOGS text: every statement is the log's own, and listed.
            const bool text = t.files[t.fileOf(r)].format == TraceFormat::TorchLogs;
            if (!text && !isListed(kind, rec.hasPayload()))
                continue;
            Row row;
            row.record = r;
            row.kind = qs(kind);
            row.name = row.kind;
            row.metadataOnly = !rec.hasPayload() && !text;
            row.statement = text;
            if (text) {
                // Named by its first words: "Recompiling function scale in example.py:36".
                const std::string header = t.header(r);
                const auto l = logs::parseLogLine(header);
                std::string_view first = l ? l->message : std::string_view();
                if (first.empty() && rec.payloadLength) {
                    const std::string p = t.payload(r);
                    row.name = qs(p.substr(0, std::min<size_t>(p.find('\n'), 100)));
                } else {
                    row.name = qs(std::string(first.substr(0, 100)));
                }
                if (row.name.isEmpty())
                    row.name = row.kind;
            }
            bool json = false;
            if (kind == "artifact" || kind == "link" || kind == "dump_file") {
                const std::string h = t.headerJson(r);
                const QJsonObject o = QJsonDocument::fromJson(
                    QByteArray(h.data(), static_cast<qsizetype>(h.size())))
                                          .object();
                const QJsonObject inner = o.value(row.kind).toObject();
                const QString name = inner.value(QStringLiteral("name")).toString();
                if (!name.isEmpty())
                    row.name = name;
                json = inner.value(QStringLiteral("encoding")).toString() == QLatin1String("json");
            }
            if (endsWith(kind, "_cache_hit") || endsWith(kind, "_cache_miss"))
                json = true;
            row.language = languageOf(row.kind, row.name, json);
            m_rows.push_back(std::move(row));
        }
    }
    endResetModel();
}

const ArtifactListModel::Row* ArtifactListModel::row(int r) const
{
    return r >= 0 && static_cast<size_t>(r) < m_rows.size() ? &m_rows[static_cast<size_t>(r)]
                                                            : nullptr;
}

int ArtifactListModel::rowOfRecord(uint32_t record) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].record == record)
            return static_cast<int>(i);
    }
    return -1;
}

QString ArtifactListModel::documentText(const Trace& t, const Row& row)
{
    if (row.record >= t.records.size())
        return {};
    if (row.metadataOnly) {
        const std::string h = t.headerJson(row.record);
        return prettyJson(QByteArray(h.data(), static_cast<qsizetype>(h.size())));
    }
    const std::string p = t.payload(row.record);
    if (t.files[t.fileOf(row.record)].format == TraceFormat::TorchLogs) {
        // The statement's message: its first line (after the prefix) and the others.
        const std::string header = t.header(row.record);
        const auto l = logs::parseLogLine(header);
        const std::string first = l ? std::string(l->message) : header;
        return qs(t.records[row.record].payloadLength ? first + "\n" + p : first);
    }
    if (row.language == PayloadLanguage::Json)
        return prettyJson(QByteArray::fromStdString(p));
    return qs(p);
}

int ArtifactListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ArtifactListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ArtifactListModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant ArtifactListModel::dataFor(const QModelIndex& index, int role) const
{
    const Row* r = index.isValid() ? row(index.row()) : nullptr;
    if (!r || !m_trace)
        return {};
    const Record& rec = m_trace->records[r->record];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return r->name;
        case KindColumn:
            return r->kind;
        case SizeColumn:
            return QLocale::system().formattedDataSize(r->metadataOnly || r->statement
                    ? rec.headerLength + (r->statement ? rec.payloadLength : 0)
                    : rec.payloadLength,
                1, QLocale::DataSizeTraditionalFormat);
        case LineColumn:
            return static_cast<qulonglong>(rec.line);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        const uint32_t f = m_trace->fileOf(r->record);
        const QString file
            = f < m_trace->files.size() ? baseName(m_trace->files[f].path) : QString();
        return QString(r->name + QStringLiteral(" (") + r->kind + QStringLiteral(")\n") + file
            + QLatin1Char(':') + QString::number(rec.line));
    }
    if (role == Qt::TextAlignmentRole
        && (index.column() == SizeColumn || index.column() == LineColumn))
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (role == RecordRole)
        return static_cast<int>(r->record);
    if (role == SortRole)
        return index.column() == SizeColumn ? QVariant(static_cast<qulonglong>(rec.payloadLength))
                                            : QVariant(static_cast<qulonglong>(rec.line));
    return {};
}

QVariant ArtifactListModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Artifact");
    case KindColumn:
        return tr("Kind");
    case SizeColumn:
        return tr("Size");
    case LineColumn:
        return tr("Line");
    }
    return {};
}

} // namespace dynascope::ui
