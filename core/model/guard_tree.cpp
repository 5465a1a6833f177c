#include "core/model/guard_tree.h"

#include "core/util/json_dom.h"
#include "core/util/trim.h"

namespace dynascope {

size_t GuardTree::guardCount() const
{
    size_t n = 0;
    for (const auto& node : nodes)
        n += node.isManager ? 0 : 1;
    return n;
}

std::string GuardTree::sourceOf(int node) const
{
    while (node >= 0 && node < static_cast<int>(nodes.size())) {
        if (!nodes[node].source.empty())
            return nodes[node].source;
        node = nodes[node].parent;
    }
    return {};
}

namespace {
std::string_view trim(std::string_view s)
{
    return trimBlanks(s);
}

// "KIND: expr   # _dynamo/output_graph.py:631 in init_ambient_guards", and since PyTorch 2.10
// "KIND: expr  # user code  # proj/train.py:4 in f" (the path cut to its last characters).
void splitWhere(std::string_view text, std::string& expr, std::string& where, std::string& userCode)
{
    size_t hash = text.rfind("  # ");
    if (hash != std::string_view::npos) {
        std::string_view w = trim(text.substr(hash + 4));
        if (w.find(".py:") != std::string_view::npos || w.find(" in ") != std::string_view::npos) {
            where = std::string(w);
            text = text.substr(0, hash);
            // The first comment: user code may hold a comment of its own ("# type: ignore").
            if (size_t code = text.find("  # "); code != std::string_view::npos) {
                userCode = std::string(trim(text.substr(code + 4)));
                text = text.substr(0, code);
            }
        } else if (w.starts_with("(")) {
            // A note without a location: "  # (unknown source L['x'].stride()[0], ...)".
            userCode = std::string(w);
            text = text.substr(0, hash);
        }
    }
    expr = std::string(trim(text));
}

std::string extractSource(std::string_view expr)
{
    // "source=L['x'], accessed_by=..." -> L['x']; sources may contain ", " inside brackets.
    size_t p = expr.find("source=");
    if (p == std::string_view::npos)
        return {};
    p += 7;
    int depth = 0;
    size_t i = p;
    for (; i < expr.size(); ++i) {
        char c = expr[i];
        if (c == '[' || c == '(')
            ++depth;
        else if (c == ']' || c == ')')
            --depth;
        else if (c == ',' && depth <= 0)
            break;
    }
    return std::string(trim(expr.substr(p, i - p)));
}
} // namespace

GuardTree GuardTree::parseCpp(std::string_view payload)
{
    GuardTree tree;
    std::vector<int> stack; // node index per depth
    uint32_t lineNo = 0;
    size_t pos = 0;
    while (pos <= payload.size()) {
        size_t nl = payload.find('\n', pos);
        std::string_view line
            = payload.substr(pos, nl == std::string_view::npos ? payload.npos : nl - pos);
        uint32_t thisLine = lineNo++;
        pos = nl == std::string_view::npos ? payload.size() + 1 : nl + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        std::string_view t = trim(line);
        if (t.empty() || t == "TREE_GUARD_MANAGER:")
            continue;
        if (t.starts_with("Guard latency")) {
            size_t eq = t.find('=');
            tree.latency = eq == std::string_view::npos ? std::string(t)
                                                        : std::string(trim(t.substr(eq + 1)));
            continue;
        }
        int depth = 0;
        std::string_view rest = line;
        while (rest.starts_with("| ")) {
            ++depth;
            rest.remove_prefix(2);
        }
        if (!rest.starts_with("+- ")) {
            // A continuation of the previous node's text (multi-line guard expressions).
            if (!tree.nodes.empty())
                tree.nodes.back().expr += "\n" + std::string(t);
            continue;
        }
        rest.remove_prefix(3);
        GuardNode node;
        node.depth = depth;
        node.payloadLine = thisLine;
        size_t colon = rest.find(": ");
        std::string_view head
            = colon == std::string_view::npos ? trim(rest) : rest.substr(0, colon);
        bool plainWord
            = head.find(' ') == std::string_view::npos && head.find('(') == std::string_view::npos;
        if (colon != std::string_view::npos && plainWord) {
            node.kind = std::string(head);
            splitWhere(rest.substr(colon + 2), node.expr, node.where, node.userCode);
        } else {
            node.kind = plainWord ? std::string(head) : std::string();
            splitWhere(rest, node.expr, node.where, node.userCode);
            if (node.kind == node.expr)
                node.expr.clear();
        }
        node.isManager = node.kind.ends_with("GuardManager");
        if (node.isManager)
            node.source = extractSource(node.expr);
        if (static_cast<int>(stack.size()) > depth)
            stack.resize(static_cast<size_t>(depth));
        node.parent = stack.empty() ? -1 : stack.back();
        // Skipped levels (malformed indentation) attach to the deepest known ancestor.
        int index = static_cast<int>(tree.nodes.size());
        tree.nodes.push_back(std::move(node));
        while (static_cast<int>(stack.size()) < depth)
            stack.push_back(stack.empty() ? -1 : stack.back());
        stack.push_back(index);
    }
    return tree;
}

GuardTree GuardTree::parseJsonList(std::string_view payload)
{
    GuardTree tree;
    tree.fromCpp = false;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(payload.data(), payload.size()).get(doc))
        return tree;
    simdjson::dom::array list;
    if (doc.get_array().get(list))
        return tree;
    GuardNode root;
    root.kind = "RootGuardManager";
    root.isManager = true;
    tree.nodes.push_back(root);
    uint32_t i = 0;
    for (auto item : list) {
        GuardNode node;
        node.depth = 1;
        node.parent = 0;
        node.payloadLine = i++;
        auto code = json::str(item, "code");
        node.expr = code ? std::string(*code) : std::string();
        node.kind = "GUARD";
        simdjson::dom::element v;
        if (!item["user_stack"].get(v) && !v.is_null())
            node.userStack = json::text(v);
        if (!item["stack"].get(v) && !v.is_null())
            node.where = json::text(v);
        if (node.expr.empty())
            continue;
        tree.nodes.push_back(std::move(node));
    }
    return tree;
}

} // namespace dynascope
