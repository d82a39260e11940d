//===- NumberText.cpp - a number a user typed, checked against its range -===//

#include "support/NumberText.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tc::support {
namespace {

/// `value` as a range's bound is written: "10", "0.5", "1e+12".
std::string boundText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

} // namespace

std::optional<int64_t> parseIntegerIn(std::string_view text, int64_t min,
                                      int64_t max, std::string &error) {
  // from_chars reads decimal digits only: no sign but '-', no base prefix,
  // no spaces, and reports overflow instead of clamping.
  int64_t value = 0;
  const char *end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc() && stop == end && value >= min && value <= max)
    return value;
  error = "'" + std::string(text) + "' is not an integer in [" +
          std::to_string(min) + ", " + std::to_string(max) + "]";
  return std::nullopt;
}

std::string NumberRange::text() const {
  return (minExcluded ? "(" : "[") + boundText(min) + ", " + boundText(max) +
         "]";
}

std::optional<double> parseNumberIn(std::string_view text,
                                    const NumberRange &range,
                                    std::string &error) {
  // from_chars reads "nan" and "inf" too: finiteness is checked on its own,
  // since NaN fails every comparison and so no range excludes it.
  double value = 0;
  const char *end = text.data() + text.size();
  auto [stop, ec] =
      std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ec == std::errc() && stop == end && std::isfinite(value) &&
      (range.minExcluded ? value > range.min : value >= range.min) &&
      value <= range.max)
    return value;
  error = "'" + std::string(text) + "' is not a number in " + range.text();
  return std::nullopt;
}

} // namespace tc::support
