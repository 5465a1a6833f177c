#include "core/analysis/guard_expr.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

namespace dynascope {

GuardValue GuardValue::unknown(std::string need)
{
    GuardValue v;
    if (!need.empty())
        v.needs.push_back(std::move(need));
    return v;
}
GuardValue GuardValue::none()
{
    GuardValue v;
    v.kind = Kind::None;
    return v;
}
GuardValue GuardValue::boolean(bool b)
{
    GuardValue v;
    v.kind = Kind::Bool;
    v.b = b;
    v.i = b ? 1 : 0;
    return v;
}
GuardValue GuardValue::integer(int64_t i)
{
    GuardValue v;
    v.kind = Kind::Int;
    v.i = i;
    return v;
}
GuardValue GuardValue::real(double f)
{
    GuardValue v;
    v.kind = Kind::Float;
    v.f = f;
    return v;
}
GuardValue GuardValue::str(std::string s)
{
    GuardValue v;
    v.kind = Kind::Str;
    v.s = std::move(s);
    return v;
}
GuardValue GuardValue::source(std::string path)
{
    GuardValue v;
    v.kind = Kind::Source;
    v.s = std::move(path);
    return v;
}

std::string GuardValue::toString() const
{
    switch (kind) {
    case Kind::Unknown:
        return "not known";
    case Kind::None:
        return "None";
    case Kind::Bool:
        return b ? "True" : "False";
    case Kind::Int:
        return std::to_string(i);
    case Kind::Float: {
        char buf[64];
        auto [p, ec] = std::to_chars(buf, buf + sizeof buf, f);
        std::string out(buf, ec == std::errc() ? p : buf);
        if (out.find_first_of(".eEn") == std::string::npos)
            out += ".0";
        return out;
    }
    case Kind::Str:
        return "'" + s + "'";
    case Kind::List: {
        std::string out = "[";
        for (size_t k = 0; k < items.size(); ++k)
            out += (k ? ", " : "") + items[k].toString();
        return out + "]";
    }
    case Kind::Source:
        return s;
    }
    return {};
}

std::string_view guardExprCore(std::string_view expr)
{
    // Cut at a "#" outside quotes and brackets, then drop ", type=<class '...'>" at the end.
    int depth = 0;
    char quote = 0;
    size_t cut = expr.size();
    for (size_t k = 0; k < expr.size(); ++k) {
        const char c = expr[k];
        if (quote) {
            if (c == '\\')
                ++k;
            else if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"')
            quote = c;
        else if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == ']' || c == '}')
            --depth;
        else if (depth <= 0 && (c == '#' || expr.substr(k).starts_with(", type=<"))) {
            // The comment, or the object's repr 2.11+ appends to ID_MATCH/TYPE_MATCH lines:
            // ", type=<class 'tuple'>  (HINT: type tuple)", ", type=<module 'torch' from
            // '...'>", ", type=<built-in method relu ...>", ", type=<code object f at 0x..., file
            // "...", line 42>", ", type=<... ProcessGroup object at 0x...>": quotes unbalanced.
            cut = k;
            break;
        }
    }
    expr = expr.substr(0, cut);
    while (!expr.empty() && (expr.back() == ' ' || expr.back() == '\t' || expr.back() == '\r'))
        expr.remove_suffix(1);
    while (!expr.empty() && (expr.front() == ' ' || expr.front() == '\t'))
        expr.remove_prefix(1);
    // A shape guard PyTorch logged while guards were suppressed (guard_added, 2.13+):
    // "[guard suppressed] 12*s89 + 32 <= 128".
    if (expr.starts_with("[guard suppressed]")) {
        expr.remove_prefix(std::string_view("[guard suppressed]").size());
        while (!expr.empty() && expr.front() == ' ')
            expr.remove_prefix(1);
    }
    return expr;
}

namespace {

enum class Tok : uint8_t { End, Int, Float, Str, Name, Op, Bad };

struct Token {
    Tok kind = Tok::End;
    std::string text;
    int64_t i = 0;
    double f = 0;
    uint32_t begin = 0, end = 0;
};

bool isNameStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Parser {
public:
    Parser(std::string_view text, GuardExpr& out)
        : text_(text)
        , out_(out)
    {
        next();
    }

    void run()
    {
        out_.root = expr(0);
        if (out_.error.empty() && tok_.kind != Tok::End)
            fail("unexpected '" + tok_.text + "'");
        if (!out_.error.empty())
            out_.root = -1;
    }

private:
    std::string_view text_;
    GuardExpr& out_;
    size_t pos_ = 0;
    Token tok_;
    std::vector<int> heights_; // per node

    void fail(const std::string& why)
    {
        if (out_.error.empty())
            out_.error = why + " at column " + std::to_string(tok_.begin + 1);
        tok_.kind = Tok::End; // stop consuming
    }

    void next()
    {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
            ++pos_;
        tok_ = Token {};
        tok_.begin = tok_.end = static_cast<uint32_t>(pos_);
        if (pos_ >= text_.size())
            return;
        const char c = text_[pos_];
        const size_t start = pos_;
        if (std::isdigit(static_cast<unsigned char>(c))
            || (c == '.' && pos_ + 1 < text_.size()
                && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
            bool real = false;
            while (pos_ < text_.size()) {
                const char d = text_[pos_];
                if (std::isdigit(static_cast<unsigned char>(d)) || d == '_')
                    ++pos_;
                else if (d == '.' || d == 'e' || d == 'E') {
                    real = true;
                    ++pos_;
                    if ((d == 'e' || d == 'E') && pos_ < text_.size()
                        && (text_[pos_] == '-' || text_[pos_] == '+'))
                        ++pos_;
                } else
                    break;
            }
            tok_.text = std::string(text_.substr(start, pos_ - start));
            if (real) {
                tok_.kind = Tok::Float;
                char* endp = nullptr;
                tok_.f = std::strtod(tok_.text.c_str(), &endp);
                if (!endp || *endp)
                    tok_.kind = Tok::Bad;
            } else {
                tok_.kind = Tok::Int;
                auto [p, ec] = std::from_chars(
                    tok_.text.data(), tok_.text.data() + tok_.text.size(), tok_.i);
                if (ec != std::errc() || p != tok_.text.data() + tok_.text.size())
                    tok_.kind = Tok::Bad; // too big, or "1_000"
            }
        } else if (c == '\'' || c == '"') {
            ++pos_;
            std::string s;
            bool closed = false;
            while (pos_ < text_.size()) {
                const char d = text_[pos_++];
                if (d == '\\' && pos_ < text_.size()) {
                    s += text_[pos_++];
                } else if (d == c) {
                    closed = true;
                    break;
                } else
                    s += d;
            }
            tok_.kind = closed ? Tok::Str : Tok::Bad;
            tok_.text = std::move(s);
        } else if (isNameStart(c)) {
            while (pos_ < text_.size() && isNameChar(text_[pos_]))
                ++pos_;
            tok_.kind = Tok::Name;
            tok_.text = std::string(text_.substr(start, pos_ - start));
        } else {
            static constexpr std::string_view two[] = { "<=", ">=", "==", "!=", "//", "**" };
            tok_.kind = Tok::Op;
            for (std::string_view t : two)
                if (text_.substr(pos_, 2) == t) {
                    tok_.text = std::string(t);
                    pos_ += 2;
                    break;
                }
            if (tok_.text.empty()) {
                if (std::string_view("<>+-*/%()[]{},.=").find(c) == std::string_view::npos)
                    tok_.kind = Tok::Bad;
                tok_.text = std::string(1, c);
                ++pos_;
            }
        }
        tok_.end = static_cast<uint32_t>(pos_);
    }

    bool isOp(std::string_view t) const { return tok_.kind == Tok::Op && tok_.text == t; }
    bool isWord(std::string_view t) const { return tok_.kind == Tok::Name && tok_.text == t; }
    int make(
        GuardExprNode::Op op, uint32_t begin, std::vector<int> kids = {}, std::string text = {})
    {
        GuardExprNode n;
        n.op = op;
        n.begin = begin;
        n.end = tok_.begin > begin ? tok_.begin : begin;
        n.kids = std::move(kids);
        n.text = std::move(text);
        // Chains built in loops (a.b.c..., a + b + c ...) nest too: bound the tree's height so
        // that evaluating it recurses no deeper than parsing may.
        int height = 1;
        for (int k : n.kids)
            if (k >= 0)
                height = std::max(height, heights_[size_t(k)] + 1);
        if (height > GuardExpr::kMaxDepth * 2)
            fail("nested too deeply");
        heights_.push_back(height);
        out_.nodes.push_back(std::move(n));
        return static_cast<int>(out_.nodes.size()) - 1;
    }
    uint32_t lastEnd_ = 0;
    void consume()
    {
        lastEnd_ = tok_.end;
        next();
    }
    bool take(std::string_view t)
    {
        if (!isOp(t))
            return false;
        consume();
        return true;
    }
    void need(std::string_view t)
    {
        if (!take(t))
            fail("expected '" + std::string(t) + "'");
    }

    bool deep(int depth)
    {
        if (depth <= GuardExpr::kMaxDepth)
            return false;
        fail("nested too deeply");
        return true;
    }

    int finish(int node)
    {
        if (node >= 0)
            out_.nodes[node].end = lastEnd_;
        return node;
    }

    int expr(int depth)
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        int a = disjunction(depth + 1);
        if (isWord("if") && out_.error.empty()) {
            consume();
            int cond = disjunction(depth + 1);
            if (!isWord("else"))
                fail("expected 'else'");
            else
                consume();
            int b = expr(depth + 1);
            return finish(make(GuardExprNode::Op::IfElse, begin, { cond, a, b }));
        }
        return a;
    }

    int disjunction(int depth)
    {
        return chain(depth, "or", GuardExprNode::Op::Or, &Parser::conjunction);
    }
    int conjunction(int depth)
    {
        return chain(depth, "and", GuardExprNode::Op::And, &Parser::negation);
    }

    // `operand (WORD operand)*`: one node of `op` over the operands, or the lone operand.
    int chain(int depth, std::string_view word, GuardExprNode::Op op, int (Parser::*operand)(int))
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        int a = (this->*operand)(depth + 1);
        if (!isWord(word))
            return a;
        std::vector<int> kids { a };
        while (isWord(word) && out_.error.empty()) {
            consume();
            kids.push_back((this->*operand)(depth + 1));
        }
        return finish(make(op, begin, std::move(kids)));
    }

