// Package buildinfo holds the version the binary was built as, set by the
// Makefile through -ldflags, with the module's build information as the
// fallback for `go install` builds.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Set at link time by the Makefile.
var (
	Version  = ""
	Revision = ""
	Time     = ""
)

// Info is what `admin/build-version` and `gozie version` report.
type Info struct {
	Version   string
	Revision  string
	Time      string
	GoVersion string
}

// Get returns the binary's build information.
func Get() Info {
	i := Info{Version: Version, Revision: Revision, Time: Time, GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if i.Revision == "" {
					i.Revision = s.Value
				}
			case "vcs.time":
				if i.Time == "" {
					i.Time = s.Value
				}
			}
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	return i
}
