// Text formatting shared by the models, the inspector and the timeline: durations in the unit that
// reads best ("812 µs", "2.41 s"), wall-clock times, file:line labels. Pure functions, QtCore only.
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace dynascope {
struct Compile;
struct RecompileReason;
struct TraceFile;

namespace ui {

// Microseconds -> "0 µs", "812 µs", "12.3 ms", "2.41 s", "3 min 12 s", "1 h 02 min".
QString formatDuration(double us);
// formatDuration, but days past two days: "11 d 2 h" (idle gaps between runs).
QString formatLongDuration(double us);
// An axis tick step (microseconds) -> the unit that labels it best, e.g. "+200 ms".
QString formatOffset(double us, double stepUs);
// Epoch microseconds -> local wall-clock time of the traced process, "15:30:01.875".
// tzOffsetMinutes is the trace file's offset (glog local time minus UTC).
QString formatWallClock(double epochUs, int tzOffsetMinutes, bool withMillis = true);
QString formatDateTime(double epochUs, int tzOffsetMinutes);
// The labels of an axis's ticks (epoch microseconds, `stepUs` apart), all in one format: see
// format.cpp. Dates appear where the day changes.
QStringList axisLabels(const std::vector<double>& ticks, double stepUs, int tzOffsetMinutes);
// "file.py:6", the file's base name; empty when there is no file.
// The whole path and the line ("/x/train.py:25"), the path alone when the line is not known.
QString filePlace(const QString& path, int64_t line);
QString fileLine(std::string_view path, int64_t line);
QString baseName(std::string_view path);
QString qs(std::string_view s);
// The function a compile compiled: co_name, else the last dynamo_start frame's name.
QString compileFunction(const Compile& c);
QString compileFile(const Compile& c); // full path
int64_t compileLine(const Compile& c);
// TraceFile::label ("rank 1", "rank 1 · run 2" when ranks repeat), else "rank 1" or the file's
// base name when the rank is unknown.
QString rankLabel(const TraceFile& f);
// "1 compile", "3 compiles".
QString plural(uint64_t n, const QString& one, const QString& many);
// First line of a possibly multi-line text, trimmed.
QString firstLine(const std::string& text);
// A recompile reason in a few words: "x.size(0) 4→5", "x dtype float32→float16",
// "id(fn) changed"; else the start of the reason as logged.
QString shortRecompileReason(const RecompileReason& r);
// Why a compile is interesting, in a few words: its primary recompile reason (with "(+N)" for the
// other cache entries it was checked against), else its failure type, else its first graph
// break's reason; empty for a plain compile.
QString shortReason(const Compile& c);

} // namespace ui
} // namespace dynascope
