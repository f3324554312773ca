#!/usr/bin/env bash
# Installs the Debian 12 packages redist needs, running apt-get only for what
# is missing, so it is cheap to call before every build.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  clang-14 llvm-14-dev llvm-14-tools libclang-14-dev libclang-cpp14
  libclang-common-14-dev
  openmpi-bin libopenmpi-dev
  libgtest-dev libgmock-dev
  libscalapack-openmpi-dev
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

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
