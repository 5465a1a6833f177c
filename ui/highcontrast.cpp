#include "ui/highcontrast.h"

#include "ui/models/statusstyle.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QSettings>
#include <QStandardPaths>

namespace dynascope::ui {

namespace {

bool namesHighContrast(const QString& theme)
{
    return theme.contains(QLatin1String("highcontrast"), Qt::CaseInsensitive)
        || theme.contains(QLatin1String("high-contrast"), Qt::CaseInsensitive);
}

// A setting the desktop publishes through the XDG desktop portal (org.freedesktop.portal.Settings,
// what GNOME's and KDE's portals answer, and Flatpak apps read), over the session bus: no
// process is started. Invalid when there is no portal or it does not answer within half a second.
QVariant portalSetting(const QString& space, const QString& key)
{
    // Asked at start-up, up to three times: once the portal did not answer (none on the bus, or
    // too slow), the next question is not asked, so the wait is half a second at most.
    static bool silent = false;
    if (silent)
        return {};
    // Only a session bus that is already there: without one libdbus may try to launch one.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")
        && (runtime.isEmpty() || !QFileInfo::exists(runtime + QStringLiteral("/bus"))))
        return {};
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return {};
    QDBusMessage call
        = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.portal.Desktop"),
            QStringLiteral("/org/freedesktop/portal/desktop"),
            QStringLiteral("org.freedesktop.portal.Settings"), QStringLiteral("Read"));
    call << space << key;
    const QDBusMessage reply = bus.call(call, QDBus::Block, 500);
    if (reply.type() == QDBusMessage::ErrorMessage
        && reply.errorName() != QLatin1String("org.freedesktop.portal.Error.NotFound"))
        silent = true; // no reply, no portal, or a portal without Settings
    if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty())
        return {};
    // Read returns a variant holding the value's variant.
    QVariant v = reply.arguments().constFirst();
    while (v.canConvert<QDBusVariant>() && v.userType() == qMetaTypeId<QDBusVariant>())
        v = v.value<QDBusVariant>().variant();
    return v;
}

} // namespace

ContrastRequest desktopHighContrastRequest()
{
    const QString gtkTheme = qEnvironmentVariable("GTK_THEME");
    if (namesHighContrast(gtkTheme))
        return { true, gtkTheme.contains(QLatin1String("Inverse"), Qt::CaseInsensitive),
            QStringLiteral("GTK_THEME=") + gtkTheme };
    const QString desktop = qEnvironmentVariable("XDG_CURRENT_DESKTOP");
    if (desktop.contains(QLatin1String("KDE"), Qt::CaseInsensitive)) {
        const QString config
            = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
        const QSettings kde(config + QStringLiteral("/kdeglobals"), QSettings::IniFormat);
        const QString scheme = kde.value(QStringLiteral("General/ColorScheme")).toString();
        if (namesHighContrast(scheme))
            return { true, false, QStringLiteral("KDE colour scheme ") + scheme };
        return {};
    }
    if (desktop.isEmpty())
        return {};
    // The portal's own key (xdg-desktop-portal 1.18+: 1 asks for higher contrast), then GNOME's
    // accessibility switch and theme, which the GNOME portal serves from its settings.
    if (portalSetting(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("contrast"))
            .toUInt()
        == 1)
        return { true, false, QStringLiteral("the desktop portal's contrast setting") };
    if (portalSetting(
            QStringLiteral("org.gnome.desktop.a11y.interface"), QStringLiteral("high-contrast"))
            .toBool())
        return { true, false, QStringLiteral("org.gnome.desktop.a11y.interface high-contrast") };
    const QString theme
        = portalSetting(QStringLiteral("org.gnome.desktop.interface"), QStringLiteral("gtk-theme"))
              .toString();
    if (namesHighContrast(theme))
        return { true, theme.contains(QLatin1String("Inverse"), Qt::CaseInsensitive),
            QStringLiteral("gtk-theme ") + theme };
    return {};
}

