//===- Communicator.cpp - one rank, or MPI's ranks through the plug-in -----===//

#include "runtime/collective/Communicator.h"
#include "runtime/Plugin.h"

#include <cstdlib>

namespace tc::rt {
namespace {

class SingleRank final : public Communicator {
public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string describe() const override { return "one rank"; }
  void startAllReduce(void *, int64_t, ReduceElement) override {}
  void wait(double) override {}
  void broadcast(void *, int64_t, double) override {}
};

/// The launcher's word that this process is one rank of several: Open MPI's
/// mpirun, or a PMI launcher (MPICH's, Slurm's).
const char *launcherSize() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char *size = std::getenv(name))
      return size;
  return nullptr;
}

} // namespace

std::unique_ptr<Communicator> singleRank() {
  return std::make_unique<SingleRank>();
}

std::unique_ptr<Communicator> connectRanks(std::string &error) {
  if (!launcherSize())
    return singleRank();
  using Create = Communicator *(*)(std::string &);
  auto create = reinterpret_cast<Create>(loadPlugin(
      "tc-mpi-collective.so", "tc_create_mpi_communicator",
      "MPI communicator",
      "build tc with Open MPI installed (Debian's libopenmpi-dev; "
      "scripts/install-deps.sh installs it), or run tc-run without mpirun",
      error));
  if (!create)
    return nullptr;
  return std::unique_ptr<Communicator>(create(error));
}

} // namespace tc::rt
