//===- FuzzTarget.h - what every fuzz target of fuzz/ shares ---------------===//
//
// A target is a libFuzzer entry point over one input parser. Its seed
// corpus comes from the repository's files (fuzz/run-fuzzer.sh); targets
// whose format has no file in the repository write one with tc's own writer
// when run as `fuzz-X --write-seed=DIR` (so seeds follow the format).
//
//===----------------------------------------------------------------------===//

#ifndef TC_FUZZ_FUZZTARGET_H
#define TC_FUZZ_FUZZTARGET_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace tc::fuzz {

/// Writes the target's seed into DIR and exits when argv has
/// --write-seed=DIR; `write(dir)` returns whether it succeeded.
template <typename Writer>
void writeSeedIfAsked(int argc, char **argv, Writer write) {
  const char *flag = "--write-seed=";
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0) {
      std::string dir = argv[i] + std::strlen(flag);
      if (!write(dir)) {
        std::fprintf(stderr, "cannot write a seed into %s\n", dir.c_str());
        std::exit(1);
      }
      std::exit(0);
    }
}

/// Bilingual text to train the seeds' small SentencePiece vocabularies on.
inline std::vector<std::string> seedText() {
  return {"in the beginning", "en el principio", "and the earth",
          "y la tierra"};
}

} // namespace tc::fuzz

#endif // TC_FUZZ_FUZZTARGET_H
