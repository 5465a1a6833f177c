// GuardTree: the guards Dynamo installed for one compile, parsed from `dynamo_cpp_guards_str`
// (an indented "+- KIND: expr  # where" tree) or from the older `dynamo_guards` JSON list.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

struct GuardNode {
    int depth = 0; // 0 = RootGuardManager
    int parent = -1; // index into GuardTree::nodes
    bool isManager = false; // "GuardManager: source=..." (or RootGuardManager) node
    std::string kind; // "TENSOR_MATCH", "GuardManager", "ID_MATCH", ...
    std::string expr; // text after "KIND: ", without the trailing "# where" comment
    std::string source; // for managers: the `source=` value, e.g. L['x']
    std::string where; // "_dynamo/output_graph.py:631 in init_ambient_guards" when present
    // The user source line that made the guard, logged before `where` since PyTorch 2.10
    // ("check_tensor(...)  # y = x * 2  # proj/train.py:4 in f"), without the "# "; or a note
    // PyTorch put there instead ("(unknown source L['x'].stride()[0], please file a bug)").
    std::string userCode;
    std::string userStack; // dynamo_guards JSON: the user stack text, when present
    uint32_t payloadLine = 0; // 0-based line inside the payload
};

struct GuardTree {
    std::vector<GuardNode> nodes;
    std::string latency; // "15.88 us" when the tree says so
    bool fromCpp = true; // false: from the dynamo_guards JSON list

    size_t guardCount() const; // nodes that are guards, not managers
    // Nearest GuardManager ancestor's source for a node (or its own source), "" if none.
    std::string sourceOf(int node) const;

    static GuardTree parseCpp(std::string_view payload);
    static GuardTree parseJsonList(std::string_view payload); // dynamo_guards
};

} // namespace dynascope
