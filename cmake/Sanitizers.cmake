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
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang 22 flags libstdc++ 12's own use of get_temporary_buffer.
    add_compile_options(-Wno-deprecated-declarations)
  endif()
  message(STATUS "Sanitizers: AddressSanitizer + UndefinedBehaviorSanitizer")
endif()

# Links the sanitizers' default options (cmake/SanitizerDefaults.c) into
# every executable under `directory`; called once all targets exist.
function(tc_link_sanitizer_defaults directory)
  if(NOT TC_SANITIZE)
    return()
  endif()
  if(NOT TARGET TcSanitizerDefaults)
    add_library(TcSanitizerDefaults OBJECT
      ${PROJECT_SOURCE_DIR}/cmake/SanitizerDefaults.c)
    find_program(TC_LLVM_SYMBOLIZER llvm-symbolizer
      HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
    target_compile_definitions(TcSanitizerDefaults PRIVATE
      TC_LLVM_SYMBOLIZER="${TC_LLVM_SYMBOLIZER}")
  endif()
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:TcSanitizerDefaults>)
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory ${subdirectories})
    tc_link_sanitizer_defaults(${subdirectory})
  endforeach()
endfunction()
