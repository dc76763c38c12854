package hadoop

import (
	"errors"
	"strings"
)

// ErrEmptyPath is Hadoop's refusal of an empty path string (Path's
// checkPathArg: "Can not create a Path from an empty string").
var ErrEmptyPath = errors.New("can not create a Path from an empty string")

// Path is a path as Hadoop's org.apache.hadoop.fs.Path reads it: an
// optional scheme (kept as written), an optional authority (after "//") and
// the path, normalized. It is the one reading of the paths users name in
// their apps (job-xml, file, archive, the fs: EL functions), so that
// "./conf.xml", "a//b/" and "x/../y" reach the NameNode as Hadoop's client
// would send them: HDFS refuses "." and ".." components.
type Path struct {
	Scheme string
	// HasAuthority reports a "//" part, Authority the text after it (empty
	// in "hdfs:///p", which names the default NameNode).
	HasAuthority bool
	Authority    string
	// Path is normalized: no empty, "." or removable ".." components, no
	// trailing slash (but "/" itself).
	Path string
}

// ParsePath reads s as Hadoop's Path(String) does: a scheme is the text
// before the first ':' that comes before any '/' (when it is a valid
// scheme), an authority follows "//", and the rest is the path, with
// repeated slashes and a trailing one removed and dot segments resolved as
// java.net.URI.normalize does. Query and fragment are not special. An empty
// s is ErrEmptyPath.
func ParsePath(s string) (Path, error) {
	if s == "" {
		return Path{}, ErrEmptyPath
	}
	var p Path
	if i := strings.IndexByte(s, ':'); i > 0 && !strings.Contains(s[:i], "/") && ValidScheme(s[:i]) {
		p.Scheme, s = s[:i], s[i+1:]
	}
	if rest, ok := strings.CutPrefix(s, "//"); ok && rest != "" {
		p.HasAuthority = true
		p.Authority, s = rest, ""
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			p.Authority, s = rest[:j], rest[j:]
		}
	}
	p.Path = normalizePath(s)
	return p, nil
}

// normalizePath drops empty and "." components and folds "x/.." as
// java.net.URI.normalize does; a ".." that climbs above the start stays (an
// absolute "/../x" then fails at the NameNode, as it does in Hadoop).
func normalizePath(s string) string {
	abs := strings.HasPrefix(s, "/")
	var out []string
	for _, c := range strings.Split(s, "/") {
		switch c {
		case "", ".":
		case "..":
			if n := len(out); n > 0 && out[n-1] != ".." {
				out = out[:n-1]
			} else {
				out = append(out, c)
			}
		default:
			out = append(out, c)
		}
	}
	joined := strings.Join(out, "/")
	if abs {
		return "/" + joined
	}
	return joined
}

// IsAbsolute reports whether the path part starts at the root (Hadoop's
// isUriPathAbsolute), with or without a scheme.
func (p Path) IsAbsolute() bool { return strings.HasPrefix(p.Path, "/") }

// Resolve is Hadoop's Path(parent, child): child resolved against p as a
// directory, as java.net.URI.resolve does. A child with a scheme is itself;
// one with an authority keeps p's scheme; an absolute child goes on p's
// scheme and authority; a relative one goes below p's path.
func (p Path) Resolve(child Path) Path {
	switch {
	case child.Scheme != "":
		return child
	case child.HasAuthority:
		child.Scheme = p.Scheme
		return child
	case child.IsAbsolute():
		p.Path = child.Path
		return p
	case child.Path == "":
		return p
	}
	p.Path = normalizePath(p.Path + "/" + child.Path)
	return p
}

// String renders the path as it was written, normalized: the scheme, "//"
// and the authority when there was one, and the path.
func (p Path) String() string {
	var b strings.Builder
	if p.Scheme != "" {
		b.WriteString(p.Scheme + ":")
	}
	if p.HasAuthority {
		b.WriteString("//" + p.Authority)
	}
	b.WriteString(p.Path)
	return b.String()
}
