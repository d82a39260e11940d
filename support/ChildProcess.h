//===- ChildProcess.h - commands run by tc's tools, and processes alive ---===//
//
// tc-compile runs the system C++ compiler on the generated kernels. A tool
// killed while a compiler runs must not leave it running (std::system's
// children outlived a `kill` of tc-compile), and files named for a process
// (kernel cache builds, temporaries) are taken for debris only once that
// process has gone.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_CHILDPROCESS_H
#define TC_SUPPORT_CHILDPROCESS_H

#include <string>
#include <sys/types.h>

namespace tc::support {

/// Runs `command` with /bin/sh, its standard output and error going to the
/// file `log` (created or truncated). The shell execs the command, which is
/// sent SIGTERM when the calling thread ends (PR_SET_PDEATHSIG): killing the
/// tool kills the command. Returns waitpid's status, or -1 when the command
/// could not start (`log` unwritable, no fork).
int runShellCommand(const std::string &command, const std::string &log);

/// Whether process `pid` is running on this machine (as another user's too).
bool processRunning(pid_t pid);

} // namespace tc::support

#endif // TC_SUPPORT_CHILDPROCESS_H
