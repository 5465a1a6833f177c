// Redactor: consistent placeholders for the identifying strings of a trace subset. File paths
// become /redacted/file1.py, /redacted/file2.py ... (extension kept), function names fn1, fn2 ...
// in the order they are first registered, so one name maps to one placeholder across the file.
//
// redact() rewrites any text: known paths (longest first) and their base names, then any other
// absolute path (a '/' not preceded by a name character, two or more components; or C:\...),
// then known function names as whole identifiers. Resume frames keep their shape
// (torch_dynamo_resume_in_fn1_at_19), so the loader still links a graph break to its resume frame.
// Dunder names (__init__), <module>-style names and PyTorch's own identifiers stay as they are.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

class Redactor {
public:
    void addPath(std::string_view path);
    void addFunction(std::string_view name);
    // Registers the paths and names of `File "...", line N, in NAME` lines in text.
    void learnFromText(std::string_view text);

    std::string redact(std::string_view text);
    // Paths only (for the glog prefix, whose emitter may be an absolute path).
    std::string redactPaths(std::string_view text);
    std::string pathPlaceholder(std::string_view path);

    size_t pathCount() const { return m_paths.size(); }
    size_t functionCount() const { return m_functions.size(); }

private:
    std::string functionPlaceholder(std::string_view name);
    void rebuildPathOrder();

    std::map<std::string, std::string, std::less<>> m_paths; // path -> placeholder
    std::map<std::string, std::string, std::less<>> m_baseNames; // base name -> placeholder base
    std::map<std::string, std::string, std::less<>> m_functions; // name -> fnN (or resume form)
    std::vector<std::string> m_pathOrder; // known paths, longest first
    bool m_orderDirty = false;
    size_t m_nextFile = 1;
    size_t m_nextFunction = 1;
};

} // namespace dynascope
