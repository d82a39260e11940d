//===- Ranks.h - the communicator of this process -------------------------===//
//
// One rank, or the ranks that mpirun started, through the MPI plug-in
// (MpiCommunicator.cpp, lib/tc-mpi-collective.so). The interface they
// implement is the runtime core's (runtime/Communicator.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_COLLECTIVE_RANKS_H
#define TC_RUNTIME_COLLECTIVE_RANKS_H

#include "runtime/Communicator.h"

#include <memory>
#include <string>

namespace tc::rt {

/// The communicator of this process: MPI's when mpirun started it as one of
/// several ranks (OMPI_COMM_WORLD_SIZE above 1), else one rank.
/// Null with `error` when mpirun started it but the MPI plug-in is missing
/// or MPI fails to start.
std::unique_ptr<Communicator> connectRanks(std::string &error);

/// A job of one rank: sums and broadcasts leave the data as it is.
std::unique_ptr<Communicator> singleRank();

} // namespace tc::rt

#endif // TC_RUNTIME_COLLECTIVE_RANKS_H
