#include "ui/timeline/timefolding.h"

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

IdleGaps findIdleGaps(std::vector<std::pair<double, double>> busy, const GapRules& rules)
{
    IdleGaps out;
    busy.erase(std::remove_if(busy.begin(), busy.end(),
                   [](const auto& b) {
                       return !std::isfinite(b.first) || !std::isfinite(b.second)
                           || b.second < b.first;
                   }),
        busy.end());
    if (busy.empty())
        return out;
    std::sort(busy.begin(), busy.end());
    // Bursts: intervals closer than minGapUs merge.
    std::vector<std::pair<double, double>> bursts;
    for (const auto& [a, b] : busy) {
        if (!bursts.empty() && a - bursts.back().second < rules.minGapUs)
            bursts.back().second = std::max(bursts.back().second, b);
        else
            bursts.push_back({ a, b });
    }
    for (const auto& [a, b] : bursts)
        out.busyUs += b - a;
    for (size_t i = 0; i + 1 < bursts.size(); ++i) {
        const double gap = bursts[i + 1].first - bursts[i].second;
        const double longer = std::max(
            bursts[i].second - bursts[i].first, bursts[i + 1].second - bursts[i + 1].first);
        if (gap >= rules.minGapUs && gap >= rules.ratio * longer)
            out.gaps.push_back({ bursts[i].second, bursts[i + 1].first });
    }
    return out;
}

double foldWidthFor(double busyUs, size_t folds)
{
    if (folds == 0)
        return 0;
    const double w = std::min(busyUs * 0.12, busyUs / 3 / static_cast<double>(folds));
    return w > 0 ? w : 1000.0;
}

TimeFolding::TimeFolding(const std::vector<IdleGap>& gaps, double foldWidth)
{
    double hidden = 0; // trace time folded away before the current fold
    for (const IdleGap& g : gaps) {
        if (!(g.span() > 0) || (!m_folds.empty() && g.start < m_folds.back().gap.end))
            continue; // empty or overlapping: not a fold
        const double width = std::clamp(foldWidth, 0.0, g.span());
        m_folds.push_back({ g, g.start - hidden, width });
        hidden += g.span() - width;
    }
}

double TimeFolding::toDisplay(double t) const
{
    // The last fold starting at or before t.
    auto it = std::upper_bound(
        m_folds.begin(), m_folds.end(), t, [](double v, const Fold& f) { return v < f.gap.start; });
    if (it == m_folds.begin())
        return t;
    const Fold& f = *--it;
    if (t <= f.gap.end)
        return f.at + (t - f.gap.start) / f.gap.span() * f.width;
    return f.at + f.width + (t - f.gap.end);
}

double TimeFolding::toTrace(double d) const
{
    auto it = std::upper_bound(
        m_folds.begin(), m_folds.end(), d, [](double v, const Fold& f) { return v < f.at; });
    if (it == m_folds.begin())
        return d;
    const Fold& f = *--it;
    if (d <= f.at + f.width)
        return f.gap.start + (f.width > 0 ? (d - f.at) / f.width * f.gap.span() : 0);
    return f.gap.end + (d - f.at - f.width);
}

const TimeFolding::Fold* TimeFolding::foldAt(double d) const
{
    auto it = std::upper_bound(
        m_folds.begin(), m_folds.end(), d, [](double v, const Fold& f) { return v < f.at; });
    if (it == m_folds.begin())
        return nullptr;
    --it;
    return d <= it->at + it->width ? &*it : nullptr;
}

double TimeFolding::hiddenBetween(double a, double b) const
{
    return (toTrace(b) - toTrace(a)) - (b - a);
}

} // namespace dynascope::ui::timeline
