// Package gozie carries the repository's example apps into the binary:
// Apps holds gozie's own Oozie-style apps (testdata/apps, which the tests
// run) and the README's nightly pipeline (examples/nightly-hive), as they
// are in the repository, so that `gozie examples install` (package
// examples) installs exactly what the tests prove. It sits at the
// module's root because go:embed reaches only files below the embedding
// package.
package gozie

import "embed"

// Apps is testdata/apps/<app>/... and examples/nightly-hive/....
//
//go:embed testdata/apps examples/nightly-hive
var Apps embed.FS
