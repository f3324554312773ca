# redist_use_llvm(<target> [PUBLIC]): compiles <target> against libLLVM 14's
# headers (as system headers, with LLVM's definitions) and links the shared
# libLLVM, whose CommandLine and JSON the tools and benchmarks use, with
# tools/common, whose ToolCommandLine.h parses their command lines. Only the
# definitions are taken, not LLVM's compile flags (such as -fno-exceptions),
# which would reach the rest of the project. PUBLIC passes all of it on to
# the targets that link <target>. Included once per directory (no include
# guard): find_package's variables and the imported LLVM target are visible
# only in the directory that found them and below.
find_package(LLVM 14 CONFIG REQUIRED
  HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/cmake/llvm-14)
separate_arguments(REDIST_LLVM_DEFINITIONS NATIVE_COMMAND
                   "${LLVM_DEFINITIONS}")

function(redist_use_llvm target)
  set(_scope PRIVATE)
  if(ARGV1 STREQUAL "PUBLIC")
    set(_scope PUBLIC)
  endif()
  target_include_directories(${target} SYSTEM ${_scope} ${LLVM_INCLUDE_DIRS})
  target_compile_definitions(${target} ${_scope} ${REDIST_LLVM_DEFINITIONS})
  target_include_directories(${target} ${_scope}
                             ${PROJECT_SOURCE_DIR}/tools/common)
  target_link_libraries(${target} ${_scope} LLVM)
endfunction()
