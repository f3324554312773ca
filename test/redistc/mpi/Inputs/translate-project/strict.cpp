// translate-project's strict target: C++20 without GNU extensions.
#include <mpi.h>

#include <vector>

#if !defined(__STRICT_ANSI__)
#error "redistc must parse strict.cpp without GNU extensions (c++20)"
#endif

struct Shape {
  int Procs;
  long Extent;
};

// consteval and designated initializers: C++20.
consteval Shape shape() { return Shape{.Procs = 2, .Extent = 10}; }

void strictPhase(std::vector<double> &x) {
#pragma redist processors P(shape().Procs)
#pragma redist distribute x[shape().Extent](block) onto P
#pragma redist redistribute x(cyclic)
}
