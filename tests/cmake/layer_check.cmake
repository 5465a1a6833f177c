# The core's layers (core/CMakeLists.txt): a file of a layer includes core headers of its own
# folder or of a layer below, never of a layer above, nor of a sibling at its own rank (the two
# importers, load/trace and load/logs, know nothing of each other). A failure names the file,
# its line and the include.
#   cmake -DSOURCE_DIR=<repo> -P layer_check.cmake
cmake_minimum_required(VERSION 3.25)
# folder rank: lower ranks are below
set(layers
    util 0 io 1 model 2 parse 3 load/finish 4 load/trace 5 load/logs 5 load 6 analysis 7
    writer 8 run 9 report 10 export 11 synth 12)

# The layer (folder) of a path under core/: the longest folder of `layers` it starts with.
function(layer_of path out_folder out_rank)
  set(best "")
  set(best_rank -1)
  list(LENGTH layers n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET layers ${i} folder)
    list(GET layers ${j} rank)
    string(LENGTH "${folder}" len)
    string(LENGTH "${best}" best_len)
    if(path MATCHES "^${folder}/" AND len GREATER best_len)
      set(best ${folder})
      set(best_rank ${rank})
    endif()
  endforeach()
  set(${out_folder} ${best} PARENT_SCOPE)
  set(${out_rank} ${best_rank} PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR}/core ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/core/*.cpp)
set(problems "")
set(checked 0)
foreach(f ${files})
  layer_of(${f} from from_rank)
  if(from_rank EQUAL -1)
    string(APPEND problems "core/${f}: in no layer (add its folder to core/CMakeLists.txt and here)\n")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/core/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"core/([^\"]*)\".*" "\\1" target "${line}")
    layer_of(${target} to to_rank)
    math(EXPR checked "${checked} + 1")
    if(to_rank EQUAL -1)
      string(APPEND problems "core/${f}: includes core/${target}, in no layer\n")
    elseif(to_rank GREATER from_rank)
      string(APPEND problems
        "core/${f} (layer ${from}) includes core/${target}: ${to} is a layer above\n")
    elseif(to_rank EQUAL from_rank AND NOT to STREQUAL from)
      string(APPEND problems
        "core/${f} (layer ${from}) includes core/${target}: ${to} is a sibling layer\n")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "include that points up a layer:\n${problems}")
endif()
list(LENGTH files nfiles)
message(STATUS "core layers: ${checked} includes in ${nfiles} files, none points up a layer")
