#include "ui/inspector/artifactstab.h"

#include "ui/inspector/codeviewer.h"
#include "ui/models/artifactlistmodel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace dynascope::ui {

ArtifactsTab::ArtifactsTab(QWidget* parent)
    : QWidget(parent)
    , m_model(new ArtifactListModel(this))
{
    setObjectName(QStringLiteral("artifactsTab"));
    m_list = new QTreeView;
    m_list->setObjectName(QStringLiteral("artifactList"));
    m_list->setAccessibleName(tr("Artifacts of this compile"));
    m_list->setModel(m_model);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    // Column widths from the font: the name, its kind ("inductor_output_code"), the size and
    // the trace line all readable (the kind column was 15 px wide).
    const int ch = QFontMetrics(m_list->font()).averageCharWidth();
    m_list->header()->setStretchLastSection(false);
    m_list->header()->resizeSection(ArtifactListModel::NameColumn, ch * 28);
    m_list->header()->resizeSection(ArtifactListModel::KindColumn, ch * 20);
    m_list->header()->resizeSection(ArtifactListModel::SizeColumn, ch * 9);
    m_list->header()->resizeSection(ArtifactListModel::LineColumn, ch * 9);
    const int listWidth = ch * 66 + 24;
    m_title = new QLabel;
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_viewer = new CodeViewer;
    auto* right = new QWidget;
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(m_title);
    rl->addWidget(m_viewer, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_list);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({ listWidth, listWidth * 2 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { showRow(current.row()); });
}

void ArtifactsTab::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showCompile(kNone);
}

void ArtifactsTab::showCompile(uint32_t compile)
{
    m_model->setCompile(m_trace, compile);
    m_record = kNone;
    m_viewer->clear();
    m_title->setText(m_model->rowCount()
            ? tr("Select an artifact to read it.")
            : (m_trace && compile != kNone ? tr("This compile logged no artifacts.") : QString()));
    // Open on the first graph: what Dynamo captured is what most readers want first.
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (m_model->row(r)->kind == QLatin1String("dynamo_output_graph")) {
            m_list->setCurrentIndex(m_model->index(r, 0));
            break;
        }
    }
}

bool ArtifactsTab::selectRecord(uint32_t record)
{
    const int r = m_model->rowOfRecord(record);
    if (r < 0)
        return false;
    m_list->setCurrentIndex(m_model->index(r, 0));
    m_list->scrollTo(m_model->index(r, 0));
    return true;
}

void ArtifactsTab::showRow(int r)
{
    const ArtifactListModel::Row* row = m_model->row(r);
    if (!row || !m_trace) {
        m_record = kNone;
        m_viewer->clear();
        return;
    }
    m_record = row->record;
    const Record& rec = m_trace->records[row->record];
    m_title->setText(row->name
        + (row->name != row->kind ? QStringLiteral(" (") + row->kind + QLatin1Char(')') : QString())
        + tr(" · line %1 of the trace").arg(rec.line)
        + (row->metadataOnly ? tr(" · no payload: the record's JSON") : QString()));
    m_viewer->setContent(ArtifactListModel::documentText(*m_trace, *row), row->language);
    Q_EMIT recordSelected(row->record);
}

} // namespace dynascope::ui
