// The error checks of the end-to-end programs: a directive given a value
// that is wrong, or different, on some ranks must throw on every rank
// before anything moves, each rank's message naming what that rank sees.
// Rank 0 gathers the messages and prints them.
#ifndef REDISTC_TEST_REPORT_ERROR_H
#define REDISTC_TEST_REPORT_ERROR_H

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

/// Every rank's Message, in rank order, on rank 0; empty elsewhere.
/// Collective.
inline std::vector<std::string> gatherMessages(const std::string &Message) {
  int Rank = 0, Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const int Length = static_cast<int>(Message.size());
  std::vector<int> Lengths(Rank == 0 ? Size : 0), Offsets(Lengths.size());
  MPI_Gather(&Length, 1, MPI_INT, Lengths.data(), 1, MPI_INT, 0,
             MPI_COMM_WORLD);
  int Total = 0;
  for (std::size_t R = 0; R < Lengths.size(); ++R) {
    Offsets[R] = Total;
    Total += Lengths[R];
  }
  std::vector<char> All(static_cast<std::size_t>(Total) + 1);
  MPI_Gatherv(Message.data(), Length, MPI_CHAR, All.data(), Lengths.data(),
              Offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> Out;
  for (std::size_t R = 0; R < Lengths.size(); ++R)
    Out.emplace_back(All.data() + Offsets[R],
                     static_cast<std::size_t>(Lengths[R]));
  return Out;
}

/// Every rank tells whether it caught the directive's error (Caught); rank
/// 0 prints whether every rank did, with rank From's message, or with every
/// rank's, one line each, when From is negative. Collective.
inline void reportError(const std::string &Message, bool Caught, int From) {
  int Mine = Caught, All = 0;
  MPI_Allreduce(&Mine, &All, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  const std::vector<std::string> Messages = gatherMessages(Message);
  if (Messages.empty())
    return;
  const char *Verdict = All ? "error on every rank:" : "NOT ON EVERY RANK:";
  if (From >= 0) {
    std::printf("%s %s\n", Verdict, Messages[From].c_str());
    return;
  }
  std::printf("%s\n", Verdict);
  for (std::size_t R = 0; R < Messages.size(); ++R)
    std::printf("rank %zu: %s\n", R, Messages[R].c_str());
}

#endif // REDISTC_TEST_REPORT_ERROR_H
