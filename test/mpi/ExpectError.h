//===- ExpectError.h - An error every rank must raise alike ---------------===//
//
// Shared by the MPI test programs of bad input: a call given a bad value, on
// every rank or on some only, must throw redist::InvalidArgument naming the
// value on every rank, and every rank must carry on.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_MPI_EXPECTERROR_H
#define REDIST_TEST_MPI_EXPECTERROR_H

#include "redist/Error.h"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace redist {
namespace test {

/// Runs Body on every rank of MPI_COMM_WORLD and checks that it throws
/// InvalidArgument whose message contains Expected on every rank. A rank
/// that did not prints a FAIL line; when all did, rank 0 prints "error
/// NAME: all N ranks: MESSAGE". Returns whether all did. Collective.
inline bool expectErrorOnEveryRank(const char *Name,
                                   const std::string &Expected,
                                   const std::function<void()> &Body) {
  int Rank = 0, Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::string Message;
  int Ok = 0;
  try {
    Body();
    Message = "no error";
  } catch (const InvalidArgument &E) {
    Message = E.what();
    Ok = Message.find(Expected) != std::string::npos;
  } catch (const std::exception &E) {
    // Such as std::bad_alloc under a memory cap: a failure, not an abort.
    Message = std::string("not InvalidArgument: ") + E.what();
  }
  int AllOk = 0;
  MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!Ok)
    std::printf("FAIL %s on rank %d: expected \"%s\", got \"%s\"\n", Name, Rank,
                Expected.c_str(), Message.c_str());
  if (Rank == 0 && AllOk)
    std::printf("error %s: all %d ranks: %s\n", Name, Size, Message.c_str());
  return AllOk != 0;
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_MPI_EXPECTERROR_H
