# Compiler settings shared by every Canopy target.

# canopy_target_defaults(<target>): warnings as errors and sanitizer flags.
function(canopy_target_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  target_link_libraries(${target} PRIVATE canopy_headers)
endfunction()

if(CANOPY_SANITIZE)
  add_compile_options(-fsanitize=${CANOPY_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${CANOPY_SANITIZE})
endif()
