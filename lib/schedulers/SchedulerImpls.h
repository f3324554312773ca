//===- SchedulerImpls.h - The individual scheduling algorithms ------------===//
//
// Private to the library: makeSchedule (Schedulers.cpp) dispatches to these.
// One algorithm per file in lib/schedulers/.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_SCHEDULERIMPLS_H
#define REDIST_LIB_SCHEDULERS_SCHEDULERIMPLS_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/MinCost.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <cstdint>
#include <string>
#include <vector>

namespace redist {
namespace detail {

/// Whether A schedules any CommGrid, without looking at layouts (caterpillar,
/// stepwise, greedy, mincost, mincost-steps), and that schedule.
bool schedulesAnyGrid(Algorithm A);
Schedule scheduleAnyGrid(Algorithm A, const CommGrid &G);

/// Whether the caterpillar's max(P, Q) steps, empty ones included, stay
/// within MaxCaterpillarSteps (1-D and 2-D alike); sets *Why (when not null)
/// otherwise.
bool caterpillarFits(int64_t P, int64_t Q, std::string *Why);

/// The first condition of the closed forms: both layouts block-cyclic.
/// Otherwise sets *Why (when not null) to "<Name> needs block-cyclic
/// layouts (...)", naming the layout that is not.
bool bothBlockCyclic(const char *Name, const Layout &From, const Layout &To,
                     std::string *Why);
/// Throws InvalidArgument unless G is the grid of From's and To's processes.
void requireGridOfLayouts(const char *Name, const Layout &From,
                          const Layout &To, const CommGrid &G);

/// Caterpillar.cpp: ScaLAPACK's pairwise exchange.
Schedule scheduleCaterpillar(const CommGrid &G);

/// WalkerOtto.cpp: P = Q and s = K*r, or r = K*s, both block-cyclic.
bool walkerOttoApplies(const Layout &From, const Layout &To, std::string *Why);
Schedule scheduleWalkerOtto(const Layout &From, const Layout &To,
                            const CommGrid &G);

/// Classes.cpp: desprez-1998 §4.3.2, gcd(r', Q) = gcd(s', P) = 1.
bool classesApplies(const Layout &From, const Layout &To, std::string *Why);
Schedule scheduleClasses(const Layout &From, const Layout &To,
                         const CommGrid &G);

/// Stepwise.cpp: König-optimal number of steps, max weight per step.
Schedule scheduleStepwise(const CommGrid &G);

/// Greedy.cpp: maximum-weight matching per step.
Schedule scheduleGreedy(const CommGrid &G);

/// MinCost.cpp: mincost from the given seeds (any valid schedules of G;
/// those over the step limit are dropped, and stepwise's is computed when
/// none is left): makeMinCostSchedule with the seeds auto already has.
Schedule improveMinCost(const CommGrid &G, const MinCostOptions &Opts,
                        std::vector<Schedule> Seeds, MinCostReport *Report);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_SCHEDULERIMPLS_H
