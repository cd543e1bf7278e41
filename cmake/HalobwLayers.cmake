# The layers of the house, bottom to top. A file in include/halobw/LAYER/ or
# src/LAYER/ may include its own layer and the layers below it, never one
# above: the check below runs before anything is compiled and fails the build
# with the offending lines. Each layer is also a library that links only the
# layers below it (CMakeLists.txt).
set(HALOBW_LAYERS base cli plan platform exchange measure report app)

# Run as a script (cmake -P) at build time: ROOT is the source tree, STAMP the file to touch.
function(halobw_check_layers root)
  set(errors "")
  list(LENGTH HALOBW_LAYERS count)
  foreach(layer IN LISTS HALOBW_LAYERS)
    list(FIND HALOBW_LAYERS ${layer} rank)
    file(GLOB files ${root}/include/halobw/${layer}/*.hpp ${root}/src/${layer}/*.cpp)
    foreach(file IN LISTS files)
      file(STRINGS ${file} includes REGEX "^#include \"halobw/")
      foreach(line IN LISTS includes)
        if(line MATCHES "^#include \"halobw/([a-z_]+)/[a-z_]+\\.hpp\"")
          list(FIND HALOBW_LAYERS ${CMAKE_MATCH_1} included)
          if(included EQUAL -1)
            string(APPEND errors "\n  ${file}: ${line}: no such layer")
          elseif(included GREATER rank)
            string(APPEND errors "\n  ${file}: ${line}: ${layer} may not include ${CMAKE_MATCH_1}, a layer above it")
          endif()
        elseif(NOT line MATCHES "^#include \"halobw/version\\.hpp\"" OR NOT layer STREQUAL "app")
          string(APPEND errors "\n  ${file}: ${line}: not in a layer's folder")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(errors)
    message(FATAL_ERROR "halo-bandwidth layers (${HALOBW_LAYERS}, bottom to top) broken:${errors}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  halobw_check_layers(${ROOT})
  file(TOUCH ${STAMP})
  return()
endif()

# In the build: the check reruns whenever a header or source changes.
file(GLOB_RECURSE _halobw_layered CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/halobw/*.hpp
     ${PROJECT_SOURCE_DIR}/src/*.cpp)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/halobw_layers.stamp
                   COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DSTAMP=${PROJECT_BINARY_DIR}/halobw_layers.stamp
                           -P ${CMAKE_CURRENT_LIST_FILE}
                   DEPENDS ${_halobw_layered} ${CMAKE_CURRENT_LIST_FILE}
                   COMMENT "Checking that no layer includes one above it")
add_custom_target(halobw_layers ALL DEPENDS ${PROJECT_BINARY_DIR}/halobw_layers.stamp)
