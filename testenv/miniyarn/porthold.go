package miniyarn

import (
	"context"
	"fmt"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// portHold keeps a TCP address bound without listening on it, as the port of
// an RM server that is not running (a standby's scheduler, every server of a
// stopped RM): connections to it are refused, as they are to a real RM's
// closed port, while no other socket can take the port meanwhile (a listener
// on a random port or the local end of an outgoing connection), so that the
// RM can listen on it again.
type portHold struct{ fd int }

// holdPort binds addr ("" or port 0: a random loopback port) without
// listening and returns the hold and the bound address.
func holdPort(addr, what string) (*portHold, string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	tcp, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("miniyarn: address %s for %s: %w", addr, what, err)
	}
	family, sa := syscall.AF_INET6, syscall.Sockaddr(nil)
	if ip4 := tcp.IP.To4(); ip4 != nil || tcp.IP == nil {
		a := &syscall.SockaddrInet4{Port: tcp.Port}
		copy(a.Addr[:], ip4)
		family, sa = syscall.AF_INET, a
	} else {
		a := &syscall.SockaddrInet6{Port: tcp.Port}
		copy(a.Addr[:], tcp.IP.To16())
		sa = a
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, "", fmt.Errorf("miniyarn: a socket for %s: %w", what, err)
	}
	// SO_REUSEPORT and no SO_REUSEADDR: nothing else may bind the port while
	// it is held, except this process's next hold, which is made before the
	// server on the port closes, so that the port is never free between the
	// two (a server listens on its hold itself, see listen).
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, unix.SO_REUSEPORT, 1); err != nil {
		syscall.Close(fd)
		return nil, "", fmt.Errorf("miniyarn: a socket for %s: %w", what, err)
	}
	if err := syscall.Bind(fd, sa); err != nil {
		syscall.Close(fd)
		return nil, "", fmt.Errorf("miniyarn: listening on %s for %s: %w", addr, what, err)
	}
	bound, err := syscall.Getsockname(fd)
	if err != nil {
		syscall.Close(fd)
		return nil, "", fmt.Errorf("miniyarn: address of %s: %w", what, err)
	}
	var got string
	switch b := bound.(type) {
	case *syscall.SockaddrInet4:
		got = (&net.TCPAddr{IP: net.IP(b.Addr[:]), Port: b.Port}).String()
	case *syscall.SockaddrInet6:
		got = (&net.TCPAddr{IP: net.IP(b.Addr[:]), Port: b.Port}).String()
	}
	return &portHold{fd: fd}, got, nil
}

// reservePort holds addr as holdPort does; when the hold fails but a
// listener could take the address (connections of an earlier server in
// TIME_WAIT refuse a plain bind, not a listener's), it returns the address
// without a hold. The error of an address that is taken names it.
func reservePort(ctx context.Context, addr, what string) (*portHold, string, error) {
	hold, got, err := holdPort(addr, what)
	if err == nil {
		return hold, got, nil
	}
	l, lerr := listen(ctx, addr, what)
	if lerr != nil {
		return nil, "", lerr
	}
	defer l.Close()
	return nil, l.Addr().String(), nil
}

// release frees the port. A nil hold does nothing.
func (h *portHold) release() {
	if h != nil && h.fd >= 0 {
		syscall.Close(h.fd)
		h.fd = -1
	}
}

// listen makes the held socket listen and returns it as a listener; the
// hold is used up. The port is never free in between.
func (h *portHold) listen() (net.Listener, error) {
	if err := syscall.Listen(h.fd, syscall.SOMAXCONN); err != nil {
		return nil, fmt.Errorf("miniyarn: listening on a held port: %w", err)
	}
	f := os.NewFile(uintptr(h.fd), "held port")
	h.fd = -1
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("miniyarn: listening on a held port: %w", err)
	}
	return l, nil
}

// listenHeld listens on addr through a hold, so that a later hold of the
// port (a stopped RM's) can be made before this listener closes; where the
// hold fails as reservePort allows (TIME_WAIT), it listens plainly.
func listenHeld(ctx context.Context, addr, what string) (net.Listener, error) {
	hold, _, err := holdPort(addr, what)
	if err != nil {
		return listen(ctx, addr, what)
	}
	l, err := hold.listen()
	if err != nil {
		hold.release()
		return nil, err
	}
	return l, nil
}
