#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages bpfsweep needs to build, run and test.
# Idempotent and quick when everything is present (one dpkg-query).
# Why each one is needed: docs/dependencies.md.
# --test: also what only the tests need (make check): chromium, the real
# browser the HTML report is checked in (tests/e2e/html.sh), and a one-node
# Slurm (slurmctld, slurmd, slurm-client, munge) that tests/e2e/fleet_slurm.sh
# starts by hand for `fleet --engine slurm`.
set -eu

PKGS="make gcc pkg-config clang libbpf-dev libelf-dev zlib1g-dev bpftool
      libcsv-dev libgsl-dev libjson-c-dev gnuplot-nox fonts-dejavu-core libclang-rt-14-dev
      qemu-system-x86 debian-archive-keyring python3 man-db openssh-client openssh-server iproute2 kmod"
[ "${1:-}" = --test ] && PKGS="$PKGS chromium slurmctld slurmd slurm-client munge"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing (run 'make deps' as root)" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
