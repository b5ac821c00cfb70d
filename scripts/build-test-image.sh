#!/usr/bin/env bash
# Builds the image the docker sandbox's tests and benchmark use, without any registry: a static busybox
# (Debian's busybox-static) with its applets as symlinks, imported as a one-layer image.
#
#   scripts/build-test-image.sh [image]      (default: hookline-test/busybox)
#
# Needs a running Docker engine and /bin/busybox from busybox-static (`apt-get install -y busybox-static`).
# Quick and idempotent: does nothing when the image already exists (set HOOKLINE_REBUILD_IMAGE=1 to rebuild).
set -euo pipefail

IMAGE="${1:-hookline-test/busybox}"
BUSYBOX="${HOOKLINE_BUSYBOX:-/bin/busybox}"

if [[ "${HOOKLINE_REBUILD_IMAGE:-0}" != "1" ]] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "image $IMAGE is present"
  exit 0
fi
if ! "$BUSYBOX" --list >/dev/null 2>&1; then
  echo "no static busybox at $BUSYBOX: install it with \`apt-get install -y busybox-static\` (or set HOOKLINE_BUSYBOX)" >&2
  exit 1
fi
if ldd "$BUSYBOX" >/dev/null 2>&1; then
  echo "$BUSYBOX is dynamically linked; the image has no libc, so it needs busybox-static" >&2
  exit 1
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/workspace" "$root/proc" "$root/sys" "$root/dev"
install -m 0755 "$BUSYBOX" "$root/bin/busybox"
for applet in $("$BUSYBOX" --list); do
  [[ "$applet" == busybox ]] || ln -s busybox "$root/bin/$applet"
done
chmod 1777 "$root/tmp"
# The sandbox runs as nobody (65534:65534); naming it lets `id` and `ps` print names.
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/bin' \
  --change 'CMD ["sh"]' \
  --message 'hookline test image: static busybox' \
  - "$IMAGE" >/dev/null
echo "built image $IMAGE ($("$BUSYBOX" | head -n 1))"
