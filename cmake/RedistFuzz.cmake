# REDIST_FUZZ: build redistc-fuzzer (test/fuzz), the libFuzzer target of
# redistc's directive parser, analysis and code generation. libFuzzer is
# clang's, so such a build folder is configured with clang, and with
# AddressSanitizer so that memory errors are found:
#   CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja \
#     -DREDIST_FUZZ=ON -DREDIST_SANITIZE=address,undefined \
#     -DREDIST_BUILD_RUNTIME=OFF
# scripts/fuzz-redistc.sh does this and runs the fuzzer. In a build without
# it, a clang++-14 on the PATH still gives the "slow" label its 60-second
# fuzzing run, in a folder of its own (test/CMakeLists.txt).
option(REDIST_FUZZ "Build redistc-fuzzer, the libFuzzer target (clang only)"
       OFF)
if(REDIST_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "REDIST_FUZZ=ON needs clang's libFuzzer, but the "
      "compiler is ${CMAKE_CXX_COMPILER_ID}: configure a build folder of its "
      "own with CC=clang-14 CXX=clang++-14 (scripts/fuzz-redistc.sh does)")
  endif()
  if(NOT REDIST_SANITIZE MATCHES "(^|,)address(,|$)")
    message(FATAL_ERROR "REDIST_FUZZ=ON needs "
      "-DREDIST_SANITIZE=address,undefined (or address): a fuzzer without "
      "AddressSanitizer misses memory errors")
  endif()
endif()
