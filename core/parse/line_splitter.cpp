// LineSplitter is header-only (inlined into the loader's loop); this unit keeps the build list
// stable and checks the header compiles on its own.
#include "core/parse/line_splitter.h"
