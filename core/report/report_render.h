// Renderers of the compile report (report.h): Markdown for issues, standalone HTML (inline CSS,
// no scripts, no external resources, every trace string escaped), and JSON with the stable
// schema documented in docs/cli.md ("format": "dynascope-report", "format_version": 1).
#pragma once

#include "core/report/report.h"

#include <optional>
#include <string>
#include <string_view>

namespace dynascope {

enum class ReportFormat { Markdown, Html, Json };

std::optional<ReportFormat> parseReportFormat(std::string_view name); // "md", "html", "json"

std::string reportMarkdown(const Report& report);
std::string reportHtml(const Report& report);
std::string reportJson(const Report& report);
std::string renderReport(const Report& report, ReportFormat format);

} // namespace dynascope
