// LegendPass: the legend under the lanes. Compile statuses (with the hatched swatch of folded
// blocks), marker glyphs and the trace's phase groups, each group kept on one line when it fits;
// a narrow canvas wraps it onto more lines. Its height is cached per canvas width and font size
// (the areas above it ask for it on every layout), and forgotten when the font, the palette or
// the trace changes. Hidden, it takes no room (of two timelines one above the other, as Compare
// With shows, only the lower one keeps it). Cost: about twenty items measured per paint.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <QCoreApplication>

#include <vector>

namespace dynascope::ui::timeline {

class LegendPass : public TimelineRenderPass {
    Q_DECLARE_TR_FUNCTIONS(LegendPass)
public:
    void setVisible(bool visible)
    {
        m_visible = visible;
        invalidate();
    }
    bool visible() const { return m_visible; }
    // The font, the palette or the trace's phase groups changed: lay the legend out again.
    void invalidate() { m_width = -1; }
    // The height the legend needs on a canvas `width` wide; 0 when hidden.
    int height(
        int width, const QFont& font, const QPalette& palette, const TimelineLayout& layout) const;

    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    struct Item {
        QColor color;
        QString glyph, word;
        bool swatch = false;
        bool groupStart = false;
        bool hatch = false; // the swatch of folded blocks
        QPoint at; // laid out by layOut()
    };
    static std::vector<Item> items(const QPalette& palette, const TimelineLayout& layout);
    // Lays the items out in lines that fit `width`; returns the height they need.
    static int layOut(std::vector<Item>& items, int width, const QFont& font);

    bool m_visible = true;
    mutable int m_width = -1, m_height = 0;
    mutable qreal m_fontSize = 0;
};

} // namespace dynascope::ui::timeline