ContrastRequest highContrastRequest(bool flag)
{
    ContrastRequest r;
    const QString env = qEnvironmentVariable("DYNASCOPE_HIGH_CONTRAST").trimmed().toLower();
    if (flag) {
        r = { true, env == QLatin1String("dark"), QStringLiteral("--high-contrast") };
    } else if (!env.isEmpty()) {
        if (env == QLatin1String("0") || env == QLatin1String("off") || env == QLatin1String("no")
            || env == QLatin1String("false"))
            return { false, false, QStringLiteral("DYNASCOPE_HIGH_CONTRAST=") + env };
        r = { true, env == QLatin1String("dark"),
            QStringLiteral("DYNASCOPE_HIGH_CONTRAST=") + env };
    } else if (QGuiApplication::platformName() != QLatin1String("offscreen")) {
        r = desktopHighContrastRequest();
    }
    if (r.on && env != QLatin1String("light")
        && isDark(QGuiApplication::palette().color(QPalette::Base)))
        r.dark = true;
    return r;
}

QPalette highContrastPalette(bool dark)
{
    const QColor bg = dark ? QColor(Qt::black) : QColor(Qt::white);
    const QColor fg = dark ? QColor(Qt::white) : QColor(Qt::black);
    const QColor alternate = dark ? QColor(0x1A, 0x1A, 0x1A) : QColor(0xF2, 0xF2, 0xF2);
    const QColor highlight = dark ? QColor(0xFF, 0xFF, 0x00) : QColor(0x00, 0x00, 0x80);
    const QColor highlighted = dark ? QColor(Qt::black) : QColor(Qt::white);
    const QColor link = dark ? QColor(0x8C, 0xC8, 0xFF) : QColor(0x00, 0x00, 0xCC);
    const QColor muted = dark ? QColor(0xC8, 0xC8, 0xC8) : QColor(0x3A, 0x3A, 0x3A);
    const QColor disabled = dark ? QColor(0x9A, 0x9A, 0x9A) : QColor(0x6B, 0x6B, 0x6B);
    QPalette p;
    for (const QPalette::ColorGroup g :
        { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        const QColor text = g == QPalette::Disabled ? disabled : fg;
        p.setColor(g, QPalette::Window, bg);
        p.setColor(g, QPalette::Base, bg);
        p.setColor(g, QPalette::AlternateBase, alternate);
        p.setColor(g, QPalette::Button, bg);
        p.setColor(g, QPalette::ToolTipBase, bg);
        p.setColor(g, QPalette::WindowText, text);
        p.setColor(g, QPalette::Text, text);
        p.setColor(g, QPalette::ButtonText, text);
        p.setColor(g, QPalette::ToolTipText, text);
        p.setColor(
            g, QPalette::BrightText, dark ? QColor(0xFF, 0xFF, 0x00) : QColor(0xB3, 0x00, 0x1B));
        p.setColor(g, QPalette::PlaceholderText, g == QPalette::Disabled ? disabled : muted);
        // Frames and separators: the text colour itself, or nearly.
        p.setColor(g, QPalette::Light, fg);
        p.setColor(g, QPalette::Midlight, muted);
        p.setColor(g, QPalette::Mid, muted);
        p.setColor(g, QPalette::Dark, fg);
        p.setColor(g, QPalette::Shadow, fg);
        p.setColor(g, QPalette::Highlight, g == QPalette::Disabled ? disabled : highlight);
        p.setColor(g, QPalette::HighlightedText, highlighted);
        p.setColor(g, QPalette::Link, link);
        p.setColor(g, QPalette::LinkVisited, link);
    }
    return p;
}

void applyHighContrast(bool dark)
{
    setStatusPalette(dark ? StatusPalette::HighContrastDark : StatusPalette::HighContrastLight);
    QApplication::setPalette(highContrastPalette(dark));
    // Fusion outlines text fields a shade darker than the window: nothing on black. A 1 px
    // outline in the text colour shows every field on either palette.
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance()))
        app->setStyleSheet(QStringLiteral(
            "QLineEdit, QComboBox, QAbstractSpinBox { border: 1px solid palette(window-text); "
            "padding: 2px; }"));
}

} // namespace dynascope::ui
