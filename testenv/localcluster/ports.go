package localcluster

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/internal/portpick"
)

// PortsFile, below Options.Dir, records the addresses the cluster listened
// on, so that the next start on the same directory takes them again: a
// restarted cluster is the same cluster to the jobs and servers that know
// it.
const PortsFile = "ports.properties"

// The ports of a cluster, in the order Options.BasePort assigns them. With
// HA, the second NameNode and ResourceManager take the "2" entries; a
// cluster without HA leaves them unused.
var portNames = [...]string{
	"namenode.nn1", "namenode.nn2", "datanode",
	"resourcemanager.webapp.rm1", "resourcemanager.webapp.rm2",
	"resourcemanager.scheduler.rm1", "resourcemanager.scheduler.rm2",
	"nodemanager.webapp", "hiveserver2", "admin", "kdc", "metastore",
	"jobhistory.webapp", "ssh",
	"namenode.http.nn1", "namenode.http.nn2", "datanode.http",
}

// PortCount is how many ports Options.BasePort pins.
const PortCount = len(portNames)

// ports maps a port name to the host:port to listen on; a missing name
// means a free port chosen at start.
type ports map[string]string

// planPorts decides the listen addresses of a start: every port from base
// on when base is set, else the ones recorded in dir's ports file (none on
// a first start: the servers choose).
func planPorts(dir string, base int) (ports, error) {
	p := ports{}
	if base != 0 {
		if base < 1024 || base+len(portNames) > 65536 {
			return nil, fmt.Errorf("base port %d: the cluster needs ports %d to %d, within 1024–65535", base, base, base+len(portNames)-1)
		}
		for i, name := range portNames {
			p[name] = net.JoinHostPort("127.0.0.1", strconv.Itoa(base+i))
		}
		return p, nil
	}
	path := filepath.Join(dir, PortsFile)
	f, err := os.Open(path)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		return nil, err
	default:
		defer f.Close()
		props, err := conf.ReadProperties(f, path)
		if err != nil {
			return nil, err
		}
		for _, name := range portNames {
			if v, ok := props.Get(name); ok && v != "" {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return nil, fmt.Errorf("%s: %s: %w", path, name, err)
				}
				p[name] = v
			}
		}
	}
	// The others are left to each server to choose when it binds: picking
	// them all here would leave each free, for any other process to take,
	// until its server starts. Each server picks below the kernel's
	// ephemeral range (portpick.Listen): after a stop, a port of that range
	// may be the local end of any outgoing connection, and the restart that
	// takes the recorded port again would find it in use.
	return p, nil
}

// pick returns the addresses of names in order, "" for those to choose.
func (p ports) pick(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p[n]
	}
	return out
}

// byName makes every address but except's listen on host, by name: a
// Kerberized cluster's services are reached as localhost:<port>, the host
// their principals' _HOST stands for (nn/localhost, HTTP/localhost, ...).
func (p ports) byName(host string, except ...string) {
	for _, name := range portNames {
		if slices.Contains(except, name) {
			continue
		}
		port := "0"
		if v := p[name]; v != "" {
			_, port, _ = net.SplitHostPort(v)
		}
		p[name] = net.JoinHostPort(host, port)
	}
}

// write records p in dir's ports file.
func (p ports) write(dir string) error {
	var b strings.Builder
	b.WriteString("# The addresses this local cluster listens on, taken again at its next start.\n" +
		"# Delete this file to let the cluster choose free ports.\n")
	for _, name := range portNames {
		if v := p[name]; v != "" {
			fmt.Fprintf(&b, "%s=%s\n", name, v)
		}
	}
	path := filepath.Join(dir, PortsFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// listen opens addr, a loopback port chosen by the system when empty.
func listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := portpick.Listen(context.Background(), addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return l, nil
}
