// High contrast (issue 33). Qt 6.4 has no colour-scheme hint to ask (QStyleHints::colorScheme
// came in 6.5), so what asks for it is read here: the command line, an environment variable, and
// the desktop's own settings. Applied, it sets the application palette (black on white, or white
// on black) and the high-contrast status colours (statusstyle.h); the glyphs stay as they are.
// Without it the app keeps the platform's palette, light or dark, as the desktop gives it.
#pragma once

#include <QPalette>
#include <QString>

namespace dynascope::ui {

struct ContrastRequest {
    bool on = false;
    bool dark = false; // white on black
    QString why; // "--high-contrast", "GTK_THEME=HighContrast", ...
};

// What asks for high contrast, first match wins: the command line (`flag`: --high-contrast);
// DYNASCOPE_HIGH_CONTRAST (1, on, light or dark: yes; 0 or off: no, whatever the desktop says);
// then the desktop, except on the offscreen platform (screenshots and tests stay the same
// everywhere): GTK_THEME naming a HighContrast theme (HighContrastInverse: white on black),
// GNOME's org.gnome.desktop.a11y.interface high-contrast or a HighContrast gtk-theme (through
// gsettings, when there is a desktop session), KDE's colour scheme (kdeglobals) with
// "HighContrast" in its name. `dark` also follows a dark platform palette.
ContrastRequest highContrastRequest(bool flag);
// The desktop's part of it alone (GTK_THEME, GNOME, KDE), on any platform.
ContrastRequest desktopHighContrastRequest();

// The palette of the high-contrast mode: black text on white, or white on black; selection in
// navy (yellow on black), links blue (light blue), separators in the text colour.
QPalette highContrastPalette(bool dark);

// Sets the application's palette and the status colours of the high-contrast mode.
void applyHighContrast(bool dark);

} // namespace dynascope::ui
