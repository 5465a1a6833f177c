#include "ui/models/sourcelookup.h"

#include "core/load/finish/graph_break_text.h"
#include "ui/models/format.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>

namespace dynascope::ui {

QString resolveSourcePath(
    const QString& path, const QList<SourceRemap>& remaps, const QStringList& traceFolders)
{
    if (path.isEmpty())
        return {};
    auto isFile = [](const QString& p) {
        const QFileInfo fi(p);
        return fi.isFile() && fi.isReadable();
    };
    if (isFile(path))
        return path;
    if (QDir::isRelativePath(path))
        for (const QString& folder : traceFolders)
            if (const QString p = QDir(folder).filePath(path); isFile(p))
                return p;
    QList<SourceRemap> sorted = remaps;
    std::stable_sort(sorted.begin(), sorted.end(),
        [](const SourceRemap& a, const SourceRemap& b) { return a.from.size() > b.from.size(); });
    auto strip = [](QString p) {
        while (p.size() > 1 && (p.endsWith(QLatin1Char('/')) || p.endsWith(QLatin1Char('\\'))))
            p.chop(1);
        return p;
    };
    for (const SourceRemap& r : sorted) {
        const QString from = strip(r.from);
        if (from.isEmpty() || !path.startsWith(from))
            continue;
        const QString rest = path.mid(from.size());
        // "/home/al" must not remap "/home/alice/...": the prefix ends at a separator.
        if (!rest.isEmpty() && !rest.startsWith(QLatin1Char('/'))
            && !rest.startsWith(QLatin1Char('\\')))
            continue;
        QString tail = rest;
        tail.replace(QLatin1Char('\\'), QLatin1Char('/')); // a Windows trace read on Linux
        const QString candidate = QDir::cleanPath(strip(r.to) + tail);
        if (isFile(candidate))
            return candidate;
    }
    return {};
}

QList<SourceRemap> loadSourceRemaps()
{
    QSettings s;
    QList<SourceRemap> out;
    const int n = s.beginReadArray(QStringLiteral("source/remaps"));
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        SourceRemap r { s.value(QStringLiteral("from")).toString(),
            s.value(QStringLiteral("to")).toString() };
        if (!r.from.isEmpty())
            out << r;
    }
    s.endArray();
    return out;
}

void saveSourceRemaps(const QList<SourceRemap>& remaps)
{
    QSettings s;
    s.remove(QStringLiteral("source/remaps"));
    s.beginWriteArray(QStringLiteral("source/remaps"), static_cast<int>(remaps.size()));
    for (int i = 0; i < remaps.size(); ++i) {
        s.setArrayIndex(i);
        s.setValue(QStringLiteral("from"), remaps[i].from);
        s.setValue(QStringLiteral("to"), remaps[i].to);
    }
    s.endArray();
}

bool TraceSourceIndex::parseFileComment(
    std::string_view line, std::string* file, int64_t* lineNo, std::string* code)
{
    constexpr std::string_view kFile = "# File: ";
    const size_t p = line.find(kFile);
    if (p == std::string_view::npos)
        return false;
    std::string_view rest = line.substr(p + kFile.size());
    constexpr std::string_view kCode = ", code: ";
    const size_t c = rest.find(kCode);
    std::string_view head = c == std::string_view::npos ? rest : rest.substr(0, c);
    const size_t in = head.rfind(" in ");
    if (in != std::string_view::npos)
        head = head.substr(0, in);
    const size_t colon = head.rfind(':');
    if (colon == std::string_view::npos)
        return false;
    int64_t n = 0;
    for (char ch : head.substr(colon + 1)) {
        if (ch < '0' || ch > '9')
            return false;
        n = n * 10 + (ch - '0');
    }
    *file = std::string(head.substr(0, colon));
    *lineNo = n;
    *code
        = c == std::string_view::npos ? std::string() : std::string(rest.substr(c + kCode.size()));
    return n > 0 && !file->empty();
}

void TraceSourceIndex::add(std::string_view file, int64_t line, std::string_view text)
{
    if (file.empty() || line <= 0 || text.empty())
        return;
    auto& lines = m_files[qs(file)];
    // The first text wins; stack locs are stripped, graph comments keep the indentation lost.
    lines.emplace(line, qs(text));
}

void TraceSourceIndex::addStack(const Stack& stack)
{
    for (const StackFrame& f : stack)
        add(f.file, f.line, f.loc);
}

TraceSourceIndex::TraceSourceIndex(const Trace& t)
{
    StringPool failureFrames; // the texts of the tracebacks parsed here (add() copies them)
    for (const Compile& c : t.compiles) {
        addStack(c.stack);
        for (const ShapeEvent& e : c.shapeEvents) {
            addStack(e.userStack);
            addStack(e.stack);
        }
        for (const GraphBreak& g : c.graphBreaks)
            addStack(g.userFrames);
        if (c.failure && !c.failure->traceback.empty())
            addStack(parsePythonTraceback(c.failure->traceback, failureFrames));
        for (uint32_t r : c.records) {
            if (t.kindName(r) != "dynamo_output_graph")
                continue;
            const std::string payload = t.payload(r);
            size_t pos = 0;
            while (pos < payload.size()) {
                size_t nl = payload.find('\n', pos);
                if (nl == std::string::npos)
                    nl = payload.size();
                std::string file, code;
                int64_t line = 0;
                if (parseFileComment(
                        std::string_view(payload).substr(pos, nl - pos), &file, &line, &code))
                    add(file, line, code);
                pos = nl + 1;
            }
        }
    }
}

const std::map<int64_t, QString>& TraceSourceIndex::linesFor(const QString& path) const
{
    static const std::map<int64_t, QString> none;
    auto it = m_files.constFind(path);
    return it == m_files.constEnd() ? none : it.value();
}

} // namespace dynascope::ui
