# Finds lit and FileCheck from LLVM's tools package (Debian: llvm-14-tools),
# where nothing is on PATH unversioned, so the user never passes paths.
find_package(LLVM CONFIG QUIET
  HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/cmake/llvm-14)
set(_redist_llvm_roots)
if(LLVM_FOUND)
  list(APPEND _redist_llvm_roots ${LLVM_INSTALL_PREFIX})
endif()
list(APPEND _redist_llvm_roots /usr/lib/llvm-14)

find_program(REDIST_LIT NAMES lit.py llvm-lit lit
  HINTS ${_redist_llvm_roots}
  PATH_SUFFIXES build/utils/lit bin
  DOC "LLVM's lit test runner")
find_program(REDIST_FILECHECK NAMES FileCheck FileCheck-14
  HINTS ${_redist_llvm_roots} PATH_SUFFIXES bin
  DOC "LLVM's FileCheck")
if(NOT REDIST_LIT OR NOT REDIST_FILECHECK)
  message(FATAL_ERROR "lit and FileCheck not found: install llvm-14-tools "
                      "(scripts/install-deps.sh does)")
endif()
get_filename_component(REDIST_LLVM_TOOLS_DIR ${REDIST_FILECHECK} DIRECTORY)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