    int negation(int depth)
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        if (isWord("not")) {
            consume();
            int a = negation(depth + 1);
            return finish(make(GuardExprNode::Op::Not, begin, { a }));
        }
        return comparison(depth + 1);
    }

    // a < b <= c: a Compare node with operands and operators alternating in kids/text.
    int comparison(int depth)
    {
        const uint32_t begin = tok_.begin;
        int a = arith(depth + 1);
        std::vector<int> kids { a };
        std::string ops;
        while (out_.error.empty()) {
            std::string op;
            if (tok_.kind == Tok::Op
                && (tok_.text == "==" || tok_.text == "!=" || tok_.text == "<" || tok_.text == "<="
                    || tok_.text == ">" || tok_.text == ">=")) {
                op = tok_.text;
                consume();
            } else if (isWord("is")) {
                consume();
                op = "is";
                if (isWord("not")) {
                    consume();
                    op = "is not";
                }
            } else if (isWord("in")) {
                consume();
                op = "in";
            } else if (isWord("not")) {
                consume();
                if (!isWord("in")) {
                    fail("expected 'in'");
                    break;
                }
                consume();
                op = "not in";
            } else
                break;
            ops += (ops.empty() ? "" : ";") + op;
            kids.push_back(arith(depth + 1));
        }
        if (kids.size() == 1)
            return a;
        return finish(make(GuardExprNode::Op::Compare, begin, std::move(kids), std::move(ops)));
    }

