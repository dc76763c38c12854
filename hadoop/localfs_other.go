//go:build !unix

package hadoop

import "io/fs"

// localOwner is unknown on this platform.
func localOwner(fs.FileInfo) (string, string) { return "", "" }
