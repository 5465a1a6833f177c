// High contrast (issue 33): the status colours switch to the high-contrast sets, each reads at
// 4.5:1 or more (WCAG) on the palette's base and alternate rows, each pair stays apart (CIE76
// distance, also under simulated deuteranopia and protanopia), the glyphs and words stay; the
// timeline paints its spans in the new colours with an outline; what asks for it (the flag,
// DYNASCOPE_HIGH_CONTRAST, GTK_THEME) is read; `dynascope --high-contrast --screenshot` paints
// them. With DYNASCOPE_SHOT_DIR set, the images are kept to look at.
#include "ui/compileselection.h"
#include "ui/export/imageexport.h"
#include "ui/highcontrast.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineconstants.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"

#include <QApplication>
#include <QHash>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>

using namespace dynascope;
using namespace dynascope::ui;

namespace {

struct Named {
    QString name;
    QColor color;
};

// Every colour that marks a status or an event kind, by name.
QList<Named> statusColours()
{
    QList<Named> out;
    for (const CompileStatus s : { CompileStatus::Ok, CompileStatus::GraphBreak,
             CompileStatus::Empty, CompileStatus::Error, CompileStatus::Missing })
        out.push_back({ statusStyle(s).word, statusStyle(s).color });
    for (const MarkerKind k :
        { MarkerKind::Recompile, MarkerKind::CacheHit, MarkerKind::CacheMiss })
        out.push_back({ markerStyle(k).word, markerStyle(k).color });
    return out;
}

double linear(double v)
{
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

double encoded(double v)
{
    v = std::clamp(v, 0.0, 1.0);
    return v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055;
}

using Lab = std::array<double, 3>;

Lab toLab(const QColor& c)
{
    const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    return { 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)) };
}

double distance(const QColor& a, const QColor& b)
{
    const Lab la = toLab(a), lb = toLab(b);
    return std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}

// Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
using Matrix = std::array<std::array<double, 3>, 3>;
constexpr Matrix kDeuteranopia { { { 0.367322, 0.860646, -0.227968 },
    { 0.280085, 0.672501, 0.047413 }, { -0.011820, 0.042940, 0.968881 } } };
constexpr Matrix kProtanopia { { { 0.152286, 1.052583, -0.204868 },
    { 0.114503, 0.786281, 0.099216 }, { -0.003882, -0.048116, 1.051998 } } };

QColor simulate(const QColor& c, const Matrix& m)
{
    const double in[3] = { linear(c.redF()), linear(c.greenF()), linear(c.blueF()) };
    double out[3];
    for (int i = 0; i < 3; ++i)
        out[i] = encoded(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2]);
    return QColor::fromRgbF(
        static_cast<float>(out[0]), static_cast<float>(out[1]), static_cast<float>(out[2]));
}

// The most frequent colour inside `r` of `image` (a span's fill, whatever its label).
QRgb commonColour(const QImage& image, const QRect& r)
{
    QHash<QRgb, int> n;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            ++n[image.pixel(x, y)];
    QRgb best = 0;
    int most = -1;
    for (auto it = n.cbegin(); it != n.cend(); ++it)
        if (it.value() > most) {
            most = it.value();
            best = it.key();
        }
    return best;
}

uint32_t compileNamed(const Trace& trace, const char* id)
{
    for (uint32_t i = 0; i < trace.compiles.size(); ++i)
        if (trace.compiles[i].id.display() == id)
            return i;
    return kNone;
}

} // namespace

class TestHighContrast : public QObject {
    Q_OBJECT

    QPalette m_palette;

private Q_SLOTS:
    void initTestCase() { m_palette = QApplication::palette(); }
    void cleanup()
    {
        setStatusPalette(StatusPalette::Normal);
        QApplication::setPalette(m_palette);
        qunsetenv("DYNASCOPE_HIGH_CONTRAST");
        qunsetenv("GTK_THEME");
    }