    int arith(int depth)
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        int a = term(depth + 1);
        while (out_.error.empty() && (isOp("+") || isOp("-"))) {
            std::string op = tok_.text;
            consume();
            int b = term(depth + 1);
            a = finish(make(GuardExprNode::Op::Binary, begin, { a, b }, std::move(op)));
        }
        return a;
    }

    int term(int depth)
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        int a = unary(depth + 1);
        while (out_.error.empty() && (isOp("*") || isOp("/") || isOp("//") || isOp("%"))) {
            std::string op = tok_.text;
            consume();
            int b = unary(depth + 1);
            a = finish(make(GuardExprNode::Op::Binary, begin, { a, b }, std::move(op)));
        }
        return a;
    }

    int unary(int depth)
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        if (isOp("-") || isOp("+")) {
            const bool neg = isOp("-");
            consume();
            int a = unary(depth + 1);
            return neg ? finish(make(GuardExprNode::Op::Neg, begin, { a })) : a;
        }
        int a = postfix(depth + 1);
        if (isOp("**") && out_.error.empty()) {
            consume();
            int b = unary(depth + 1);
            return finish(make(GuardExprNode::Op::Binary, begin, { a, b }, "**"));
        }
        return a;
    }

    int postfix(int depth)
    {
        const uint32_t begin = tok_.begin;
        int a = atom(depth + 1);
        while (out_.error.empty()) {
            if (take(".")) {
                if (tok_.kind != Tok::Name) {
                    fail("expected a name after '.'");
                    break;
                }
                std::string name = tok_.text;
                consume();
                a = finish(make(GuardExprNode::Op::Attr, begin, { a }, std::move(name)));
            } else if (take("[")) {
                int idx = expr(depth + 1);
                need("]");
                a = finish(make(GuardExprNode::Op::Index, begin, { a, idx }));
            } else if (take("(")) {
                std::vector<int> kids { a };
                arguments(depth + 1, ")", kids, true);
                a = finish(make(GuardExprNode::Op::Call, begin, std::move(kids)));
            } else
                break;
        }
        return a;
    }

    // Comma-separated items up to `close`; keyword arguments when `keywords`. True when a
    // comma was seen (a one-item tuple).
    bool arguments(int depth, std::string_view close, std::vector<int>& kids, bool keywords)
    {
        bool comma = false;
        while (out_.error.empty() && !isOp(close)) {
            if (tok_.kind == Tok::End) {
                fail("expected '" + std::string(close) + "'");
                break;
            }
            const uint32_t begin = tok_.begin;
            if (keywords && tok_.kind == Tok::Name && pos_ < text_.size()) {
                // name=value (and not name==value)
                size_t p = pos_;
                while (p < text_.size() && text_[p] == ' ')
                    ++p;
                if (p < text_.size() && text_[p] == '='
                    && (p + 1 >= text_.size() || text_[p + 1] != '=')) {
                    std::string name = tok_.text;
                    consume();
                    need("=");
                    int v = expr(depth + 1);
                    kids.push_back(
                        finish(make(GuardExprNode::Op::Keyword, begin, { v }, std::move(name))));
                    if (!take(","))
                        break;
                    comma = true;
                    continue;
                }
            }
            kids.push_back(expr(depth + 1));
            if (!take(","))
                break;
            comma = true;
        }
        need(close);
        return comma;
    }

    int atom(int depth)
    {
        if (deep(depth))
            return -1;
        const uint32_t begin = tok_.begin;
        switch (tok_.kind) {
        case Tok::Int: {
            int n = make(GuardExprNode::Op::Int, begin);
            out_.nodes[n].i = tok_.i;
            consume();
            return finish(n);
        }
        case Tok::Float: {
            int n = make(GuardExprNode::Op::Float, begin);
            out_.nodes[n].f = tok_.f;
            consume();
            return finish(n);
        }
        case Tok::Str: {
            int n = make(GuardExprNode::Op::Str, begin, {}, tok_.text);
            consume();
            return finish(n);
        }
        case Tok::Name: {
            if (tok_.text == "not" || tok_.text == "and" || tok_.text == "or" || tok_.text == "if"
                || tok_.text == "else" || tok_.text == "is" || tok_.text == "in") {
                fail("unexpected '" + tok_.text + "'");
                return -1;
            }
            int n = make(GuardExprNode::Op::Name, begin, {}, tok_.text);
            consume();
            return finish(n);
        }
        case Tok::Op: {
            std::vector<int> kids;
            if (take("(")) {
                if (isOp(")")) { // ()
                    consume();
                    return finish(make(GuardExprNode::Op::Tuple, begin));
                }
                const bool comma = arguments(depth + 1, ")", kids, false);
                if (kids.size() == 1 && !comma)
                    return kids.front();
                return finish(make(GuardExprNode::Op::Tuple, begin, std::move(kids)));
            }
            if (take("[")) {
                arguments(depth + 1, "]", kids, false);
                return finish(make(GuardExprNode::Op::List, begin, std::move(kids)));
            }
            if (take("{")) {
                arguments(depth + 1, "}", kids, false);
                return finish(make(GuardExprNode::Op::Set, begin, std::move(kids)));
            }
            fail("unexpected '" + tok_.text + "'");
            return -1;
        }
        case Tok::End:
            fail("unexpected end");
            return -1;
        case Tok::Bad:
            fail("cannot read '" + tok_.text + "'");
            return -1;
        }
        return -1;
    }
};

