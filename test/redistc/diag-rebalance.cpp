// Semantic errors of the rebalance directive: the items must be a writable
// std::vector (they come and go), the count an integer, the arrangement
// declared; costs(...) and back_costs(...) numbers, one for every link or one
// per process, each positive (checked where Clang knows the values); the
// algorithm one that applies to the ring. A plain `ring` is unidirectional
// and valid, and so are the directives at the end.
//
// RUN: not redistc %s -o %t.out -- -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

#include <array>
#include <string>
#include <vector>

struct Particle {
  double X;
};

void f(long Count) {
#pragma redist processors P(4)
  std::vector<Particle> items;
  Particle fixed[8];
  const std::vector<Particle> frozen;
  double Half = 0.5;
// CHECK: diag-rebalance.cpp:[[@LINE+1]]:26: error: cannot redistribute 'fixed' of type 'Particle[8]': it cannot be resized (only a std::vector can)
#pragma redist rebalance fixed(Count) onto P
// CHECK: [[@LINE+1]]:26: error: cannot write to 'frozen' of type 'const std::vector<Particle>'
#pragma redist rebalance frozen(Count) onto P
// CHECK: [[@LINE+1]]:32: error: the item count of a rebalance directive must be an integer, not 'double'
#pragma redist rebalance items(Half) onto P
// CHECK: [[@LINE+1]]:44: error: unknown processors arrangement 'R'
#pragma redist rebalance items(Count) onto R
#pragma redist rebalance items(Count) onto P ring
  constexpr double Three[3] = {1, 2, 3};
  constexpr std::array<double, 4> Unequal{1, 2, 1, 1};
  constexpr std::array<int, 4> Negative{1, 2, -1, 1};
  const std::vector<std::string> Names;
  std::vector<double> Measured;
// CHECK: [[@LINE+1]]:52: error: costs must be a number, or an array, std::array or std::vector of numbers, not 'const char[5]'
#pragma redist rebalance items(Count) onto P costs("fast")
// CHECK: [[@LINE+1]]:86: error: back_costs must be a number, or an array, std::array or std::vector of numbers, not 'const std::vector<std::string>'
#pragma redist rebalance items(Count) onto P ring(bidirectional) costs(1) back_costs(Names)
// CHECK: [[@LINE+1]]:52: error: costs has 3 entries but arrangement 'P' has 4 processes; give one cost for every link or one per process
#pragma redist rebalance items(Count) onto P costs({1, 2, 3})
// CHECK: [[@LINE+1]]:52: error: costs has 3 entries but arrangement 'P' has 4 processes; give one cost for every link or one per process
#pragma redist rebalance items(Count) onto P costs(Three)
// CHECK: [[@LINE+1]]:52: error: costs has no entries; give one cost for every link or one per process
#pragma redist rebalance items(Count) onto P costs({})
// CHECK: [[@LINE+1]]:56: error: costs[1] must be a positive finite number of seconds per item, got 0
#pragma redist rebalance items(Count) onto P costs({1, 0, 1, 1})
// CHECK: [[@LINE+1]]:52: error: costs must be a positive finite number of seconds per item, got -1.5
#pragma redist rebalance items(Count) onto P costs(-1.5)
// CHECK: [[@LINE+1]]:86: error: back_costs[2] must be a positive finite number of seconds per item, got -1
#pragma redist rebalance items(Count) onto P ring(bidirectional) costs(1) back_costs(Negative)
// CHECK: [[@LINE+1]]:55: error: back_costs needs ring(bidirectional): a unidirectional ring sends forward only
#pragma redist rebalance items(Count) onto P costs(1) back_costs(2)
// CHECK: [[@LINE+1]]:66: error: back_costs needs costs(...) too: the forward links cannot be measured while the backward ones are given
#pragma redist rebalance items(Count) onto P ring(bidirectional) back_costs(2)
// CHECK: [[@LINE+1]]:55: error: schedule(bi_homogeneous) does not apply to this ring: bi-homogeneous needs a bidirectional ring
#pragma redist rebalance items(Count) onto P schedule(bi_homogeneous)
// CHECK: [[@LINE+1]]:55: error: schedule(uni_homogeneous) does not apply to this ring: uni-homogeneous needs equal forward link costs
#pragma redist rebalance items(Count) onto P schedule(uni_homogeneous) costs(Unequal)
// CHECK: [[@LINE+1]]:75: error: schedule(bi_homogeneous) does not apply to this ring: bi-homogeneous needs equal link costs
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(bi_homogeneous) costs(2) back_costs({1, 1, 1, 3})
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(bi_homogeneous) costs(2)
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(bi_heterogeneous) costs(Unequal) back_costs(Measured)
#pragma redist rebalance items(Count) onto P schedule(uni_homogeneous) costs(Measured)
#pragma redist rebalance items(Count) onto P costs({1, 2, 0.5, Half})
}
