#!/usr/bin/env bash
# Installs the Debian 12 packages redist needs, running apt-get only for what
# is missing, so it is cheap to call before every build.
set -euo pipefail

# clang: the unversioned clang++ that some tests compile with (Debian 12's is
# clang 14). g++ brings the ASan and UBSan runtimes (libasan8, libubsan1)
# that REDIST_SANITIZE builds need. FFTW: the serial 1-D transforms of
# examples/fft3d.cpp, and FFTW-MPI's transpose as a peer in bench/array.
packages=(
  cmake ninja-build g++ python3
  clang clang-14 llvm-14-dev llvm-14-tools libclang-14-dev libclang-cpp14
  libclang-common-14-dev
  openmpi-bin libopenmpi-dev
  libgtest-dev libgmock-dev
  libscalapack-openmpi-dev
  libfftw3-dev libfftw3-mpi-dev
  # libredist_scalapack's tests: a Fortran program calling it, and
  # ScaLAPACK's own compiled PBLAS testers with their data files.
  gfortran scalapack-mpi-test scalapack-test-common
  pkg-config
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

# apt-get needs root: run it directly as root, through sudo otherwise. With
# neither, say exactly what to install and fail, rather than let the build
# fail later on a missing package.
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    cat >&2 <<EOF
install-deps: these Debian 12 packages are missing: ${missing[*]}
install-deps: installing them needs root, and sudo is not installed. As root
(or ask an administrator to), run:

  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}

then run this command again.
EOF
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
