// Where the example trace shipped with Dynascope lives: next to the build
// (build/bin/../../resources/examples) or installed (bin/../share/dynascope/examples).
#pragma once

#include <QString>

namespace dynascope::ui {

// The example trace's absolute path, or an empty string when it cannot be found.
QString exampleTracePath();

} // namespace dynascope::ui
