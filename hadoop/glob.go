package hadoop

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// maxGlobExpansions bounds how many patterns {a,b} alternatives may
// produce, so that a hostile pattern cannot explode.
const maxGlobExpansions = 4096

// ErrBadPattern reports a malformed glob pattern.
var ErrBadPattern = errors.New("bad glob pattern")

type (
	readDirFunc func(ctx context.Context, path string) ([]FileInfo, error)
	statFunc    func(ctx context.Context, path string) (FileInfo, error)
)

// glob expands a Hadoop glob over absolute slash-separated paths, using
// readDir and stat of some filesystem.
func glob(ctx context.Context, pattern string, readDir readDirFunc, stat statFunc) ([]string, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range alts {
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("%w: %q is not absolute", ErrBadPattern, pattern)
		}
		matches, err := globOne(ctx, p, readDir, stat)
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			seen[m] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	slices.Sort(out)
	return out, nil
}

// globOne matches a brace-free pattern component by component.
func globOne(ctx context.Context, pattern string, readDir readDirFunc, stat statFunc) ([]string, error) {
	var comps []string
	for _, c := range strings.Split(pattern, "/") {
		if c != "" {
			comps = append(comps, c)
		}
	}
	current := []string{"/"}
	for i, comp := range comps {
		last := i == len(comps)-1
		var next []string
		if !hasMeta(comp) {
			name := unescape(comp)
			for _, dir := range current {
				p := path.Join(dir, name)
				if last {
					if _, err := stat(ctx, p); err != nil {
						if skippable(err) {
							continue
						}
						return nil, err
					}
				}
				next = append(next, p)
			}
		} else {
			comp = strings.ReplaceAll(comp, "[!", "[^")
			if _, err := path.Match(comp, ""); err != nil {
				return nil, fmt.Errorf("%w: %q: %v", ErrBadPattern, pattern, err)
			}
			for _, dir := range current {
				entries, err := readDir(ctx, dir)
				if err != nil {
					if skippable(err) {
						continue
					}
					return nil, err
				}
				for _, e := range entries {
					if ok, _ := path.Match(comp, e.Name); ok && (last || e.IsDir) {
						next = append(next, path.Join(dir, e.Name))
					}
				}
			}
		}
		if len(next) == 0 {
			return nil, nil
		}
		current = next
	}
	if len(comps) == 0 {
		if _, err := stat(ctx, "/"); err != nil {
			return nil, err
		}
	}
	return current, nil
}

// skippable reports errors that just mean "no match here".
func skippable(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrIsDirectory) || isNotDirErr(err)
}

// isNotDirErr recognizes "not a directory" from either filesystem.
func isNotDirErr(err error) bool {
	return err != nil && strings.Contains(err.Error(), "not a directory")
}

// hasMeta reports whether a path component needs matching.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[\\") }

// unescape removes backslash escapes from a literal component.
func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// expandBraces turns "a{b,c{d,e}}f" into [abf acdf acef]. Backslash
// escapes a brace or comma; braces inside [...] are literal.
func expandBraces(p string) ([]string, error) {
	open := -1
	depth := 0
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '{':
			if depth == 0 {
				open = i
			}
			depth++
		case c == '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("%w: unbalanced '}' in %q", ErrBadPattern, p)
			}
			if depth == 0 {
				return expandGroup(p, open, i)
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("%w: unbalanced '{' in %q", ErrBadPattern, p)
	}
	return []string{p}, nil
}

// expandGroup expands the top-level group p[open:close+1].
func expandGroup(p string, open, close int) ([]string, error) {
	prefix, body, suffix := p[:open], p[open+1:close], p[close+1:]
	var alts []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				alts = append(alts, body[start:i])
				start = i + 1
			}
		}
	}
	alts = append(alts, body[start:])
	var out []string
	for _, a := range alts {
		expanded, err := expandBraces(prefix + a + suffix)
		if err != nil {
			return nil, err
		}
		out = append(out, expanded...)
		if len(out) > maxGlobExpansions {
			return nil, fmt.Errorf("%w: %q expands to more than %d patterns", ErrBadPattern, p, maxGlobExpansions)
		}
	}
	return out, nil
}