    void statusColoursSwitch_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("black on white") << false;
        QTest::newRow("white on black") << true;
    }
    void statusColoursSwitch()
    {
        QFETCH(bool, dark);
        const QList<Named> normal = statusColours();
        applyHighContrast(dark);
        QCOMPARE(statusPalette(),
            dark ? StatusPalette::HighContrastDark : StatusPalette::HighContrastLight);
        const QList<Named> high = statusColours();
        const QPalette pal = QApplication::palette();
        QCOMPARE(pal.color(QPalette::Base), dark ? QColor(Qt::black) : QColor(Qt::white));
        QCOMPARE(pal.color(QPalette::Text), dark ? QColor(Qt::white) : QColor(Qt::black));
        QCOMPARE(high.size(), normal.size());
        // The glyphs and words stay: colour is never the only sign.
        QCOMPARE(statusStyle(CompileStatus::Error).label(), QStringLiteral("✕ error"));
        QCOMPARE(markerStyle(MarkerKind::Recompile).label(), QStringLiteral("↻ recompile"));
        for (qsizetype i = 0; i < high.size(); ++i) {
            const Named& h = high[i];
            QCOMPARE(h.name, normal[i].name);
            QVERIFY2(h.color != normal[i].color, qPrintable(h.name));
            // As text and as a fill on the base and on the alternate rows.
            for (const QPalette::ColorRole role : { QPalette::Base, QPalette::AlternateBase }) {
                const double ratio = contrastRatio(h.color, pal.color(role));
                QVERIFY2(ratio >= 4.5,
                    qPrintable(QStringLiteral("%1 %2 on %3: %4:1")
                                   .arg(h.name, h.color.name(), pal.color(role).name())
                                   .arg(ratio, 0, 'f', 2)));
            }
            QCOMPARE(fillOn(h.color, pal.color(QPalette::Base)), h.color);
            QCOMPARE(readableOn(h.color, pal.color(QPalette::Base)), h.color);
            // A span's label on its fill.
            QVERIFY2(contrastRatio(textOn(h.color), h.color) >= 4.5, qPrintable(h.name));
        }
        // Each pair apart, for everyone and under the two common colour-vision deficiencies.
        for (qsizetype i = 0; i < high.size(); ++i)
            for (qsizetype j = i + 1; j < high.size(); ++j) {
                const QColor a = high[i].color, b = high[j].color;
                const double seen = distance(a, b);
                const double deutan
                    = distance(simulate(a, kDeuteranopia), simulate(b, kDeuteranopia));
                const double protan = distance(simulate(a, kProtanopia), simulate(b, kProtanopia));
                const QString pair = high[i].name + QStringLiteral(" / ") + high[j].name;
                QVERIFY2(
                    seen >= 25, qPrintable(pair + QStringLiteral(": ") + QString::number(seen)));
                QVERIFY2(deutan >= 9,
                    qPrintable(pair + QStringLiteral(" deuteranopia: ") + QString::number(deutan)));
                QVERIFY2(protan >= 9,
                    qPrintable(pair + QStringLiteral(" protanopia: ") + QString::number(protan)));
            }
        QCOMPARE(severityColor(2), statusStyle(CompileStatus::Error).color);
        QCOMPARE(severityColor(1), statusStyle(CompileStatus::GraphBreak).color);
    }

    void normalColoursStay()
    {
        // Without it, the Okabe-Ito hues as before (the docs' pictures are made with them).
        QCOMPARE(statusPalette(), StatusPalette::Normal);
        QCOMPARE(statusStyle(CompileStatus::Ok).color, QColor(0x00, 0x9E, 0x73));
        QCOMPARE(statusStyle(CompileStatus::Error).color, QColor(0xD5, 0x5E, 0x00));
        QCOMPARE(markerStyle(MarkerKind::Recompile).color, QColor(0x00, 0x72, 0xB2));
        QCOMPARE(severityColor(0), QColor(0x56, 0xB4, 0xE9));
    }

    void whatAsksForIt()
    {
        // Offscreen (this test): the desktop is not asked, the flag and the variable are.
        QVERIFY(!highContrastRequest(false).on);
        QVERIFY(highContrastRequest(true).on);
        QCOMPARE(highContrastRequest(true).why, QStringLiteral("--high-contrast"));
        qputenv("DYNASCOPE_HIGH_CONTRAST", "dark");
        QVERIFY(highContrastRequest(false).on);
        QVERIFY(highContrastRequest(false).dark);
        qputenv("DYNASCOPE_HIGH_CONTRAST", "0");
        qputenv("GTK_THEME", "HighContrast");
        QVERIFY(!highContrastRequest(false).on);
        QVERIFY(highContrastRequest(true).on); // the flag wins
        qunsetenv("DYNASCOPE_HIGH_CONTRAST");
        QVERIFY(!highContrastRequest(false).on); // offscreen: GTK_THEME is the desktop's
        // The desktop's part: GTK_THEME names the theme (Inverse: white on black).
        ContrastRequest gtk = desktopHighContrastRequest();
        QVERIFY(gtk.on);
        QVERIFY(!gtk.dark);
        QCOMPARE(gtk.why, QStringLiteral("GTK_THEME=HighContrast"));
        qputenv("GTK_THEME", "HighContrastInverse");
        gtk = desktopHighContrastRequest();
        QVERIFY(gtk.on && gtk.dark);
        qputenv("GTK_THEME", "Adwaita:dark");
        QVERIFY(!namesOn(desktopHighContrastRequest()));
    }

    void timelinePaintsThem()
    {
        auto trace = uitest::loadTrace(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE));
        QVERIFY(trace);
        // [0/0], 10.3 s, fills most of the lanes: the others are a few pixels wide at this range.
        const uint32_t ok = compileNamed(*trace, "[0/0]");
        QVERIFY(ok != kNone);
        const QSize size(900, 420);
        auto render = [&](const QString& name, QColor* okFill, QColor* edge) {
            CompileSelection selection;
            TimelineView view(&selection);
            view.resize(size);
            view.setTrace(trace);
            const QImage image = timelineImage(view, size, 1, QString());
            if (const QString dir = qEnvironmentVariable("DYNASCOPE_SHOT_DIR"); !dir.isEmpty())
                image.save(dir + QStringLiteral("/") + name);
            const QRect okRect = view.compileRect(ok);
            QVERIFY2(okRect.width() > 6, qPrintable(QString::number(okRect.width())));
            *okFill = QColor(commonColour(image, okRect.adjusted(1, 1, -1, -1)));
            *edge = QColor(image.pixel(okRect.left(), okRect.center().y()));
        };
        QColor okFill, edge;
        render(QStringLiteral("highcontrast-timeline-normal.png"), &okFill, &edge);
        QCOMPARE(okFill, statusStyle(CompileStatus::Ok).color);
        QVERIFY(edge != QColor(Qt::black)); // no outline without high contrast

        applyHighContrast(false);
        render(QStringLiteral("highcontrast-timeline.png"), &okFill, &edge);
        QCOMPARE(okFill, QColor(0x0B, 0x71, 0x49));
        QCOMPARE(okFill, statusStyle(CompileStatus::Ok).color);
        QCOMPARE(edge, QColor(Qt::black)); // outlined in the text colour
    }

    void screenshotFlag()
    {
        QTemporaryDir dir;
        auto shoot = [&](const QStringList& extra, const QString& name) {
            return uitest::shootApp(dir,
                extra
                    + QStringList { QStringLiteral("--size"), QStringLiteral("1200x760"),
                        QStringLiteral("--select"), QStringLiteral("[3/1]"),
                        QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) },
                name);
        };
        auto has = [](const QImage& image, const QColor& c) {
            for (int y = 0; y < image.height(); y += 2)
                for (int x = 0; x < image.width(); ++x)
                    if (image.pixel(x, y) == c.rgb())
                        return true;
            return false;
        };
        const QImage normal = shoot({}, QStringLiteral("highcontrast-off.png"));
        const QImage high
            = shoot({ QStringLiteral("--high-contrast") }, QStringLiteral("highcontrast-on.png"));
        QVERIFY(!normal.isNull() && !high.isNull());
        const QColor hcOk(0x0B, 0x71, 0x49), hcError(0xA3, 0x00, 0x0B);
        QVERIFY(has(high, hcOk) && has(high, hcError));
        QVERIFY(!has(normal, hcOk) && !has(normal, hcError));
        QVERIFY(has(normal, QColor(0x00, 0x9E, 0x73)));
        QCOMPARE(QColor(high.pixel(high.width() - 5, high.height() / 2)), QColor(Qt::white));
    }

private:
    static bool namesOn(const ContrastRequest& r) { return r.on; }
};

QTEST_MAIN(TestHighContrast)
#include "tst_highcontrast.moc"
