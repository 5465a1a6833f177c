// ArtifactListModel: the records of one compile worth reading as a document: graphs
// (dynamo_output_graph, aot_*_graph, inductor_*_graph), generated code (inductor_output_code),
// named artifacts, guard dumps and the compile's metrics, in file order. Each row knows how its
// payload reads best (Python, JSON or plain text) so the viewer can colour it.
#pragma once

#include "core/model/trace.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <vector>

namespace dynascope::ui {

enum class PayloadLanguage { Plain, Python, Json };

class ArtifactListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, SizeColumn, LineColumn, ColumnCount };
    struct Row {
        uint32_t record = kNone;
        QString name; // artifact name, or the kind
        QString kind;
        PayloadLanguage language = PayloadLanguage::Plain;
        bool metadataOnly = false; // no payload: the header JSON is the document
        bool statement = false; // a TORCH_LOGS statement: its message is the document
    };

    explicit ArtifactListModel(QObject* parent = nullptr);

    void setCompile(std::shared_ptr<const Trace> trace, uint32_t compile);
    const Row* row(int r) const;
    int rowOfRecord(uint32_t record) const; // -1 when absent

    // Whether a record of this kind is listed, and how its payload reads.
    static bool isListed(const std::string& kind, bool hasPayload);
    static PayloadLanguage languageOf(const QString& kind, const QString& name, bool json);
    // The text to show for a row: the payload (JSON pretty-printed) or, for metadata-only
    // records, the header's JSON pretty-printed.
    static QString documentText(const Trace& trace, const Row& row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    std::shared_ptr<const Trace> m_trace;
    std::vector<Row> m_rows;
};

// Pretty-prints JSON text (objects and arrays); returns the input unchanged when it does not
// parse. JSON strings that hold JSON objects (dynamo_config, inductor_config) are left as strings.
QString prettyJson(const QByteArray& json);

} // namespace dynascope::ui
