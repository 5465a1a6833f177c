#!/usr/bin/env bash
# Installs every Debian/Ubuntu package Dynascope needs to build, test and run, when missing.
# Uses sudo when not root. Safe to run again: it installs only what is absent.
#   --fuzz     also clang with libFuzzer and its sanitizer runtimes (the `fuzz` preset)
#   --pytorch  also what scripts/run-pytorch-suite.sh needs: python3 with venv, and the Python
#              headers and g++ that Inductor compiles its C++ kernels with
#   --python   also what the Python package needs (scripts/run-python-tests.sh): python3 with
#              venv and its headers; the rest (scikit-build-core, nanobind, pytest, ...) comes
#              from PyPI into virtual environments
#   --bare-root  also debootstrap, for the check of the wheel on a bare Debian 12 root
#   --libtorch also Debian's libtorch-dev, for the guard lab's tensor model where no torch wheel
#              is on this machine (scripts/libtorch.sh --setup decides; about 150 packages)
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config git
  qt6-base-dev qt6-svg-dev libgl-dev
  libsimdjson-dev nlohmann-json3-dev libzstd-dev zlib1g-dev libssl-dev
  xvfb xauth fonts-dejavu-core clang-format zstd gzip
  # packaging: validators used by tests/packaging, man page rendering, CPack's .deb (shlibdeps)
  desktop-file-utils appstream libxml2-utils shared-mime-info groff-base dpkg-dev file
  # the AT-SPI tree test (tests/ui/atspi_tree.py): the accessibility bus, a private D-Bus
  # session (dbus-run-session), and pyatspi over GObject introspection for the system python3.
  # Qt's AT-SPI bridge is built into libQt6Gui (which depends on libqt6dbus6): no Qt plugin.
  at-spi2-core dbus python3 python3-gi gir1.2-atspi-2.0 python3-pyatspi
)
# g++'s ASan/UBSan runtimes (preset asan) come with g++.
for arg in "$@"; do
  case "$arg" in
    --fuzz) packages+=(clang libclang-rt-dev) ;;
    --pytorch | --python) packages+=(python3 python3-venv python3-dev) ;;
    --bare-root) packages+=(debootstrap) ;;
    --libtorch) packages+=(libtorch-dev) ;;
    *) echo "setup: unknown option $arg" >&2; exit 1 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