// Python's floor division and modulo.
bool floorDiv(int64_t a, int64_t b, int64_t& out)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return false;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    out = q;
    return true;
}
bool pyMod(int64_t a, int64_t b, int64_t& out)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return false;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    out = r;
    return true;
}

GuardValue merged(const GuardValue& a, const GuardValue& b)
{
    GuardValue u = GuardValue::unknown();
    for (const GuardValue* v : { &a, &b })
        for (const auto& n : v->needs)
            if (std::find(u.needs.begin(), u.needs.end(), n) == u.needs.end())
                u.needs.push_back(n);
    return u;
}

double asDouble(const GuardValue& v)
{
    return v.kind == GuardValue::Kind::Float ? v.f : double(v.i);
}

GuardValue arithmetic(const std::string& op, const GuardValue& a, const GuardValue& b)
{
    if (!a.known() || !b.known())
        return merged(a, b);
    if (!a.isNumber() || !b.isNumber())
        return GuardValue::unknown();
    const bool ints = a.kind != GuardValue::Kind::Float && b.kind != GuardValue::Kind::Float;
    if (ints) {
        int64_t r = 0;
        bool ok = true;
        if (op == "+")
            ok = !__builtin_add_overflow(a.i, b.i, &r);
        else if (op == "-")
            ok = !__builtin_sub_overflow(a.i, b.i, &r);
        else if (op == "*")
            ok = !__builtin_mul_overflow(a.i, b.i, &r);
        else if (op == "//")
            ok = floorDiv(a.i, b.i, r);
        else if (op == "%")
            ok = pyMod(a.i, b.i, r);
        else if (op == "/")
            return b.i == 0 ? GuardValue::unknown() : GuardValue::real(double(a.i) / double(b.i));
        else if (op == "**") {
            if (b.i < 0 || b.i > 64)
                return GuardValue::unknown();
            r = 1;
            for (int64_t k = 0; k < b.i && ok; ++k)
                ok = !__builtin_mul_overflow(r, a.i, &r);
        }
        return ok ? GuardValue::integer(r) : GuardValue::unknown();
    }
    const double x = asDouble(a), y = asDouble(b);
    if (op == "+")
        return GuardValue::real(x + y);
    if (op == "-")
        return GuardValue::real(x - y);
    if (op == "*")
        return GuardValue::real(x * y);
    if (op == "/")
        return y == 0 ? GuardValue::unknown() : GuardValue::real(x / y);
    if (op == "//")
        return y == 0 ? GuardValue::unknown() : GuardValue::real(std::floor(x / y));
    if (op == "%")
        return y == 0 ? GuardValue::unknown() : GuardValue::real(x - y * std::floor(x / y));
    if (op == "**")
        return GuardValue::real(std::pow(x, y));
    return GuardValue::unknown();
}

