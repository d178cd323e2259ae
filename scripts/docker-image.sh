#!/usr/bin/env bash
# Builds the base image of the Docker isolation backend from a Debian bookworm
# rootfs made by debootstrap (no image registry is needed or reachable) and
# brings it in with `docker import`. Skipped when the image already exists.
#
# The image holds what a repository task's sides need to run and build:
# python3 for Python references, gcc/make and libc headers for compiled
# candidates. Override the tag with FM_DOCKER_IMAGE.
set -euo pipefail
cd "$(dirname "$0")/.."

image=${FM_DOCKER_IMAGE:-frontier-measure/base:bookworm-1}
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "docker-image: $image exists"
  exit 0
fi

mirror=${FM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d /tmp/fm-rootfs.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "docker-image: debootstrap bookworm into $work (log: /tmp/frontier-measure-debootstrap.log)"
debootstrap --variant=minbase --include=python3,gcc,libc6-dev,make \
  bookworm "$work/rootfs" "$mirror" >/tmp/frontier-measure-debootstrap.log 2>&1 || {
  tail -n 30 /tmp/frontier-measure-debootstrap.log >&2
  exit 1
}
# Keep the image small: package caches and docs are not needed at run time.
rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"* \
  "$work/rootfs/usr/share/doc" "$work/rootfs/usr/share/man" "$work/rootfs/usr/share/locale"
tar -C "$work/rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/sh"]' \
  - "$image" >/dev/null
echo "docker-image: built $image"
