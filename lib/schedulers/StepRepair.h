//===- StepRepair.h - Bringing a schedule down to the maximum degree ------===//
//
// Private to the library. classes and walker_otto place each message by a
// closed form that is step-optimal on whole slices. Below one slice (N < L)
// most of a slice's messages are missing and the survivors stay spread over
// the whole slice's steps, far more than the partial grid's maximum degree
// (13 processes CYCLIC -> 19 CYCLIC(2) over 39 elements: 19 steps for a
// bound of 3). repairSteps reschedules them in exactly that many steps by
// alternating-path recolouring (König's edge colouring of a bipartite
// graph).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_STEPREPAIR_H
#define REDIST_LIB_SCHEDULERS_STEPREPAIR_H

#include "redist/CommGrid.h"
#include "redist/Schedule.h"

namespace redist {
namespace detail {

/// When valid schedule S of G has more steps than G's maximum degree,
/// reschedules G in exactly that many steps (none empty) and says so in
/// S.Note: messages go longest first to the step whose cost they raise
/// least, after swapping two steps along an alternating path if no step is
/// free at both ends. O(messages * (degree + path length * degree)).
void repairSteps(const CommGrid &G, Schedule &S);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_STEPREPAIR_H
