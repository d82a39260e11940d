//===- NumberText.h - a number a user typed, checked against its range ---===//
//
// The one rule for every number given on a command line (tc-run's flags,
// tc-compile's): plain decimal text, finite, inside the flag's range, or a
// message naming the value and the range. The tools' own conversions are
// not trusted with it: CLI11 clamps what overflows, reads "-1" as 2^64 - 1
// and "010" as 8, and lets "nan" through every range check (NaN compares
// false both ways); LLVM's reads "0x10" and "010" as 16 and 8.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_NUMBERTEXT_H
#define TC_SUPPORT_NUMBERTEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tc::support {

/// `text` as a decimal integer in [min, max], or none with `error`
/// "'TEXT' is not an integer in [MIN, MAX]".
std::optional<int64_t> parseIntegerIn(std::string_view text, int64_t min,
                                      int64_t max, std::string &error);

/// The numbers a flag may take: [min, max], or (min, max] when
/// `minExcluded` (a duration that must be positive).
struct NumberRange {
  double min = 0, max = 0;
  bool minExcluded = false;
  /// "[0, 10]", "(0, 1000000]".
  std::string text() const;
};

/// `text` as a finite decimal number ("0.6", "1e3"; not "nan", "inf",
/// "0x1p3", " 1") in `range`, or none with `error` "'TEXT' is not a
/// number in RANGE".
std::optional<double> parseNumberIn(std::string_view text,
                                    const NumberRange &range,
                                    std::string &error);

} // namespace tc::support

#endif // TC_SUPPORT_NUMBERTEXT_H
