# The sanitizer build (scripts/test.sh builds it into build-sanitize/):
#
#   TC_SANITIZE  every tc library, tool and test compiled and linked with
#                AddressSanitizer and UndefinedBehaviorSanitizer; any report
#                stops the process (-fno-sanitize-recover), so a test fails.
#   TC_FUZZ      also the coverage-guided fuzz targets of fuzz/ (libFuzzer,
#                clang only); tc's code is instrumented for coverage.
#
# LLVM/MLIR come from Debian uninstrumented: errors inside them are not
# seen, errors in tc's use of them are.

option(TC_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(TC_FUZZ "Build the libFuzzer targets of fuzz/ (clang; implies TC_SANITIZE)" OFF)

if(TC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TC_FUZZ needs clang (libFuzzer); configure with "
      "-DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22")
  endif()
  set(TC_SANITIZE ON)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(TC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "Sanitizers: AddressSanitizer + UndefinedBehaviorSanitizer")
endif()
