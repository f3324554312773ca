//===- ScalapackPeer.cpp - ScaLAPACK's pdgemr2d ---------------------------===//
//
// The vector as an N x 1 matrix: CYCLIC(r) over P processes is a P x 1 BLACS
// grid with r x 1 blocks, CYCLIC(s) over Q a Q x 1 grid with s x 1 blocks.
// Both grids take the first ranks of MPI_COMM_WORLD in row order, as redist
// does; pdgemr2d runs over a 1 x Ranks grid holding every rank. Processes
// outside a grid pass a descriptor whose context is -1, as ScaLAPACK's
// redistribution routines expect.
//
//===----------------------------------------------------------------------===//

#include "Method.h"

#include "Blacs.h"
#include "redist/scalapack.h"

#include <algorithm>
#include <stdexcept>

namespace redist {
namespace bench {
namespace {

// Positions in a ScaLAPACK array descriptor.
enum DescField {
  DescType,
  DescContext,
  DescM,
  DescN,
  DescMB,
  DescNB,
  DescRowSrc,
  DescColSrc,
  DescLLD,
  DescSize
};

class ScalapackPeer : public Method {
public:
  explicit ScalapackPeer(const Problem &Pb)
      : Rows(static_cast<int>(Pb.From.N)) {
    int System;
    Cblacs_get(-1, 0, &System);
    SourceGrid = gridOf(System, static_cast<int>(Pb.From.Procs));
    TargetGrid = gridOf(System, static_cast<int>(Pb.To.Procs));
    WholeGrid = System;
    Cblacs_gridinit(&WholeGrid, "R", 1, Pb.Ranks);
    describe(SourceDesc, Pb.From, SourceGrid, Pb.Rank);
    describe(TargetDesc, Pb.To, TargetGrid, Pb.Rank);
  }

  ~ScalapackPeer() override {
    for (int Grid : {SourceGrid, TargetGrid, WholeGrid})
      if (Grid >= 0)
        Cblacs_gridexit(Grid);
  }

  std::string algorithm() const override { return "pdgemr2d"; }

  void run(const double *Src, double *Dst) override {
    // pdgemr2d reads A only, but its C interface takes a non-const pointer.
    Cpdgemr2d(Rows, 1, const_cast<double *>(Src), 1, 1, SourceDesc, Dst, 1, 1,
              TargetDesc, WholeGrid);
  }

private:
  // A Procs x 1 grid on the first Procs ranks; -1 on the other ranks.
  static int gridOf(int System, int Procs) {
    int Grid = System;
    Cblacs_gridinit(&Grid, "R", Procs, 1);
    return Grid;
  }

  void describe(int *Desc, const IndexMap &Layout, int Grid, int Rank) {
    int Cols = 1, BlockRows = static_cast<int>(Layout.Block), BlockCols = 1,
        Zero = 0;
    if (Grid < 0) {
      // Not in this grid: only the context (-1) and the shape are read.
      const int Outside[DescSize] = {1,         -1, Rows, Cols, BlockRows,
                                     BlockCols, 0,  0,    1};
      std::copy_n(Outside, DescSize, Desc);
      return;
    }
    int Local = static_cast<int>(std::max<int64_t>(1, Layout.localSize(Rank)));
    int Info = 0;
    descinit_(Desc, &Rows, &Cols, &BlockRows, &BlockCols, &Zero, &Zero, &Grid,
              &Local, &Info);
    if (Info != 0)
      throw std::runtime_error("descinit rejected argument " +
                               std::to_string(-Info));
  }

  int Rows;
  int SourceGrid = -1, TargetGrid = -1, WholeGrid = -1;
  int SourceDesc[DescSize] = {};
  int TargetDesc[DescSize] = {};
};

} // namespace

std::unique_ptr<Method> makeScalapackPeer(const Problem &Pb) {
  return std::make_unique<ScalapackPeer>(Pb);
}

} // namespace bench
} // namespace redist
