# No shell and no other process ever runs with trace content, and no URL from a trace is opened:
# the code of the app and the CLI (core/, ui/, app/) calls none of system(), popen(), the exec
# family, fork(), posix_spawn(), QProcess or QDesktopServices. Trace `link` records are shown as
# text. (Tests spawn the built binaries with QProcess, and bench/ spawns the app to time its
# start-up; neither passes trace content to a shell.) Run with -DROOT=<source dir>.
file(GLOB_RECURSE sources ${ROOT}/core/*.cpp ${ROOT}/core/*.h ${ROOT}/ui/*.cpp ${ROOT}/ui/*.h
     ${ROOT}/app/*.cpp ${ROOT}/app/*.h)
set(pattern "(^|[^A-Za-z0-9_:.>]|std::|[^A-Za-z0-9_]::)(system|popen|execl|execlp|execle|execv|execvp|execvpe|fork|vfork|posix_spawn|posix_spawnp|ShellExecute[AW]?)[ ]*\\(|QProcess|QDesktopServices|openUrl")
set(found "")
foreach(f ${sources})
  file(STRINGS ${f} hits REGEX "${pattern}")
  foreach(h ${hits})
    string(STRIP "${h}" h)
    if(NOT h MATCHES "^//")
      file(RELATIVE_PATH rel ${ROOT} ${f})
      string(APPEND found "  ${rel}: ${h}\n")
    endif()
  endforeach()
endforeach()
list(LENGTH sources n)
if(found)
  message(FATAL_ERROR "Process or URL calls in the app's code (trace content must never reach "
    "a shell; see README, Robustness). Remove them, or review and extend this check:\n${found}")
endif()
message(STATUS "no process or URL calls in ${n} files of core/, ui/, app/")
