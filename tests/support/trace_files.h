// The trace files of a folder tree, for tests that run over every real trace: *.log, *.txt,
// *.zst and *.gz files of at most `maxBytes` (8 MiB by default) under `dir`, sorted; nothing when
// `dir` is absent. The folders beside the traces hold other files (README, SOURCE.md, the
// programs that made them, manifests): only these names are traces.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace dynascope::testsupport {

inline void addTraceFiles(
    const std::filesystem::path& dir, std::vector<std::string>& out, uintmax_t maxBytes = 8u << 20)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec) || it->file_size(ec) > maxBytes || it->file_size(ec) == 0)
            continue;
        const std::string name = it->path().filename().string();
        if (name.ends_with(".log") || name.ends_with(".txt") || name.ends_with(".zst")
            || name.ends_with(".gz"))
            out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
}

} // namespace dynascope::testsupport
