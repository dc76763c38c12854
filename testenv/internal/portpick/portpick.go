// Package portpick picks free loopback ports below the kernel's ephemeral
// range (net.ipv4.ip_local_port_range). A stand-in that closes a port and
// opens it again later (a standby ResourceManager's scheduler, a cluster
// restarted on its recorded ports) must not have it taken meanwhile: a
// port of the ephemeral range is handed to the next outgoing connection of
// any process, while one below it is taken only by an explicit bind.
package portpick

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// lowest is the lowest port picked: above the well-known and most
// registered service ports.
const lowest = 20000

// ephemeralLow reads the start of the kernel's ephemeral range; Linux's
// default when it cannot be read.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				return n
			}
		}
	}
	return 32768
}

// Addr returns host:port for a port of host that was free a moment ago,
// below the ephemeral range; where that range leaves no room, a port the
// kernel picks.
func Addr(host string) (string, error) {
	high := ephemeralLow()
	for attempt := 0; high > lowest && attempt < 100; attempt++ {
		addr := net.JoinHostPort(host, strconv.Itoa(lowest+rand.IntN(high-lowest)))
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		l.Close()
		return addr, nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", fmt.Errorf("finding a free port on %s: %w", host, err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}
