#!/usr/bin/env bash
# The repaired wheel on a Debian 12 root that has none of the project's packages: a minimal
# debootstrap root (cached as a tarball), where only python3 and python3-venv are installed;
# the wheel is installed in a venv there with no index (it needs nothing from PyPI), then
#   - the native module and dynascope-cli resolve the libraries the wheel carries (zstd,
#     simdjson, libcrypto from dynascope.libs) and nothing else outside the root's base system;
#   - `import dynascope` loads the bundled example, its findings, why and report;
#   - dynascope-cli (the wheel's script) prints the example's summary.
#
#   bash scripts/check-wheel-bare-root.sh [WHEEL]     (default: build/python/wheelhouse/*.whl)
#
# Needs root (chroot, mounts) and debootstrap (scripts/setup-deps.sh --bare-root); says
# "skipped: ..." and exits 0 where it cannot run (not root, no network to the Debian mirror).
set -uo pipefail
cd "$(dirname "$0")/.."
wheel=${1:-$(ls build/python/wheelhouse/dynascope-*.whl 2>/dev/null | head -1)}
[ -f "$wheel" ] || { echo "check-wheel-bare-root: no wheel (run scripts/run-python-tests.sh)"; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
  echo "check-wheel-bare-root: skipped: needs root for chroot"; exit 0
fi
bash scripts/setup-deps.sh --bare-root >/dev/null || { echo "check-wheel-bare-root: skipped: cannot install debootstrap"; exit 0; }
base=${DYNASCOPE_BARE_ROOT_CACHE:-build/python/debian12-minbase.tar}
if [ ! -s "$base" ]; then
  echo "check-wheel-bare-root: making a minimal Debian 12 root (debootstrap --variant=minbase)"
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
  tmp=$(mktemp -d)
  if ! debootstrap --variant=minbase bookworm "$tmp" ${mirror:+"$mirror"} >build/python/debootstrap.log 2>&1; then
    rm -rf "$tmp"
    echo "check-wheel-bare-root: skipped: debootstrap failed (no Debian mirror?): $(tail -1 build/python/debootstrap.log)"
    exit 0
  fi
  tar -C "$tmp" -cf "$base" . && rm -rf "$tmp"
fi
root=$(mktemp -d)
cleanup() {
  umount "$root/proc" 2>/dev/null
  mountpoint -q "$root/proc" || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/" 2>/dev/null
mount -t proc proc "$root/proc"
cp "$wheel" "$root/root/"
name=$(basename "$wheel")
chroot "$root" bash -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3 python3-venv' >build/python/bare-root-apt.log 2>&1 \
  || { tail -20 build/python/bare-root-apt.log; echo "check-wheel-bare-root: FAILED: could not install python3 in the root"; exit 1; }
for pkg in libzstd-dev libsimdjson14 libssl-dev qt6-base-dev nlohmann-json3-dev cmake; do
  if chroot "$root" dpkg-query -W "$pkg" >/dev/null 2>&1; then
    echo "check-wheel-bare-root: FAILED: the bare root has $pkg"; exit 1
  fi
done
chroot "$root" bash -euo pipefail -c "
cd /root
python3 -m venv v
v/bin/pip install -q --no-index $name
so=\$(ls v/lib/python3*/site-packages/dynascope/_core*.so)
cli=v/lib/python3*/site-packages/dynascope/bin/dynascope-cli
for f in \$so \$cli; do
  ldd \$f | grep -q 'not found' && { echo \"unresolved libraries in \$f:\"; ldd \$f; exit 1; }
  for lib in libzstd libsimdjson libcrypto; do
    ldd \$f | grep \"\$lib\" | grep -q dynascope.libs || { echo \"\$f takes \$lib from outside the wheel:\"; ldd \$f; exit 1; }
  done
done
v/bin/python -c '
import dynascope
t = dynascope.load(dynascope.example_path())
assert t.totals[\"compiles\"] == 6, t
assert t.findings()[0].rule == \"failure\"
assert \"32 → 64\" in t.compile(\"[3/1]\").why()
assert t.report(\"md\").startswith(\"#\")
print(\"bare root: import dynascope and load the example:\", t)
'
v/bin/dynascope-cli summary \$(v/bin/python -c 'import dynascope; print(dynascope.example_path())') | tail -1
" || { echo "check-wheel-bare-root: FAILED"; exit 1; }
echo "check-wheel-bare-root: passed ($name on a bare Debian 12 root)"
