// ReportView: the compile report of the loaded trace (core/report) as read-only plain text, in
// Markdown or JSON. Trace strings never reach a rich-text widget: the report is shown in a
// QPlainTextEdit. Built off the GUI thread (a BackgroundJob) the first time the view is shown after
// a load; a build that fails says so in the view's status line.
#pragma once

#include "ui/tracefacts.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace dynascope::ui {

class BackgroundJob;

class ReportView : public QWidget {
    Q_OBJECT
public:
    explicit ReportView(QWidget* parent = nullptr);

    // The open trace's facts (its findings are the report's); null: none.
    void setFacts(std::shared_ptr<const TraceFacts> facts);
    QPlainTextEdit* textView() const { return m_text; }
    // Builds the report now, on the calling thread (tests, screenshots).
    void buildNow();
    bool isBuilt() const { return m_built; }

Q_SIGNALS:
    void built();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildAsync();
    void showText(const QString& text);
    void saveAs();

    std::shared_ptr<const TraceFacts> m_facts;
    bool m_built = false;
    bool m_building = false;
    QString m_markdown, m_json;
    QComboBox* m_format;
    QLabel* m_status;
    QPushButton* m_copy;
    QPushButton* m_save;
    QPlainTextEdit* m_text;
    BackgroundJob* m_jobs;
};

} // namespace dynascope::ui
