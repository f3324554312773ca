//===- RoundOrder.cpp - The order of a benchmark round's methods ----------===//

#include "RoundOrder.h"

#include <algorithm>

namespace redist {
namespace bench {

std::size_t roundOrderPeriod(std::size_t Methods) {
  return Methods % 2 ? 2 * Methods : Methods;
}

std::vector<std::size_t> roundOrder(std::size_t Methods, std::size_t Round) {
  std::vector<std::size_t> Order(Methods);
  if (Methods == 0)
    return Order;
  // The first row zigzags, 0, 1, n-1, 2, n-2, ...: for n even the
  // differences between neighbours are all distinct mod n, so the n rows
  // shifted by the round put every method right after every other once.
  // For n odd they are not; the same rows reversed, in the second half of
  // the period, make up for it.
  const std::size_t Shift = Round % Methods;
  for (std::size_t J = 0; J < Methods; ++J) {
    const std::size_t Zigzag =
        J % 2 ? (J + 1) / 2 : (Methods - J / 2) % Methods;
    Order[J] = (Zigzag + Shift) % Methods;
  }
  if (Methods % 2 && Round % roundOrderPeriod(Methods) >= Methods)
    std::reverse(Order.begin(), Order.end());
  return Order;
}

} // namespace bench
} // namespace redist
