# Warnings every redist target builds with: the code stays -Wall -Wextra clean
# with gcc and clang. REDIST_WERROR turns them into errors (CI sets it).
option(REDIST_WERROR "Treat warnings as errors" OFF)

function(redist_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(REDIST_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
