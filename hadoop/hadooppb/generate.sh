#!/bin/sh
# Regenerates the Go code for gozie's Hadoop protocol messages.
#
# Needs protoc (Debian package protobuf-compiler) and the Go toolchain; the
# protoc-gen-go plugin is built at a pinned version into a temporary GOBIN.
# Run from anywhere: ./hadoop/hadooppb/generate.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
plugin_version=v1.36.12

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" GOFLAGS=-mod=mod go install "google.golang.org/protobuf/cmd/protoc-gen-go@$plugin_version"

cd "$here/proto"
find gozie -name '*.proto' | sort | xargs protoc \
	--plugin=protoc-gen-go="$bin/protoc-gen-go" \
	--proto_path=. \
	--go_out="$root" \
	--go_opt=module=github.com/gozie/gozie
