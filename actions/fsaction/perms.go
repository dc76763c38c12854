package fsaction

import (
	"io/fs"
	"strconv"
)

// parsePermissions reads a chmod mask as Oozie does: three octal digits
// ("755") or Unix's ten-character symbolic form ("-rwxr-x--x", the first
// character being the file type, 't' or 'T' in the last place the sticky
// bit). Anything else is FS010. Oozie turns bad digits into a
// NumberFormatException; here every malformed mask is FS010.
func parsePermissions(s string) (fs.FileMode, bool) {
	switch len(s) {
	case 3:
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil {
			return 0, false
		}
		return fs.FileMode(n), true
	case 10:
		var m fs.FileMode
		const flags = "rwxrwxrwx"
		for i := 0; i < 9; i++ {
			c := s[1+i]
			bit := fs.FileMode(1) << (8 - i)
			switch {
			case c == flags[i]:
				m |= bit
			case c == '-':
			case i == 8 && c == 't':
				m |= bit | fs.ModeSticky
			case i == 8 && c == 'T':
				m |= fs.ModeSticky
			default:
				return 0, false
			}
		}
		return m, true
	}
	return 0, false
}
