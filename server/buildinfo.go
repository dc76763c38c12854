package server

import "github.com/gozie/gozie/buildinfo"

// BuildInfo describes the running build for admin/build-version.
type BuildInfo struct {
	// Version is the release, e.g. "1.2.0".
	Version string
	// User is who built the binary.
	User string
	// Time is when it was built.
	Time string
	// Revision is the version-control revision.
	Revision string
	// URL is the version-control URL.
	URL string
}

// BuildInfoFromBinary reports the build the binary was linked as (package buildinfo): the
// version (or "dev"), the revision and build time.
func BuildInfoFromBinary() BuildInfo {
	b := buildinfo.Get()
	return BuildInfo{Version: b.Version, Revision: b.Revision, Time: b.Time, URL: "github.com/gozie/gozie"}
}

// buildVersionJSON is the admin/build-version body.
type buildVersionJSON struct {
	BuildVersion string            `json:"buildVersion"`
	BuildInfo    map[string]string `json:"buildInfo"`
}

// json returns the admin/build-version body with Oozie's key names.
func (b BuildInfo) json() buildVersionJSON {
	return buildVersionJSON{
		BuildVersion: b.Version,
		BuildInfo: map[string]string{
			"build.version": b.Version,
			"build.user":    b.User,
			"build.time":    b.Time,
			"vc.revision":   b.Revision,
			"vc.url":        b.URL,
		},
	}
}
