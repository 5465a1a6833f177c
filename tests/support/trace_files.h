// The trace files of a folder tree, for tests that run over every real trace: *.log, *.txt,
// *.zst and *.gz files of at most 8 MiB under `dir`, sorted; nothing when `dir` is absent.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace dynascope::testsupport {

inline void addTraceFiles(const std::filesystem::path& dir, std::vector<std::string>& out)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec) || it->file_size(ec) > (8u << 20))
            continue;
        const std::string name = it->path().filename().string();
        if (name.ends_with(".log") || name.ends_with(".txt") || name.ends_with(".zst")
            || name.ends_with(".gz"))
            out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
}

} // namespace dynascope::testsupport
