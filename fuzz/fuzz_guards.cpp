// libFuzzer target for the guard lab's text (core/analysis/guard_expr.h, guard_input.h):
// arbitrary bytes, split at the first newline into an input description and a guard
// expression; both are parsed, and the expression is evaluated with every source resolving to
// a number (sizes, constants), so the arithmetic, comparisons and sympy functions all run. Any
// crash, hang or sanitizer report is a finding; a parse error is an ordinary outcome. Built by
// the `fuzz` preset with fuzz_loader; tests/robustness runs it bounded.
#include "core/analysis/guard_expr.h"
#include "core/analysis/guard_input.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const size_t nl = bytes.find('\n');
    const std::string_view description = bytes.substr(0, nl);
    const std::string_view expression = nl == std::string_view::npos ? bytes : bytes.substr(nl + 1);
    dynascope::GuardInput input;
    std::string error;
    (void)dynascope::parseGuardInput(description, input, error);
    const dynascope::GuardExpr e = dynascope::GuardExpr::parse(expression);
    if (e.ok()) {
        int64_t n = 0;
        (void)e.evaluate([&n](const std::string& path) {
            // Sizes and values by source: small, zero, negative and huge, so division, modulo
            // and overflow paths run.
            static constexpr int64_t kValues[] = { 3, 0, -1, INT64_MAX, 1024 };
            return dynascope::GuardValue::integer(kValues[(path.size() + n++) % 5]);
        });
        (void)e.evaluate(
            [](const std::string& path) { return dynascope::GuardValue::unknown(path); });
    }
    (void)dynascope::guardExprCore(expression);
    return 0;
}
