//===- DeepStack.cpp - Running deep recursion on a stack of its own -------===//

#include "DeepStack.h"

#include <exception>
#include <pthread.h>

namespace redist {
namespace detail {

namespace {

struct Call {
  const std::function<void()> *Body;
  std::exception_ptr Error;
};

void *runCall(void *Arg) {
  Call &C = *static_cast<Call *>(Arg);
  try {
    (*C.Body)();
  } catch (...) {
    C.Error = std::current_exception();
  }
  return nullptr;
}

} // namespace

void runOnDeepStack(std::size_t StackBytes, const std::function<void()> &Body) {
  Call C{&Body, nullptr};
  pthread_attr_t Attr;
  bool Started = false;
  pthread_t Thread;
  // The stack is reserved address space; only the pages used are touched.
  if (pthread_attr_init(&Attr) == 0) {
    Started = pthread_attr_setstacksize(&Attr, StackBytes) == 0 &&
              pthread_create(&Thread, &Attr, runCall, &C) == 0;
    pthread_attr_destroy(&Attr);
  }
  if (!Started) {
    Body();
    return;
  }
  pthread_join(Thread, nullptr);
  if (C.Error)
    std::rethrow_exception(C.Error);
}

} // namespace detail
} // namespace redist
