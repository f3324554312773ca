// Semantic errors of the rebalance directive: the items must be a writable
// std::vector (they come and go), the count an integer, the arrangement
// declared. A plain `ring` is unidirectional and valid.
//
// RUN: not redistc %s -o %t.out -- -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

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
}
