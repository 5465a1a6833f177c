# No shell and no other process ever runs with trace content, and no URL from a trace is opened:
# the code of the app and the CLI (core/, ui/, app/) calls none of system(), popen(), the exec
# family, fork(), posix_spawn(), QProcess or QDesktopServices. Trace `link` records are shown as
# text. (Tests spawn the built binaries with QProcess, and bench/ spawns the app to time its
# start-up; neither passes trace content to a shell.) Run with -DROOT=<source dir>.
#
# One exception: core/run/child_process.cpp, the module that runs the user's own command line
# for `record`, `probe` and the app's Record a Run (argv as typed, through posix_spawnp). It may
# use posix_spawn/posix_spawnp and nothing else of the list: no shell (system, popen, "sh -c",
# /bin/sh), no exec family, no fork.
cmake_minimum_required(VERSION 3.25)
file(GLOB_RECURSE sources ${ROOT}/core/*.cpp ${ROOT}/core/*.h ${ROOT}/ui/*.cpp ${ROOT}/ui/*.h
     ${ROOT}/app/*.cpp ${ROOT}/app/*.h)
set(pattern "(^|[^A-Za-z0-9_:.>]|std::|[^A-Za-z0-9_]::)(system|popen|execl|execlp|execle|execv|execvp|execvpe|fork|vfork|posix_spawn|posix_spawnp|ShellExecute[AW]?)[ ]*\\(|QProcess|QDesktopServices|openUrl")
set(allowed core/run/child_process.cpp)
set(spawn_only "(^|[^A-Za-z0-9_:.>]|std::|[^A-Za-z0-9_]::)(posix_spawn|posix_spawnp)[ ]*\\(")
set(found "")
foreach(rel ${allowed})
  if(NOT EXISTS ${ROOT}/${rel})
    message(FATAL_ERROR "${rel}, the one module allowed to start processes, is gone: update "
      "no_shell.cmake")
  endif()
  file(STRINGS ${ROOT}/${rel} hits REGEX "${pattern}|sh -c|/bin/sh")
  set(spawns 0)
  foreach(h ${hits})
    string(STRIP "${h}" h)
    if(h MATCHES "^//")
      continue()
    endif()
    if(h MATCHES "${spawn_only}" AND NOT h MATCHES "(system|popen|exec[lv]p?e?|fork|vfork)[ ]*\\(|sh -c|/bin/sh|QProcess|QDesktopServices|openUrl")
      math(EXPR spawns "${spawns} + 1")
    else()
      string(APPEND found "  ${rel}: ${h} (this module may only posix_spawn the user's argv)\n")
    endif()
  endforeach()
  if(spawns EQUAL 0)
    message(FATAL_ERROR "${rel} no longer calls posix_spawnp: update no_shell.cmake")
  endif()
endforeach()
foreach(f ${sources})
  file(RELATIVE_PATH rel ${ROOT} ${f})
  if(rel IN_LIST allowed)
    continue()
  endif()
  file(STRINGS ${f} hits REGEX "${pattern}")
  foreach(h ${hits})
    string(STRIP "${h}" h)
    if(NOT h MATCHES "^//")
      string(APPEND found "  ${rel}: ${h}\n")
    endif()
  endforeach()
endforeach()
list(LENGTH sources n)
if(found)
  message(FATAL_ERROR "Process or URL calls in the app's code (trace content must never reach "
    "a shell; see docs/robustness.md). Remove them, or review and extend this check:\n${found}")
endif()
message(STATUS "no process or URL calls in ${n} files of core/, ui/, app/ but posix_spawnp in "
  "${allowed}")
