// The guard expression parser (core/analysis/guard_expr.h) on every guard line of every real
// trace at hand: the committed recordings (torch 2.13.0 and 2.14.1), and in ../shared/traces the
// tlparse corpus and the torch 2.11 H200 suite (those two skip, with a message, without it). A
// guard line is each node of each dynamo_cpp_guards_str and dynamo_guards record (every record,
// not only the one a compile keeps), the guard trees TORCH_LOGS text gives, and the shape guards
// (guard_added, guard_added_fast). Every line parses, except the three forms below that are not
// expressions at all, each counted; and every function and operator the parsed lines use is one
// guard_expr.h lists (a new one fails the test, naming it and where it was seen).
//
// Then the guard lab against PyTorch's own decisions on the 2.11 suite, which has no probe
// scenario: for every recompile (a compile with recompile reasons), the input that triggered it,
// asked against the cache as it stood before that compile (evaluateGuards(..., firstCompiles)),
// must recompile, as PyTorch did.
#include "core/analysis/guard_expr.h"
#include "core/analysis/guard_input.h"
#include "core/analysis/guard_lab.h"
#include "core/load/loader.h"
#include "core/model/guard_tree.h"
#include "core/model/trace.h"

#include "tests/support/trace_files.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

using namespace dynascope;

namespace {

const QString kShared = QStringLiteral(DYNASCOPE_SHARED_TRACES);

// The lines that are not expressions, and why; nullptr for every other line.
const char* notAnExpression(const std::string& kind, const std::string& expr)
{
    if (expr.empty() && (kind == "NO_TENSOR_ALIASING" || kind == "OBJECT_ALIASING"))
        return "NO_TENSOR_ALIASING / OBJECT_ALIASING with nothing after the kind: PyTorch prints "
               "the check once with its arguments (check_no_aliasing(L['a'], L['b'])), then the "
               "bare kind under each other tensor's manager";
    if (kind == "LAMBDA_GUARD"
        && expr == "torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None")
        return "LAMBDA_GUARD 'torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == "
               "None': PyTorch's words for an ambient check ('hooks ids' is not Python); the lab "
               "decides it by its text, as recorded";
    if (kind == "GLOBAL_STATE" && expr.starts_with("___check_global_state() against {"))
        return "GLOBAL_STATE '___check_global_state() against {JSON}': a call and the JSON of the "
               "state it compares; the lab reads the JSON by the guard's kind";
    return nullptr;
}

// The functions, methods and operators guard_expr.h lists: evaluated, or opaque (not known: the
// lab decides those guards by their kind or by comparing with the recorded entries).
const std::set<std::string>& listedForms()
{
    static const std::set<std::string> forms { // operators and displays
        "==", "!=", "<", "<=", ">", ">=", "a < b <= c", "is", "is not", "in", "not in", "+", "-",
        "*", "/", "//", "%", "**", "unary -", "not", "and", "or", "x if c else y", "(tuple)",
        "[list]", "{set}", "name=value",
        // evaluated
        "len()", "hasattr()", "getattr()", "set()", "list()", "tuple()", ".issubset()", ".size()",
        ".stride()", "Eq()", "Ne()", "Lt()", "Le()", "Gt()", "Ge()", "Mod()", "PythonMod()",
        "FloorDiv()", "CleanDiv()", "IntTrueDiv()", "FloatTrueDiv()", "CeilToInt()", "FloorToInt()",
        "TruncToInt()", "RoundToInt()", "Max()", "Min()", "Abs()", "And()", "Or()", "Not()",
        // opaque: decided by the guard's kind, or not known
        "check_tensor()", "DispatchKeySet()", "___check_obj_id()", "___check_type_id()",
        "___dict_contains()", "___dict_version()", "___check_global_state()",
        "___check_torch_function_mode_stack()", "___check_current_backend()", "check_no_aliasing()",
        "___check_fake_script_type()", "___as_tensor()", "type()", "dict()", ".keys()", ".get()",
        ".item()", ".isnan()"
    };
    return forms;
}

void collectForms(const GuardExpr& e, std::set<std::string>& out)
{
    using Op = GuardExprNode::Op;
    for (const GuardExprNode& n : e.nodes) {
        switch (n.op) {
        case Op::Call: {
            const GuardExprNode& callee = e.nodes[size_t(n.kids[0])];
            out.insert(callee.op == Op::Name ? callee.text + "()"
                    : callee.op == Op::Attr  ? "." + callee.text + "()"
                                             : std::string("(expression)()"));
            break;
        }
        case Op::Binary:
            out.insert(n.text);
            break;
        case Op::Compare: {
            size_t start = 0;
            for (size_t k = 0; k <= n.text.size(); ++k)
                if (k == n.text.size() || n.text[k] == ';') {
                    out.insert(n.text.substr(start, k - start));
                    start = k + 1;
                }
            if (n.kids.size() > 2)
                out.insert("a < b <= c");
            break;
        }
        case Op::Not:
            out.insert("not");
            break;
        case Op::Neg:
            out.insert("unary -");
            break;
        case Op::And:
            out.insert("and");
            break;
        case Op::Or:
            out.insert("or");
            break;
        case Op::IfElse:
            out.insert("x if c else y");
            break;
        case Op::Set:
            out.insert("{set}");
            break;
        case Op::Tuple:
            out.insert("(tuple)");
            break;
        case Op::List:
            out.insert("[list]");
            break;
        case Op::Keyword:
            out.insert("name=value");
            break;
        default:
            break;
        }
    }
}

struct Census {
    size_t files = 0, lines = 0, parsed = 0;
    std::map<std::string, size_t> accepted; // reason -> lines
    std::vector<std::string> failures;
    std::map<std::string, std::string> forms; // form -> the first line that used it
};

void check(Census& c, const std::string& file, const std::string& kind, std::string_view raw)
{
    ++c.lines;
    const std::string expr(guardExprCore(raw));
    if (const char* why = notAnExpression(kind, expr)) {
        ++c.accepted[why];
        return;
    }
    const GuardExpr e = GuardExpr::parse(expr);
    if (!e.ok()) {
        c.failures.push_back(file + ": " + kind + ": " + std::string(raw) + " -> " + e.error);
        return;
    }
    ++c.parsed;
    // Evaluates with nothing known, without a crash.
    (void)e.evaluate([](const std::string& p) { return GuardValue::unknown(p); });
    std::set<std::string> forms;
    collectForms(e, forms);
    for (const std::string& f : forms)
        c.forms.emplace(f, file + ": " + kind + ": " + expr);
}

void scan(Census& c, const std::filesystem::path& root)
{
    std::vector<std::string> files;
    testsupport::addTraceFiles(root, files, UINTMAX_MAX);
    for (const std::string& file : files) {
        const LoadResult r = load({ file });
        if (!r.trace)
            continue;
        ++c.files;
        const Trace& t = *r.trace;
        const std::string name = std::filesystem::relative(file, root).string();
        std::vector<GuardTree> trees;
        for (uint32_t i = 0; i < t.records.size(); ++i) {
            const std::string& k = t.kindName(i);
            if (k == "dynamo_cpp_guards_str")
                trees.push_back(GuardTree::parseCpp(t.payload(i)));
            else if (k == "dynamo_guards")
                trees.push_back(GuardTree::parseJsonList(t.payload(i)));
        }
        if (trees.empty()) // TORCH_LOGS text: the trees its importer built
            for (const Compile& comp : t.compiles)
                if (comp.guards.get())
                    trees.push_back(*comp.guards);
        for (const GuardTree& tree : trees)
            for (const GuardNode& n : tree.nodes)
                if (!n.isManager && !n.kind.empty() && !n.kind.ends_with("Manager"))
                    check(c, name, n.kind, n.expr);
        for (const Compile& comp : t.compiles)
            for (const ShapeEvent& ev : comp.shapeEvents)
                if (ev.kind.starts_with("guard_added"))
                    check(c, name, ev.kind, ev.expr);
    }
}

std::string report(const char* what, const Census& c)
{
    std::string s = std::string(what) + ": " + std::to_string(c.files) + " files, "
        + std::to_string(c.lines) + " guard lines, " + std::to_string(c.parsed) + " parsed";
    for (const auto& [why, n] : c.accepted)
        s += "\n  not an expression, " + std::to_string(n) + " line(s): " + why;
    s += "\n  forms:";
    for (const auto& [f, where] : c.forms)
        s += " " + f;
    return s;
}

void verify(const char* what, const Census& c, size_t minLines)
{
    qInfo("%s", report(what, c).c_str());
    QVERIFY2(c.lines >= minLines, report(what, c).c_str());
    std::string failures;
    for (size_t k = 0; k < std::min<size_t>(c.failures.size(), 20); ++k)
        failures += c.failures[k] + "\n";
    QVERIFY2(c.failures.empty(),
        (std::to_string(c.failures.size()) + " guard line(s) do not parse:\n" + failures).c_str());
    std::string unlisted;
    for (const auto& [f, where] : c.forms)
        if (!listedForms().count(f))
            unlisted += f + " (" + where + ")\n";
    QVERIFY2(unlisted.empty(),
        ("forms guard_expr.h does not list (add them there and here):\n" + unlisted).c_str());
}

// "k" from L['k'], "THRESHOLD" from G['THRESHOLD'], "training" from
// L['self']._modules['drop'].training: the name an input description gives a value by.
std::string describedName(const std::string& source)
{
    if (source.ends_with("']")) {
        const size_t open = source.rfind("['");
        return open == std::string::npos ? std::string()
                                         : source.substr(open + 2, source.size() - open - 4);
    }
    const size_t dot = source.rfind('.');
    return dot == std::string::npos ? source : source.substr(dot + 1);
}

// The value the compile's own guards hold for `source` (`SOURCE == V`), as Python prints it.
std::string recordedValue(const Compile& c, const std::string& source)
{
    if (!c.guards.get())
        return {};
    for (const GuardNode& n : c.guards->nodes) {
        const GuardExpr e = GuardExpr::parse(guardExprCore(n.expr));
        if (!e.ok())
            continue;
        const GuardExprNode& root = e.nodes[size_t(e.root)];
        if (root.op != GuardExprNode::Op::Compare || root.text != "==" || root.kids.size() != 2
            || e.sourcePath(root.kids[0]) != source)
            continue;
        const GuardValue v
            = e.evaluate(root.kids[1], [](const std::string& p) { return GuardValue::unknown(p); });
        if (v.known())
            return v.toString();
    }
    return {};
}

} // namespace

class TestGuardCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void committedRecordings()
    {
        Census c;
        for (const char* v : { "torch-2.13.0", "torch-2.14.1" })
            scan(c, std::filesystem::path(DYNASCOPE_SOURCE_DIR) / "tests/scenarios/recorded" / v);
        verify("committed recordings", c, 7000);
    }

    void tlparseCorpus()
    {
        if (!QFileInfo::exists(kShared + u"/tlparse"_qs))
            QSKIP("../shared/traces is absent: the tlparse corpus is not on this machine");
        Census c;
        scan(c, (kShared + u"/tlparse"_qs).toStdString());
        verify("tlparse corpus", c, 3000);
    }

    void torch211Suite()
    {
        if (!QFileInfo::exists(kShared + u"/torch-2.11-h200"_qs))
            QSKIP("../shared/traces is absent: the torch 2.11 H200 traces are not on this machine");
        Census c;
        scan(c, (kShared + u"/torch-2.11-h200"_qs).toStdString());
        verify("torch 2.11 H200", c, 2000);
    }

    // Each recompile of the 2.11 suite, asked of the lab with the cache before it.
    void recompilesOf211()
    {
        const std::filesystem::path suite
            = (kShared + u"/torch-2.11-h200/scenario-suite"_qs).toStdString();
        if (!std::filesystem::exists(suite))
            QSKIP("../shared/traces is absent: the torch 2.11 H200 suite is not on this machine");
        size_t asked = 0, agree = 0;
        std::vector<std::string> notKnown, disagree;
        std::vector<std::filesystem::path> folders;
        for (const auto& e : std::filesystem::recursive_directory_iterator(suite))
            if (e.path().filename() == "facts.json")
                folders.push_back(e.path().parent_path());
        std::sort(folders.begin(), folders.end());
        for (const auto& folder : folders) {
            QFile factsFile(QString::fromStdString((folder / "facts.json").string()));
            QVERIFY(factsFile.open(QIODevice::ReadOnly));
            const QJsonObject facts = QJsonDocument::fromJson(factsFile.readAll()).object();
            std::vector<std::filesystem::path> logs;
            for (const auto& f : std::filesystem::directory_iterator(folder))
                if (f.path().filename().string().starts_with("dedicated_log_torch_trace"))
                    logs.push_back(f.path());
            std::sort(logs.begin(), logs.end());
            for (const auto& log : logs) {
                const LoadResult r = load({ log.string() });
                QVERIFY(r.trace);
                const Trace& t = *r.trace;
                const std::string scenario
                    = std::filesystem::relative(log, suite).parent_path().string();
                for (const Compile& c : t.compiles) {
                    if (c.recompileReasons.empty())
                        continue;
                    const Frame& f = t.frames[c.frame];
                    const size_t before
                        = size_t(std::find(f.compiles.begin(), f.compiles.end(), c.index)
                            - f.compiles.begin());
                    // The call: the compile's own tensors, and each value a reason names,
                    // from the compile's own guards (the reason says only what was expected),
                    // else the program's facts (the frame's calls, each new value in turn).
                    std::string text = recordedInputDescription(t, c.index);
                    std::set<std::string> named;
                    for (const RecompileReason& rr : c.recompileReasons) {
                        if (rr.mismatch != "value" || rr.source.empty())
                            continue;
                        const std::string name = describedName(rr.source);
                        if (name.empty() || !named.insert(name).second)
                            continue;
                        std::string value
                            = rr.actual.empty() ? recordedValue(c, rr.source) : rr.actual;
                        if (value.empty()) {
                            std::vector<QJsonValue> seen;
                            for (const auto& call : facts[u"calls"_qs].toArray()) {
                                const QJsonObject o = call.toObject();
                                if (o[u"function"_qs].toString().toStdString() != f.coName)
                                    continue;
                                const QJsonValue v
                                    = o[u"values"_qs].toObject()[QString::fromStdString(name)];
                                if (!v.isUndefined()
                                    && std::find(seen.begin(), seen.end(), v) == seen.end())
                                    seen.push_back(v);
                            }
                            if (before < seen.size() && seen[before].isDouble())
                                value = QString::number(seen[before].toDouble()).toStdString();
                        }
                        if (!value.empty())
                            text += (text.empty() ? "" : "; ") + name + ": " + value;
                    }
                    ++asked;
                    const std::string label = scenario + " " + c.id.display() + " (" + text + ")";
                    GuardInput in;
                    std::string error;
                    if (text.empty() || !parseGuardInput(text, in, error)) {
                        notKnown.push_back(label + ": cannot describe the call: " + error);
                        continue;
                    }
                    const GuardLabAnswer a = evaluateGuards(t, c.frame, in, before);
                    if (a.recompiles) {
                        ++agree;
                        qInfo("agrees: %s against %zu entries: %s", label.c_str(), before,
                            a.verdict.c_str());
                    } else if (!a.known)
                        notKnown.push_back(label + ": " + a.verdict);
                    else
                        disagree.push_back(label + ": " + a.verdict);
                }
            }
        }
        for (const auto& s : notKnown)
            qInfo("not known: %s", s.c_str());
        for (const auto& s : disagree)
            qInfo("DISAGREES: %s", s.c_str());
        qInfo("%zu recompiles asked, %zu agree with PyTorch, %zu not known, %zu disagree", asked,
            agree, notKnown.size(), disagree.size());
        QVERIFY(asked >= 15);
        QCOMPARE(agree, asked);
    }
};

QTEST_GUILESS_MAIN(TestGuardCorpus)
#include "tst_guardcorpus.moc"
