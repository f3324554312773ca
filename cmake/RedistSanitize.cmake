# REDIST_SANITIZE: build everything with compiler sanitizers, e.g.
#   cmake -S . -B build-sanitize -DREDIST_SANITIZE=address,undefined
# The value is what -fsanitize= takes (gcc and clang). Every target of this
# build gets the flags (add_compile_options/add_link_options before any
# add_subdirectory); redist_sanitize_interface() also puts them in a
# library's usage requirements, so that programs linking the installed
# package or using redist_translate() get them too (a sanitized static
# library cannot be linked without the sanitizer runtime). lit's mpicxx lines
# get them from the site configuration (REDIST_SANITIZE_FLAGS).
#
# The flags halt on the first report: -fno-sanitize-recover=all makes UBSan's
# checks fatal, as ASan's are already; the tests also set halt_on_error=1 in
# ASAN_OPTIONS and UBSAN_OPTIONS (test/lit.cfg.py).
set(REDIST_SANITIZE "" CACHE STRING
    "Sanitizers to build everything with, as for -fsanitize= (for example \
address,undefined); empty for none")

set(REDIST_SANITIZE_FLAGS "")
if(REDIST_SANITIZE)
  set(REDIST_SANITIZE_FLAGS
      -fsanitize=${REDIST_SANITIZE}
      -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  # Fail at configure time, with the reason, rather than at the first link.
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "")
  set(CMAKE_REQUIRED_LINK_OPTIONS ${REDIST_SANITIZE_FLAGS})
  string(JOIN " " CMAKE_REQUIRED_FLAGS ${REDIST_SANITIZE_FLAGS})
  set(CMAKE_REQUIRED_QUIET ON)
  string(MAKE_C_IDENTIFIER "REDIST_SANITIZE_WORKS_${REDIST_SANITIZE}" _works)
  check_cxx_source_compiles("int main() { return 0; }" ${_works})
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  unset(CMAKE_REQUIRED_QUIET)
  if(NOT ${_works})
    message(FATAL_ERROR "REDIST_SANITIZE=${REDIST_SANITIZE}: "
      "${CMAKE_CXX_COMPILER} cannot build and link a program with "
      "${REDIST_SANITIZE_FLAGS} (gcc needs libasan8/libubsan1, clang "
      "libclang-rt-14-dev)")
  endif()
  message(STATUS "Sanitizers: ${REDIST_SANITIZE_FLAGS}")
  add_compile_options(${REDIST_SANITIZE_FLAGS})
  add_link_options(${REDIST_SANITIZE_FLAGS})
endif()

# Puts the sanitizer flags in <target>'s usage requirements (exported with
# the package), so that whatever links it is built the same way.
function(redist_sanitize_interface target)
  if(REDIST_SANITIZE_FLAGS)
    target_compile_options(${target} INTERFACE ${REDIST_SANITIZE_FLAGS})
    target_link_options(${target} INTERFACE ${REDIST_SANITIZE_FLAGS})
  endif()
endfunction()
