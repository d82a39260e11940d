//===- ChildProcess.cpp - commands run by tc's tools ----------------------===//

#include "support/ChildProcess.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tc::support {

int runShellCommand(const std::string &command, const std::string &log) {
  int output = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                      0644);
  if (output < 0)
    return -1;
  // Built before the fork: the child only makes system calls.
  std::string script = "exec " + command;
  pid_t parent = ::getpid();
  pid_t child = ::fork();
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) // the tool died before prctl took effect
      ::_exit(127);
    ::dup2(output, STDOUT_FILENO);
    ::dup2(output, STDERR_FILENO);
    ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char *>(nullptr));
    ::_exit(127);
  }
  ::close(output);
  if (child < 0)
    return -1;
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return status;
}

bool processRunning(pid_t pid) {
  return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
}

} // namespace tc::support
