#!/usr/bin/env bash
# Runs a copy of scripts/build.sh in a scratch tree <tmp>/root whose
# install-deps.sh does nothing and whose cmake (first on PATH) only says how
# it was called: configure steps with their arguments and whether a cache was
# there, build steps. Each run of build.sh is announced by "run: <args>".
#   build-sh.sh <redist source> <tmp>
set -euo pipefail
src="$1" tmp="$2"
root="$tmp/root"
mkdir -p "$root/scripts" "$tmp/bin"
cp "$src/scripts/build.sh" "$root/scripts/"
printf '#!/usr/bin/env bash\n' >"$root/scripts/install-deps.sh"
cat >"$tmp/bin/cmake" <<'STUB'
#!/usr/bin/env bash
# The arguments after -S <dir> -B <dir>; a configure creates the cache.
if [ "$1" = --build ]; then echo "cmake: build"; exit 0; fi
[ "$1" = -S ] && [ "$3" = -B ] || { echo "cmake: unexpected $*"; exit 1; }
build="$4"
shift 4
if [ -f "$build/CMakeCache.txt" ]; then cache=kept; else cache=none; fi
echo "cmake: configure (cache $cache): $*"
mkdir -p "$build" && touch "$build/CMakeCache.txt"
STUB
chmod +x "$tmp/bin/cmake"
export PATH="$tmp/bin:$PATH"

run() {
  echo "run: REDIST_CMAKE_ARGS='${REDIST_CMAKE_ARGS:-}'"
  bash "$root/scripts/build.sh" 2>&1
}

unset REDIST_CMAKE_ARGS REDIST_BUILD_DIR
run
run
REDIST_CMAKE_ARGS="-DREDIST_WERROR=ON" run
REDIST_CMAKE_ARGS="-DREDIST_WERROR=ON" run
REDIST_CMAKE_ARGS="-DREDIST_WERROR=ON -DREDIST_SANITIZE=address" run
run
# A folder configured without build.sh (README: cmake -S . -B build).
rm "$root/build/redist-cmake-args"
echo "configured by hand"
REDIST_CMAKE_ARGS="-DREDIST_WERROR=ON" run
REDIST_CMAKE_ARGS="-DREDIST_WERROR=ON" run
