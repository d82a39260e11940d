//===- ProfileReport.cpp - where a run's device time went ------------------===//

#include "runtime/report/ProfileReport.h"
#include "support/AtomicFile.h"
#include "support/OutputPath.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace tc::rt {

bool writeProfile(const std::string &path, std::vector<ProfileEntry> entries,
                  double wall, std::string &error) {
  std::map<std::string, ProfileEntry> byKind;
  double device = 0;
  for (const ProfileEntry &e : entries) {
    ProfileEntry &k = byKind[e.kind];
    k.kind = e.kind;
    k.calls += e.calls;
    k.seconds += e.seconds;
    device += e.seconds;
  }
  std::vector<ProfileEntry> kinds;
  for (auto &[kind, e] : byKind)
    kinds.push_back(e);
  std::sort(kinds.begin(), kinds.end(),
            [](const auto &a, const auto &b) { return a.seconds > b.seconds; });
  std::fprintf(stderr,
               "tc-run: profile, %.2f s in all: %.2f s in the device's steps, "
               "%.2f s outside them (start-up, data, metrics, checkpoints)\n",
               wall, device, wall - device);
  std::fprintf(stderr, "  %-34s %8s %10s %7s\n", "op", "calls", "seconds",
               "share");
  for (const ProfileEntry &k : kinds)
    std::fprintf(stderr, "  %-34s %8lld %10.3f %6.1f%%\n", k.kind.c_str(),
                 (long long)k.calls, k.seconds, 100.0 * k.seconds / wall);
  char line[512];
  std::snprintf(line, sizeof line,
                "%s%.6f, \"device_seconds\": %.6f, \"entries\": [",
                std::string(kProfileMagic).c_str(), wall, device);
  std::string text = line;
  for (size_t i = 0; i < entries.size(); ++i) {
    std::snprintf(line, sizeof line,
                  "%s\n  {\"name\": \"%s\", \"op\": \"%s\", \"calls\": "
                  "%lld, \"seconds\": %.6f}",
                  i ? "," : "", entries[i].name.c_str(),
                  entries[i].kind.c_str(), (long long)entries[i].calls,
                  entries[i].seconds);
    text += line;
  }
  text += "\n]}\n";
  // A stream (/dev/stdout) is appended to; a file is replaced whole where
  // the policy still allows it: an earlier profile. The command checked the
  // path at its start; any other file there appeared since, and is kept.
  std::string ignored;
  std::optional<support::OutputKind> kind = support::checkOutputPath(
      {"--profile", path, "the profile", kProfileMagic}, ignored);
  if (kind == support::OutputKind::Stream) {
    std::FILE *out = std::fopen(path.c_str(), "a");
    bool ok =
        out && std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (out)
      ok = std::fclose(out) == 0 && ok;
    if (!ok)
      error = "cannot write the profile to " + path;
    return ok;
  }
  return support::writeFileAtomically(
      path, text.data(), text.size(), error, support::Durability::Replace,
      kind == support::OutputKind::Existing ? support::IfPresent::Replace
                                            : support::IfPresent::Keep);
}

} // namespace tc::rt
