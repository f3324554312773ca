//===- Blacs.h - The ScaLAPACK and BLACS C calls redist makes ---*- C++ -*-===//
//
// ScaLAPACK ships no C header for its BLACS or for descinit_; these are
// their prototypes as ScaLAPACK's BLACS and TOOLS sources define them, for
// libredist_scalapack, the benchmarks that run pdgemr2d beside it and the
// test of its errors. (test/scalapack's compatibility program declares its
// own: it stands for an unchanged user program.)
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_SCALAPACK_BLACS_H
#define REDIST_RUNTIME_SCALAPACK_BLACS_H

#include <mpi.h>

extern "C" {
void Cblacs_pinfo(int *Me, int *Procs);
void Cblacs_get(int Context, int What, int *Value);
void Cblacs_gridinit(int *Context, const char *Order, int NpRow, int NpCol);
void Cblacs_gridmap(int *Context, int *UserMap, int LdUMap, int NpRow,
                    int NpCol);
void Cblacs_gridexit(int Context);
void Cblacs_gridinfo(int Context, int *NpRow, int *NpCol, int *MyRow,
                     int *MyCol);
int Cblacs_pnum(int Context, int Row, int Col);
MPI_Comm Cblacs2sys_handle(int SystemContext);
void descinit_(int *Desc, const int *M, const int *N, const int *MB,
               const int *NB, const int *RowSrc, const int *ColSrc,
               const int *Context, const int *LeadingDim, int *Info);
int numroc_(const int *N, const int *NB, const int *IProc, const int *ISrc,
            const int *NProcs);
}

#endif // REDIST_RUNTIME_SCALAPACK_BLACS_H
