# cmake --install: the binary in bin/; the result tools (compare, plot,
# simulate, check_table) and the reader they share side by side in
# libexec/halo-bandwidth/, each on PATH through a halobw-NAME link in bin/; the
# schema, the platforms and the ReFrame test in share/halo-bandwidth/; the docs
# in share/doc/halo-bandwidth/. The tools find the rest through
# halobw_install.py, written here with every folder relative to theirs, so that
# the tree works under any --prefix or DESTDIR.
include(GNUInstallDirs)

set(HALOBW_INSTALL_TOOLDIR ${CMAKE_INSTALL_LIBEXECDIR}/halo-bandwidth)
set(HALOBW_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/halo-bandwidth)

# A folder relative to the tools' folder ("../../bin"); a folder given absolute stays absolute.
function(halobw_relative_to_tools out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    file(RELATIVE_PATH _rel "/prefix/${HALOBW_INSTALL_TOOLDIR}" "/prefix/${dir}")
    set(${out} "${_rel}" PARENT_SCOPE)
  endif()
endfunction()
halobw_relative_to_tools(HALOBW_REL_BINDIR ${CMAKE_INSTALL_BINDIR})
halobw_relative_to_tools(HALOBW_REL_DATADIR ${HALOBW_INSTALL_DATADIR})
halobw_relative_to_tools(HALOBW_REL_DOCDIR ${CMAKE_INSTALL_DOCDIR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/halobw_install.py.in ${PROJECT_BINARY_DIR}/halobw_install.py @ONLY)

install(TARGETS halo-bandwidth RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS scripts/compare scripts/plot scripts/simulate scripts/check_table.py
        DESTINATION ${HALOBW_INSTALL_TOOLDIR})
install(FILES scripts/halobw_results.py scripts/halobw_paths.py ${PROJECT_BINARY_DIR}/halobw_install.py
        DESTINATION ${HALOBW_INSTALL_TOOLDIR})
install(FILES docs/output.schema.json DESTINATION ${HALOBW_INSTALL_DATADIR})
install(DIRECTORY platforms reframe DESTINATION ${HALOBW_INSTALL_DATADIR} PATTERN __pycache__ EXCLUDE)
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} PATTERN output.schema.json EXCLUDE)

# bin/halobw-compare -> ../libexec/halo-bandwidth/compare, and the others.
file(RELATIVE_PATH _tools_from_bin "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${HALOBW_INSTALL_TOOLDIR}")
foreach(tool compare plot simulate check_table.py)
  string(REGEX REPLACE "\\.py$" "" _name ${tool})
  string(REPLACE "_" "-" _name ${_name})
  install(CODE "
    set(_bin \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    message(STATUS \"Installing: \${_bin}/halobw-${_name} -> ${_tools_from_bin}/${tool}\")
    file(CREATE_LINK ${_tools_from_bin}/${tool} \${_bin}/halobw-${_name} SYMBOLIC)")
endforeach()
