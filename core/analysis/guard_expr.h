// GuardExpr: the printed guard expressions of Dynamo's guard trees (`dynamo_cpp_guards_str`),
// parsed by a small recursive-descent parser (depth-limited, one pass over the text) and
// evaluated against facts a caller resolves by source text ("L['x'].size()[0]").
//
// The forms it reads are a subset of Python plus the sympy printer's functions, as PyTorch
// 2.11 to 2.14 print them in the committed recordings and the tlparse corpus:
//   check_tensor(L['x'], Tensor, DispatchKeySet(CPU, ...), torch.float32, device=None,
//       requires_grad=False, size=[None, 128], stride=[128, 1])          (TENSOR_MATCH)
//   2 <= L['x'].size()[0]; L['x'].stride()[0] == L['x'].size()[1]         (LAMBDA_GUARD)
//   L['k'] == 7; G['THRESHOLD'] == 0.5; L['m'].normalized_shape == (64,); x == 'none'
//   L['self']._modules['drop'].training == True                   (EQUALS/TRUE/FALSE_MATCH)
//   hasattr(L['x'], '_dynamo_dynamic_indices') == False     (DIMENSION_DYNAMIC_MARKING_GUARD)
//   ((getattr(L['x'], '_dynamo_dynamic_indices', set()).issubset({0}))
//       if hasattr(L['x'], '_dynamo_dynamic_indices') else True)
//   len(L['args']) == 3; not L['kwargs']                       (LENGTH_CHECK, DICT_LENGTH)
//   ___check_obj_id(G['torch'], 1401...), ___check_type_id(L['k'], 1401...)  (ID/TYPE_MATCH)
//   not ___dict_contains('forward', L['self'].__dict__); ___dict_version(...) == N
//   A is B; list(dict.keys(G['model']._modules))[0] == '0'
//   sympy: Eq, Ne, Lt, Le, Gt, Ge, Mod, PythonMod, FloorDiv, CleanDiv, IntTrueDiv,
//       CeilToInt, FloorToInt, TruncToInt, Max, Min, Abs, And, Or, Not; //, *, +, -, %, **
// guardExprCore() cuts what PyTorch prints around the expression: the "# user line" comments,
// the object's repr 2.11+ appends to ID_MATCH/TYPE_MATCH (", type=<module 'torch' from ...>",
// ", type=<class 'tuple'>  (HINT: type tuple)", ", type=<code object f at 0x.., file "..">"),
// and the "[guard suppressed] " of shape guards logged while guards were suppressed.
// Opaque calls (___check_obj_id, ...) and names evaluate to "not known": the guard lab decides
// them by comparing with the recorded entries. Text that is not one of these is a parse error
// the lab handles by its kind; tst_guardcorpus finds three such forms, none an expression: the
// ambient "torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None",
// GLOBAL_STATE's "___check_global_state() against {JSON}", and NO_TENSOR_ALIASING /
// OBJECT_ALIASING printed without arguments.
//
// The forms found, by source (tst_guardcorpus prints them and fails on one not listed here):
//   committed recordings (torch 2.13.0, 2.14.1; 7,478 guard lines, shape guards included):
//     == <= is not, unary -, *, +, x if c else y, (tuple) [list] {set}, name=value; len,
//     hasattr, getattr, set, list, dict, type, .issubset, .size, .stride, .keys, .get, .isnan,
//     Eq (shape guards), check_tensor, DispatchKeySet, ___check_obj_id, ___check_type_id,
//     ___dict_contains, ___check_torch_function_mode_stack, ___check_fake_script_type,
//     check_no_aliasing
//   tlparse corpus (48 files, 3,504 lines; 2024-2025 PyTorch): == is not, (tuple) [list],
//     name=value; len, hasattr, list, .keys, check_tensor, DispatchKeySet, ___check_obj_id,
//     ___check_type_id, ___dict_contains, ___dict_version, ___check_global_state,
//     ___check_current_backend, ___check_torch_function_mode_stack, check_no_aliasing
//   torch 2.11 H200 suite (79 files, 2,140 lines): == <= > is not, unary -, *, x if c else y,
//     (tuple) [list] {set}, name=value; len, hasattr, list, .issubset, .size, .stride, .keys,
//     .isnan, .item, ___as_tensor, Eq (shape guards), check_tensor, DispatchKeySet,
//     ___check_obj_id, ___check_type_id, ___dict_contains, ___check_torch_function_mode_stack,
//     check_no_aliasing
//   Ne, Mod, PythonMod, FloorDiv, //, %, And, Or and the rest of the sympy list above appear in
//   none of them; they are read and evaluated for the traces that print them (tst_guardlab).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

struct GuardValue {
    enum class Kind : uint8_t { Unknown, None, Bool, Int, Float, Str, List, Source };
    Kind kind = Kind::Unknown;
    bool b = false;
    int64_t i = 0;
    double f = 0;
    std::string s; // Str: the text; Source: the source path ("L['x'].size()[0]")
    std::vector<GuardValue> items; // List (lists, tuples and sets)
    std::vector<std::string> needs; // Unknown: the sources whose value would settle it

    static GuardValue unknown(std::string need = {});
    static GuardValue none();
    static GuardValue boolean(bool v);
    static GuardValue integer(int64_t v);
    static GuardValue real(double v);
    static GuardValue str(std::string v);
    static GuardValue source(std::string path);

    bool known() const { return kind != Kind::Unknown && kind != Kind::Source; }
    bool isNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
    std::string toString() const; // as Python prints it: 7, 0.5, True, None, 'x', [1, 2]
};

// A resolver gives the value of a source path, or an Unknown naming what is missing.
using GuardResolver = std::function<GuardValue(const std::string& path)>;

struct GuardExprNode {
    enum class Op : uint8_t {
        Int,
        Float,
        Str,
        Name,
        List,
        Tuple,
        Set, // leaves and displays
        Attr,
        Index,
        Call,
        Keyword, // postfix: Attr's text is the name, Keyword's the arg name
        Neg,
        Not,
        Binary,
        Compare,
        And,
        Or,
        IfElse,
    };
    Op op = Op::Int;
    std::string text; // Name, Str, Attr, Keyword, Binary/Compare operator
    int64_t i = 0;
    double f = 0;
    std::vector<int> kids; // Attr/Index/Call: the object first
    uint32_t begin = 0, end = 0; // span in the expression text
};

struct GuardExpr {
    std::vector<GuardExprNode> nodes;
    int root = -1;
    std::string text;
    std::string error; // "" when it parsed

    static constexpr int kMaxDepth = 200;
    static GuardExpr parse(std::string_view text);
    bool ok() const { return error.empty() && root >= 0; }
    std::string_view spanText(int node) const; // the text a node was parsed from
    // The source path a node denotes (L['x'], L['x'].size()[0], G['m'].training), or "".
    std::string sourcePath(int node) const;
    GuardValue evaluate(const GuardResolver& resolve) const;
    GuardValue evaluate(int node, const GuardResolver& resolve) const;
};

// The text of a guard expression without the comments PyTorch appends ("  # y = x * 2 ...")
// and the ", type=<class 'int'>" suffix of 2.11+ ID_MATCH/TYPE_MATCH lines.
std::string_view guardExprCore(std::string_view expr);

} // namespace dynascope