bool equalValues(const GuardValue& a, const GuardValue& b)
{
    if (a.isNumber() && b.isNumber())
        return asDouble(a) == asDouble(b)
            && (a.kind == GuardValue::Kind::Float || b.kind == GuardValue::Kind::Float
                || a.i == b.i);
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case GuardValue::Kind::None:
        return true;
    case GuardValue::Kind::Str:
        return a.s == b.s;
    case GuardValue::Kind::List:
        if (a.items.size() != b.items.size())
            return false;
        for (size_t k = 0; k < a.items.size(); ++k)
            if (!equalValues(a.items[k], b.items[k]))
                return false;
        return true;
    default:
        return false;
    }
}

GuardValue compare(const std::string& op, const GuardValue& a, const GuardValue& b)
{
    if (!a.known() || !b.known())
        return merged(a, b);
    if (op == "==" || op == "is")
        return GuardValue::boolean(equalValues(a, b));
    if (op == "!=" || op == "is not")
        return GuardValue::boolean(!equalValues(a, b));
    if (op == "in" || op == "not in") {
        if (b.kind != GuardValue::Kind::List)
            return GuardValue::unknown();
        bool found = false;
        for (const auto& item : b.items)
            found = found || equalValues(a, item);
        return GuardValue::boolean(op == "in" ? found : !found);
    }
    if (a.isNumber() && b.isNumber()) {
        const bool ints = a.kind != GuardValue::Kind::Float && b.kind != GuardValue::Kind::Float;
        const int c = ints ? (a.i < b.i   ? -1
                              : a.i > b.i ? 1
                                          : 0)
                           : (asDouble(a) < asDouble(b)        ? -1
                                   : asDouble(a) > asDouble(b) ? 1
                                                               : 0);
        if (op == "<")
            return GuardValue::boolean(c < 0);
        if (op == "<=")
            return GuardValue::boolean(c <= 0);
        if (op == ">")
            return GuardValue::boolean(c > 0);
        if (op == ">=")
            return GuardValue::boolean(c >= 0);
    }
    return GuardValue::unknown();
}

