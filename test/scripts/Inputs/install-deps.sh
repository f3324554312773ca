#!/usr/bin/env bash
# Runs scripts/install-deps.sh with stand-ins on a PATH of their own: a
# dpkg-query that reports the packages in $MISSING as not installed, an id
# that reports the uid in $FAKE_UID, an apt-get and a sudo that say how they
# were called, and nothing else but grep and cat. Each case prints its name,
# what the script wrote (stderr too) and its exit status.
#   install-deps.sh <redist source> <tmp>
set -euo pipefail
src="$1" tmp="$2"
bin="$tmp/bin" nosudo="$tmp/bin-nosudo"
mkdir -p "$bin" "$nosudo"
cat >"$bin/dpkg-query" <<'STUB'
#!/bin/bash
pkg="${!#}"
for m in $MISSING; do [ "$m" = "$pkg" ] && exit 1; done
printf 'install ok installed'
STUB
printf '#!/bin/bash\necho "$FAKE_UID"\n' >"$bin/id"
printf '#!/bin/bash\necho "apt-get $*"\n' >"$bin/apt-get"
printf '#!/bin/bash\necho "sudo:"; "$@"\n' >"$bin/sudo"
chmod +x "$bin"/*
for tool in grep cat; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
for tool in dpkg-query id apt-get grep cat; do
  ln -s "$bin/$tool" "$nosudo/$tool"
done

case_() {
  local name="$1" path="$2"
  echo "case: $name"
  local status=0
  env -i PATH="$path" MISSING="$MISSING" FAKE_UID="$FAKE_UID" \
    /bin/bash "$src/scripts/install-deps.sh" 2>&1 || status=$?
  echo "exit: $status"
}

MISSING="" FAKE_UID=0 case_ "nothing missing" "$nosudo"
MISSING="libclang-14-dev clang" FAKE_UID=0 case_ "root" "$nosudo"
MISSING="libclang-14-dev clang" FAKE_UID=1000 case_ "user with sudo" "$bin"
MISSING="libclang-14-dev clang" FAKE_UID=1000 case_ "user without sudo" "$nosudo"
