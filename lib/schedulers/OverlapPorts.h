//===- OverlapPorts.h - The processes of a grid as dense port numbers -----===//
//
// Private to the library. The overlapped schedulers see each message as a
// task that holds two ports at once: its source's send port and its target's
// receive port. Ports are numbered densely, the sources that send first, then
// the targets that receive, so that arrays cost O(messages) whatever P and Q.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_OVERLAPPORTS_H
#define REDIST_LIB_SCHEDULERS_OVERLAPPORTS_H

#include "DenseIds.h"

#include "redist/CommGrid.h"

#include <cstdint>
#include <vector>

namespace redist {
namespace detail {

struct OverlapPorts {
  int32_t Sources = 0; ///< ports 0 .. Sources - 1
  int32_t Targets = 0; ///< ports Sources .. Sources + Targets - 1
  std::vector<int32_t> SrcPort, DstPort; ///< of each message
  /// Message ids of each port.
  std::vector<std::vector<int32_t>> MessagesAt;

  explicit OverlapPorts(const CommGrid &G) {
    const int64_t M = static_cast<int64_t>(G.Messages.size());
    Sources = static_cast<int32_t>(
        denseIds(
            M, [&](int64_t I) { return G.Messages[I].Src; }, G.P, SrcPort)
            .size());
    Targets = static_cast<int32_t>(
        denseIds(
            M, [&](int64_t I) { return G.Messages[I].Dst; }, G.Q, DstPort)
            .size());
    MessagesAt.resize(static_cast<size_t>(Sources) + Targets);
    for (int32_t Id = 0; Id < M; ++Id) {
      DstPort[Id] += Sources;
      MessagesAt[SrcPort[Id]].push_back(Id);
      MessagesAt[DstPort[Id]].push_back(Id);
    }
  }
  int32_t numPorts() const { return Sources + Targets; }
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_OVERLAPPORTS_H