// Python truth of a known value; -1 when not known.
int truth(const GuardValue& v)
{
    switch (v.kind) {
    case GuardValue::Kind::None:
        return 0;
    case GuardValue::Kind::Bool:
    case GuardValue::Kind::Int:
        return v.i != 0;
    case GuardValue::Kind::Float:
        return v.f != 0;
    case GuardValue::Kind::Str:
        return !v.s.empty();
    case GuardValue::Kind::List:
        return !v.items.empty();
    default:
        return -1;
    }
}

GuardValue resolved(const GuardValue& v, const GuardResolver& resolve)
{
    if (v.kind != GuardValue::Kind::Source)
        return v;
    GuardValue r = resolve(v.s);
    if (r.kind == GuardValue::Kind::Source
        || (r.kind == GuardValue::Kind::Unknown && r.needs.empty()))
        return GuardValue::unknown(v.s);
    return r;
}

} // namespace

GuardExpr GuardExpr::parse(std::string_view text)
{
    GuardExpr e;
    e.text = std::string(text);
    if (text.size() > 1'000'000) {
        e.error = "longer than 1,000,000 characters";
        return e;
    }
    Parser p(e.text, e);
    p.run();
    return e;
}

std::string_view GuardExpr::spanText(int node) const
{
    if (node < 0 || node >= static_cast<int>(nodes.size()))
        return {};
    const auto& n = nodes[node];
    if (n.begin >= text.size() || n.end <= n.begin)
        return {};
    return std::string_view(text).substr(n.begin, std::min<size_t>(n.end, text.size()) - n.begin);
}

std::string GuardExpr::sourcePath(int node) const
{
    if (node < 0 || node >= static_cast<int>(nodes.size()))
        return {};
    const auto& n = nodes[node];
    switch (n.op) {
    case GuardExprNode::Op::Name:
        return n.text;
    case GuardExprNode::Op::Attr: {
        std::string base = sourcePath(n.kids[0]);
        return base.empty() ? "" : base + "." + n.text;
    }
    case GuardExprNode::Op::Index: {
        std::string base = sourcePath(n.kids[0]);
        if (base.empty() || n.kids[1] < 0)
            return {};
        const auto& k = nodes[n.kids[1]];
        if (k.op == GuardExprNode::Op::Str)
            return base + "['" + k.text + "']";
        if (k.op == GuardExprNode::Op::Int)
            return base + "[" + std::to_string(k.i) + "]";
        return {};
    }
    case GuardExprNode::Op::Call: {
        // Methods without arguments (L['x'].size()) and with one int (L['x'].size(0)).
        if (nodes[n.kids[0]].op != GuardExprNode::Op::Attr)
            return {};
        std::string base = sourcePath(n.kids[0]);
        if (base.empty())
            return {};
        if (n.kids.size() == 1)
            return base + "()";
        if (n.kids.size() == 2 && n.kids[1] >= 0 && nodes[n.kids[1]].op == GuardExprNode::Op::Int)
            return base + "(" + std::to_string(nodes[n.kids[1]].i) + ")";
        return {};
    }
    default:
        return {};
    }
}

GuardValue GuardExpr::evaluate(const GuardResolver& resolve) const
{
    if (!ok())
        return GuardValue::unknown();
    return resolved(evaluate(root, resolve), resolve);
}

