// Finding the user's source for a file:line named by a trace. Traces often come from another
// machine, so a path is tried as is, then through the user's prefix remappings ("from → to",
// kept in QSettings). When no file is found, the source lines the trace itself carries are
// gathered instead: StackFrame::loc of dynamo_start stacks, shape-event user stacks and graph
// break tracebacks, and the "# File: path:line in fn, code: ..." comments of dynamo_output_graph.
// Files are only ever opened for reading, and only when the user asks to see one.
#pragma once

#include "core/model/trace.h"

#include <QHash>
#include <QList>
#include <QString>

#include <map>
#include <memory>

namespace dynascope::ui {

struct SourceRemap {
    QString from, to;
    bool operator==(const SourceRemap&) const = default;
};

// The existing local file for `path`: the path itself, else (a relative path, as a program run by
// its bare name logs it: "example.py") the path in one of `traceFolders`, the folders of the
// trace's files, else the first remap (longest prefix first) whose substituted path exists;
// empty when none does.
QString resolveSourcePath(
    const QString& path, const QList<SourceRemap>& remaps, const QStringList& traceFolders = {});
QList<SourceRemap> loadSourceRemaps(); // QSettings "source/remaps"
void saveSourceRemaps(const QList<SourceRemap>& remaps);

// The source lines a trace carries, per file. Built on first use (it decodes the
// dynamo_output_graph payloads), then shared.
class TraceSourceIndex {
public:
    explicit TraceSourceIndex(const Trace& trace);
    // line -> text for a file path exactly as the trace names it; empty when none.
    const std::map<int64_t, QString>& linesFor(const QString& path) const;
    size_t fileCount() const { return m_files.size(); }

    // Parses "# File: /p/model.py:13 in forward, code: h = self.fc1(x)"; false if not one.
    static bool parseFileComment(
        std::string_view line, std::string* file, int64_t* lineNo, std::string* code);

private:
    void add(std::string_view file, int64_t line, std::string_view text);
    void addStack(const Stack& stack);
    QHash<QString, std::map<int64_t, QString>> m_files;
};

} // namespace dynascope::ui
