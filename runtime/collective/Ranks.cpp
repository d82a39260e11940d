//===- Ranks.cpp - one rank, or MPI's ranks through the plug-in -----------===//

#include "runtime/collective/Ranks.h"
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
  void abort(int) override {}
};

/// Whether Open MPI's mpirun started this process as one rank of several
/// (the plug-in is built against Open MPI). A job of one rank needs no MPI.
bool startedAsOneOfSeveralRanks() {
  const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
  return size && std::atoi(size) > 1;
}

} // namespace

std::unique_ptr<Communicator> singleRank() {
  return std::make_unique<SingleRank>();
}

std::unique_ptr<Communicator> connectRanks(std::string &error) {
  if (!startedAsOneOfSeveralRanks())
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
