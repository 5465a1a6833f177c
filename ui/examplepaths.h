// Where the example trace shipped with Dynascope lives. In order: installed next to the program
// (PREFIX/bin/../share/dynascope/examples), in the build tree (build*/bin/../../resources/examples
// and one level deeper), and in the XDG data folders (an installed prefix the program was copied
// out of).
#pragma once

#include <QString>

namespace dynascope::ui {

// The example trace's absolute path, or an empty string when it cannot be found.
QString exampleTracePath();
// The same search from a given program folder (tests).
QString exampleTracePath(const QString& programDir);

} // namespace dynascope::ui
