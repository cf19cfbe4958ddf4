#!/bin/sh
# `npm start` (package.json runs it with `exec`): build what is missing or out of date, then replace this shell with
# the server. No wrapper stays behind: npm's own child is the server, so the SIGTERM or SIGINT that npm forwards (a
# service manager's stop, Ctrl-C) reaches it and it stops gracefully (docs/deployment.md, "Stopping").
set -e
cd "$(dirname "$0")/.."
# npm names the node it runs on; started some other way, the one on PATH.
node="${npm_node_execpath:-node}"
"$node" scripts/build-if-changed.mjs
# glibc's allocator (ignored elsewhere): the compressors of kept pages run on libuv's threads, and glibc gives each
# thread an arena of its own (up to 8 per core) that keeps what they freed, and raises its mmap threshold after every
# large free, so that later large buffers come from those arenas too. Two arenas, and buffers of 128 kB or more
# always mapped and given back when freed: 235 MB instead of 393 MB under a load of thread pages (docs/performance.md,
# "Memory"), for an mmap and munmap per large buffer. Either variable set beforehand is kept.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
# A young generation of at most 8 MB per semi-space (V8's default is 16): the idle process stays near 140 MB instead
# of 155 (docs/performance.md, "Memory"); a page's garbage is short-lived, so scavenges stay cheap. NODE_OPTIONS may
# set another value.
case "${NODE_OPTIONS:-}" in
  *max-semi-space-size*) set -- ;;
  *) set -- --max-semi-space-size=8 ;;
esac
# The old generation allowed to grow to twice what survived its last full collection before the next one: V8
# otherwise lets it reach about four times that when collections are cheap, as they are here (about 70 MB survive,
# 6-9 ms a collection), and under load the process held 250 MB of heap, most of it garbage waiting, for a peak RSS
# of 368 MB; with twice, 241 MB for as many pages per second (docs/performance.md, "sixth part"). NODE_OPTIONS cannot
# carry this flag; the cluster's workers inherit it.
exec "$node" "$@" --heap-growing-percent=100 packages/server/dist/main.js
