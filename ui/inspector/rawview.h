// RawView: the Raw tab, one record exactly as the trace file has it (header line, then the
// payload lines with their tab), where it is (file:line) and whether its payload still matches
// the MD5 its header declares (a mismatch means the file was edited).
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace dynascope::ui {

class CodeViewer;

class RawView : public QWidget {
    Q_OBJECT
public:
    explicit RawView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showRecord(uint32_t record);
    uint32_t record() const { return m_record; }
    QString infoText() const;
    CodeViewer* viewer() const { return m_viewer; }

    // The record as in the file: header, then "\t"-prefixed payload lines.
    static QString rawText(const Trace& trace, uint32_t record);

private:
    std::shared_ptr<const Trace> m_trace;
    uint32_t m_record = kNone;
    QLabel* m_info;
    CodeViewer* m_viewer;
};

} // namespace dynascope::ui
