//go:build unix

package hadoop

import (
	"io/fs"
	"os/user"
	"strconv"
	"sync"
	"syscall"
)

var (
	idNamesMu sync.Mutex
	userNames = map[uint32]string{}
	groupName = map[uint32]string{}
)

// localOwner returns the user and group names owning a local file.
func localOwner(fi fs.FileInfo) (string, string) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", ""
	}
	idNamesMu.Lock()
	defer idNamesMu.Unlock()
	u, ok := userNames[st.Uid]
	if !ok {
		u = strconv.FormatUint(uint64(st.Uid), 10)
		if found, err := user.LookupId(u); err == nil {
			u = found.Username
		}
		userNames[st.Uid] = u
	}
	g, ok := groupName[st.Gid]
	if !ok {
		g = strconv.FormatUint(uint64(st.Gid), 10)
		if found, err := user.LookupGroupId(g); err == nil {
			g = found.Name
		}
		groupName[st.Gid] = g
	}
	return u, g
}
