#!/usr/bin/env bash
# Builds the .deb, removes every build dependency again, and installs the .deb with apt-get, so
# apt must resolve the package's own Depends (from dpkg-shlibdeps); then runs what it installed.
# Meant for a throwaway Debian 12 root, as root, e.g.
#   bash /work/shared/tools/fresh-machine-check "bash packaging/deb-install-check.sh"
# It purges packages: do not run it on a machine you develop on.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-deps.sh
cmake --preset release -DDYNASCOPE_BUILD_TESTS=OFF
cmake --build --preset release
(cd build-release && cpack -G DEB && cpack -G TGZ)
deb=$(ls build-release/dynascope_*.deb)
cp "$deb" /tmp/
echo "== $(basename "$deb"):"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
dpkg-deb --contents "$deb" | awk '{print $6}'
tar -tzf build-release/dynascope-*.tar.gz | sed -n 1,5p  # sed, not head: no SIGPIPE under pipefail

echo "== removing the build dependencies"
export DEBIAN_FRONTEND=noninteractive
build_deps=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-svg-dev libgl-dev libsimdjson-dev
  nlohmann-json3-dev libzstd-dev zlib1g-dev libssl-dev dpkg-dev)
apt-get purge -y -q --auto-remove "${build_deps[@]}" >/dev/null
if dpkg-query -W -f='${Status}\n' libqt6widgets6 2>/dev/null | grep -q "install ok installed"; then
  echo "libqt6widgets6 is still installed: the check would not show that apt resolves it" >&2
  exit 1
fi

echo "== apt-get install /tmp/$(basename "$deb")"
apt-get install -y -q "/tmp/$(basename "$deb")" 2>&1 | grep -E "^(The following NEW|Setting up dynascope|E:)" || true
dpkg-query -W -f='${Package} ${Version} ${Status}\n' dynascope

echo "== running the installed programs"
command -v dynascope dynascope-cli
dynascope-cli --version
# No display here: dynascope creates its QApplication before it parses --version (app/gui/main.cpp),
# so even --version needs a platform plugin.
QT_QPA_PLATFORM=offscreen dynascope --version
dynascope-cli summary /usr/share/dynascope/examples/example.log | sed -n 1,3p
QT_QPA_PLATFORM=offscreen dynascope --example --screenshot /tmp/shot.png --size 800x600
ls -l /tmp/shot.png
ls /usr/share/applications/dynascope.desktop /usr/share/metainfo/*.metainfo.xml \
  /usr/share/mime/packages/dynascope.xml /usr/share/icons/hicolor/*/apps/dynascope.* \
  /usr/share/man/man1/dynascope*.1.gz
# The SVG icon engine (libqt6svg6, a Depends that shlibdeps cannot compute) came along.
ls /usr/lib/*/qt6/plugins/iconengines/libqsvgicon.so
# The dpkg triggers of shared-mime-info compiled our types into the system database.
grep dedicated_log_torch_trace /usr/share/mime/globs2
echo "== the package's dependencies, as apt resolved them"
dpkg-query -W -f='Depends: ${Depends}\nRecommends: ${Recommends}\n' dynascope | fold -s -w 100
echo "deb-install-check: OK"
