#!/bin/sh
# pblas-tester.sh TYPE ALPHA BETA LIBRARY MPIRUN...
#
# Runs ScaLAPACK's level-3 PBLAS tester for TYPE (s, d, c or z), unchanged,
# on 4 processes with libredist_scalapack (LIBRARY) preloaded, in the
# current folder, with a data file made from the tester's own: its values
# of ALPHA and BETA replaced (- keeps the tester's), and its process grids
# those of at most 4 processes (2x2, 1x2, 2x1, 1x4, 4x1). Every routine
# stays on: with only GEADD and TRADD, even ScaLAPACK fails the tester's
# check. REDIST_SCALAPACK_TRACE=count makes
# each process print, at exit, how often the drop-in's routines ran.
set -eu
type=$1 alpha=$2 beta=$3 library=$4
shift 4
dir=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/PBLAS
upper=$(echo "$type" | tr sdcz SDCZ)
[ "$alpha" = - ] && alpha='&' || alpha="$alpha\\1"
[ "$beta" = - ] && beta='&' || beta="$beta\\1"
sed -e "s/^.*[)0-9]\([ \t]*value of ALPHA\)/$alpha/" \
    -e "s/^.*[)0-9]\([ \t]*value of BETA\)/$beta/" \
    -e "s/^[0-9]*\([ \t]*number of process grids\)/5\1/" \
    -e "s/^[0-9 ]*\([ \t]*values of P\)$/2 1 2 1 4\1/" \
    -e "s/^[0-9 ]*\([ \t]*values of Q\)$/2 2 1 4 1\1/" \
    "$dir/P${upper}BLAS3TST.dat" > "P${upper}BLAS3TST.dat"
# A sanitized library (REDIST_SANITIZE) needs its sanitizer runtimes loaded
# first in the unsanitized tester: they are preloaded ahead of it.
runtimes=$(ldd "$library" | awk '/lib(asan|ubsan)\.so/ { printf "%s:", $3 }')
exec "$@" -np 4 -x LD_PRELOAD="$runtimes$library" -x REDIST_SCALAPACK_TRACE=count \
  "$dir/${type}pb3tst"
