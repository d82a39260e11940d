//===- ProfileReport.h - where a run's device time went --------------------===//
//
// tc-run train --profile: the device's times per kernel (Device::profile)
// summed by tc op into a table on stderr, and every entry as JSON in a file.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_PROFILEREPORT_H
#define TC_RUNTIME_PROFILEREPORT_H

#include "runtime/Device.h"

#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// How a profile file starts (tc-run checks --profile against it before a
/// run, so that an existing file of another kind is never replaced).
inline constexpr std::string_view kProfileMagic = "{\"wall_seconds\": ";

/// Prints the profile by op (stderr) and writes every entry as JSON to
/// `path`; `wall` is the whole run's time, start-up included. False with
/// `error` when the file cannot be written, or when a file the output
/// policy refuses appeared at `path` during the run (it is kept; the
/// profile is left beside it).
bool writeProfile(const std::string &path, std::vector<ProfileEntry> entries,
                  double wall, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_PROFILEREPORT_H
