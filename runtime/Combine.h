//===- Combine.h - Combining unpacks: t = beta * t + alpha * op(s) --------===//
//
// Private to the runtime. MatrixPlan::execute(Src, Dst, Combine) makes its
// combination the active one for the duration of the call (CombineScope);
// runCopyProgram then hands every program that writes the target to
// runCombineProgram instead of copying. The executor is unchanged: whatever
// path a message takes (MPI, shared memory, rounds, the local copy), its
// elements are written to the target once, by such a program. A single
// copy's read (SingleCopy.h), which the kernel would write to the target
// itself, goes through a bounce buffer and such a program instead.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_COMBINE_H
#define REDIST_RUNTIME_COMBINE_H

#include "CopyProgram.h"
#include "redist/runtime/MatrixPlan.h"

namespace redist {
namespace detail {

/// The combination of the execute() running on this thread, or null.
const Combine *activeCombine();

/// Whether C writes t = s (alpha 1, beta 0, no conjugation), which a plain
/// copy does bit for bit, without reading t.
bool isPlainCopy(const Combine &C);

/// Makes C the active combination until destroyed, unless it is a plain
/// copy: then copying programs and single copies run as in any execute().
class CombineScope {
public:
  explicit CombineScope(const Combine &C);
  ~CombineScope();
  CombineScope(const CombineScope &) = delete;
  CombineScope &operator=(const CombineScope &) = delete;

private:
  const Combine *Saved;
};

/// The bytes of one element of type T.
std::size_t elementBytesOf(ElementType T);

/// P's elements from From combined into To as C says.
void runCombineProgram(const CopyProgram &P, const char *From, char *To,
                       const Combine &C);

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_COMBINE_H
