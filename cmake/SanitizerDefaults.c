/* The default options of the sanitizer runtimes, compiled into every
 * executable of a TC_SANITIZE build (cmake/Sanitizers.cmake).
 *
 * allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its free slab
 * space from inline header code when the including file is instrumented.
 * libMLIR (Debian's, uninstrumented) allocates from the same allocators
 * without unpoisoning, so tc's instrumented code would read MLIR's
 * attribute storage as "use-after-poison". ASan's own checks of the heap,
 * the stack and globals are unaffected.
 *
 * external_symbolizer_path: LLVM 22's llvm-symbolizer, which is not on PATH
 * on Debian, so that reports name files and lines. */
#define SYMBOLIZER "external_symbolizer_path=" TC_LLVM_SYMBOLIZER

const char *__asan_default_options(void) {
  return "allow_user_poisoning=0:detect_stack_use_after_return=1:" SYMBOLIZER;
}

const char *__ubsan_default_options(void) {
  return "print_stacktrace=1:halt_on_error=1:" SYMBOLIZER;
}
