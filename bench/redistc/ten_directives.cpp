//===- ten_directives.cpp - A file with 10 directives, to time redistc ----===//
//
// bench/redistc/run.sh times `redistc` on this file against
// `clang++ -fsyntax-only` on the same file with the same flags (the issue's
// target: redistc takes less than 1.5 times as long). A realistic mix: most
// redistributions are static (schedules and tables computed at translation
// time), two have tables over the default limit, the last is dynamic; run.sh
// prints redistc's report.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <cstdint>
#include <vector>

#pragma redist processors P(8)
#pragma redist processors Q(6)

constexpr std::int64_t N = 1 << 20;
constexpr std::int64_t Sizes[8] = {1 << 17, 1 << 17, 1 << 17, 1 << 17,
                                   1 << 17, 1 << 17, 1 << 17, 1 << 17};

void solve(std::vector<double> &u, std::vector<double> &v, int k) {
#pragma redist distribute u[N](block) onto P
#pragma redist distribute v[N](cyclic(16)) onto Q
#pragma redist redistribute u(cyclic(3))
#pragma redist redistribute u(cyclic(5))
#pragma redist redistribute u(gen_block(Sizes))
#pragma redist redistribute u(cyclic(64)) onto Q
#pragma redist assign v = u
#pragma redist redistribute u(cyclic(k))
}