GuardValue GuardExpr::evaluate(int node, const GuardResolver& resolve) const
{
    using Op = GuardExprNode::Op;
    if (node < 0 || node >= static_cast<int>(nodes.size()))
        return GuardValue::unknown();
    const auto& n = nodes[node];
    auto value = [&](int k) { return resolved(evaluate(k, resolve), resolve); };
    switch (n.op) {
    case Op::Int:
        return GuardValue::integer(n.i);
    case Op::Float:
        return GuardValue::real(n.f);
    case Op::Str:
        return GuardValue::str(n.text);
    case Op::Name:
        if (n.text == "True" || n.text == "False")
            return GuardValue::boolean(n.text == "True");
        if (n.text == "None")
            return GuardValue::none();
        if (n.text == "oo" || n.text == "inf")
            return GuardValue::real(HUGE_VAL);
        return GuardValue::source(n.text);
    case Op::List:
    case Op::Tuple:
    case Op::Set: {
        GuardValue v;
        v.kind = GuardValue::Kind::List;
        for (int k : n.kids) {
            GuardValue item = value(k);
            if (!item.known())
                return item;
            v.items.push_back(std::move(item));
        }
        return v;
    }
    case Op::Attr:
    case Op::Index: {
        std::string path = sourcePath(node);
        if (!path.empty())
            return GuardValue::source(std::move(path));
        if (n.op == Op::Index) { // list(...)[0], (1, 2)[k]
            GuardValue base = value(n.kids[0]);
            GuardValue idx = value(n.kids[1]);
            if (base.kind == GuardValue::Kind::List && idx.kind == GuardValue::Kind::Int) {
                int64_t k = idx.i < 0 ? idx.i + int64_t(base.items.size()) : idx.i;
                if (k >= 0 && k < int64_t(base.items.size()))
                    return base.items[size_t(k)];
            }
            return base.known() && idx.known() ? GuardValue::unknown() : merged(base, idx);
        }
        return GuardValue::unknown(std::string(spanText(node)));
    }
    case Op::Keyword:
        return value(n.kids[0]);
    case Op::Call: {
        const auto& callee = nodes[n.kids[0]];
        std::vector<int> args(n.kids.begin() + 1, n.kids.end());
        if (callee.op == Op::Attr && callee.text == "issubset" && args.size() == 1) {
            GuardValue a = value(callee.kids[0]), b = value(args[0]);
            if (a.kind != GuardValue::Kind::List || b.kind != GuardValue::Kind::List)
                return a.known() && b.known() ? GuardValue::unknown() : merged(a, b);
            for (const auto& item : a.items)
                if (std::none_of(b.items.begin(), b.items.end(),
                        [&](const GuardValue& x) { return equalValues(item, x); }))
                    return GuardValue::boolean(false);
            return GuardValue::boolean(true);
        }
        if (std::string path = sourcePath(node); !path.empty())
            return GuardValue::source(std::move(path)); // L['x'].size(), L['x'].stride(1)
        const std::string fn
            = callee.op == Op::Name ? callee.text : std::string(spanText(n.kids[0]));
        auto arg
            = [&](size_t k) { return k < args.size() ? value(args[k]) : GuardValue::unknown(); };
        auto pathOf
            = [&](size_t k) { return k < args.size() ? sourcePath(args[k]) : std::string(); };
        if (fn == "len" && args.size() == 1) {
            if (std::string p = pathOf(0); !p.empty())
                return resolved(GuardValue::source("len(" + p + ")"), resolve);
            GuardValue v = arg(0);
            if (v.kind == GuardValue::Kind::List)
                return GuardValue::integer(int64_t(v.items.size()));
            if (v.kind == GuardValue::Kind::Str)
                return GuardValue::integer(int64_t(v.s.size()));
            return v.known() ? GuardValue::unknown() : v;
        }
        if ((fn == "hasattr" || fn == "getattr") && args.size() >= 2) {
            GuardValue attr = arg(1);
            std::string p = pathOf(0);
            if (p.empty() || attr.kind != GuardValue::Kind::Str)
                return GuardValue::unknown(std::string(spanText(node)));
            GuardValue v = resolve(fn + "(" + p + ", '" + attr.s + "')");
            if (v.kind == GuardValue::Kind::Unknown && v.needs.empty())
                return GuardValue::unknown(fn + "(" + p + ", '" + attr.s + "')");
            return v;
        }
        if (fn == "set" && args.empty()) {
            GuardValue v;
            v.kind = GuardValue::Kind::List;
            return v;
        }
        if ((fn == "list" || fn == "tuple" || fn == "set") && args.size() == 1)
            return arg(0).kind == GuardValue::Kind::List
                ? arg(0)
                : GuardValue::unknown(std::string(spanText(node)));
        static const std::set<std::string> comparisons { "Eq", "Ne", "Lt", "Le", "Gt", "Ge" };
        if (comparisons.count(fn) && args.size() == 2) {
            static const char* ops[][2] = { { "Eq", "==" }, { "Ne", "!=" }, { "Lt", "<" },
                { "Le", "<=" }, { "Gt", ">" }, { "Ge", ">=" } };
            for (const auto& o : ops)
                if (fn == o[0])
                    return compare(o[1], arg(0), arg(1));
        }
        if ((fn == "Mod" || fn == "PythonMod") && args.size() == 2)
            return arithmetic("%", arg(0), arg(1));
        if ((fn == "FloorDiv" || fn == "CleanDiv") && args.size() == 2)
            return arithmetic("//", arg(0), arg(1));
        if ((fn == "IntTrueDiv" || fn == "FloatTrueDiv") && args.size() == 2)
            return arithmetic("/", arg(0), arg(1));
        if ((fn == "CeilToInt" || fn == "FloorToInt" || fn == "TruncToInt" || fn == "RoundToInt")
            && args.size() == 1) {
            GuardValue v = arg(0);
            if (!v.isNumber())
                return v;
            const double d = asDouble(v);
            const double r = fn == "CeilToInt" ? std::ceil(d)
                : fn == "FloorToInt"           ? std::floor(d)
                : fn == "TruncToInt"           ? std::trunc(d)
                                               : std::nearbyint(d);
            if (!(std::fabs(r) < 9.2e18))
                return GuardValue::unknown();
            return GuardValue::integer(int64_t(r));
        }
        if ((fn == "Max" || fn == "Min") && !args.empty()) {
            GuardValue best = arg(0);
            for (size_t k = 1; k < args.size() && best.known(); ++k) {
                GuardValue v = arg(k);
                GuardValue less = compare("<", v, best);
                if (!less.known())
                    return merged(best, v);
                if (less.b == (fn == "Min"))
                    best = v;
            }
            return best;
        }
        if (fn == "Abs" && args.size() == 1) {
            GuardValue v = arg(0);
            if (v.kind == GuardValue::Kind::Int && v.i != INT64_MIN)
                return GuardValue::integer(v.i < 0 ? -v.i : v.i);
            if (v.kind == GuardValue::Kind::Float)
                return GuardValue::real(std::fabs(v.f));
            return v;
        }
        if ((fn == "And" || fn == "Or") && !args.empty()) {
            const bool isAnd = fn == "And";
            GuardValue u = GuardValue::unknown();
            bool anyUnknown = false;
            for (size_t k = 0; k < args.size(); ++k) {
                GuardValue v = arg(k);
                const int t = truth(v);
                if (t < 0) {
                    anyUnknown = true;
                    u = merged(u, v);
                } else if (bool(t) != isAnd)
                    return GuardValue::boolean(!isAnd);
            }
            return anyUnknown ? u : GuardValue::boolean(isAnd);
        }
        if (fn == "Not" && args.size() == 1) {
            GuardValue v = arg(0);
            const int t = truth(v);
            return t < 0 ? v : GuardValue::boolean(!t);
        }
        return GuardValue::unknown(std::string(spanText(node))); // opaque (___check_obj_id, ...)
    }
    case Op::Neg: {
        GuardValue v = value(n.kids[0]);
        if (v.kind == GuardValue::Kind::Float)
            return GuardValue::real(-v.f);
        if (v.isNumber() && v.i != INT64_MIN)
            return GuardValue::integer(-v.i);
        return v.known() ? GuardValue::unknown() : v;
    }
    case Op::Not: {
        GuardValue v = value(n.kids[0]);
        const int t = truth(v);
        return t < 0 ? v : GuardValue::boolean(!t);
    }
    case Op::Binary:
        return arithmetic(n.text, value(n.kids[0]), value(n.kids[1]));
    case Op::Compare: {
        // a < b <= c: every link true; false when one is known false.
        std::vector<std::string> ops;
        size_t start = 0;
        for (size_t k = 0; k <= n.text.size(); ++k)
            if (k == n.text.size() || n.text[k] == ';') {
                ops.push_back(n.text.substr(start, k - start));
                start = k + 1;
            }
        GuardValue left = value(n.kids[0]);
        GuardValue pending = GuardValue::boolean(true);
        bool unknownSeen = false;
        for (size_t k = 0; k < ops.size() && k + 1 < n.kids.size(); ++k) {
            GuardValue right = value(n.kids[k + 1]);
            GuardValue r = compare(ops[k], left, right);
            if (r.kind == GuardValue::Kind::Bool && !r.b)
                return r;
            if (!r.known()) {
                unknownSeen = true;
                pending = merged(pending.known() ? GuardValue::unknown() : pending, r);
            }
            left = std::move(right);
        }
        return unknownSeen ? pending : GuardValue::boolean(true);
    }
    case Op::And:
    case Op::Or: {
        const bool isAnd = n.op == Op::And;
        GuardValue u = GuardValue::unknown();
        bool anyUnknown = false;
        for (int k : n.kids) {
            GuardValue v = value(k);
            const int t = truth(v);
            if (t < 0) {
                anyUnknown = true;
                u = merged(u, v);
            } else if (bool(t) != isAnd)
                return GuardValue::boolean(!isAnd);
        }
        return anyUnknown ? u : GuardValue::boolean(isAnd);
    }
    case Op::IfElse: {
        GuardValue c = value(n.kids[0]);
        const int t = truth(c);
        if (t < 0)
            return c;
        return value(n.kids[t ? 1 : 2]);
    }
    }
    return GuardValue::unknown();
}

} // namespace dynascope
