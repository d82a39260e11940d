//===- ModelDescriptionFuzzer.cpp - model descriptions (.toml) ------------===//
//
// TOML syntax (toml++) and every check of a description: any text is
// either a description or a list of errors, never a crash.

#include "compiler/frontend/ModelDescription.h"

#include "llvm/Support/raw_ostream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  tc::parseModelDescription(text, "fuzz.toml", llvm::nulls());
  return 0;
}
