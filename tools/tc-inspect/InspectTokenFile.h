//===- InspectTokenFile.h - tc-inspect of a token file ---------------------===//

#ifndef TC_TOOLS_TC_INSPECT_INSPECTTOKENFILE_H
#define TC_TOOLS_TC_INSPECT_INSPECTTOKENFILE_H

#include <string>

namespace tc {

/// Prints what the token file at `path` holds: pairs, tokens, lengths and
/// its vocabulary; with `text`, every pair decoded by that vocabulary
/// ("source<TAB>target" lines, as a person reads them) instead. Returns the
/// exit code.
int inspectTokenFile(const std::string &path, bool text);

} // namespace tc

#endif // TC_TOOLS_TC_INSPECT_INSPECTTOKENFILE_H
