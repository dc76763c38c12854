package minidfs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/user"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop/ipc"
)

// Defaults of Options.
const (
	// DefaultBlockSize is HDFS's default block size, 128 MiB.
	DefaultBlockSize = 128 << 20
	// DefaultGroup is the group reported for every file.
	DefaultGroup = "supergroup"
	// bytesPerChecksum is the chunk size of CRC32C checksums.
	bytesPerChecksum = 512
	// listingLimit is how many entries one getListing page holds (HDFS's
	// dfs.ls.limit default).
	listingLimit = 1000
	// leaseSoftLimit is how long a silent writer keeps its lease before
	// another client may take the file over.
	leaseSoftLimit = 60 * time.Second
)

// Options configures a MiniDFS.
type Options struct {
	// Root is the local directory that holds the namespace; it must exist.
	Root string
	// BlockSize is the block size offered to writers and used to cut files
	// into blocks for readers; default DefaultBlockSize. It must be a
	// multiple of 512.
	BlockSize int64
	// Owner owns files that were not created through MiniDFS; default the
	// current OS user.
	Owner string
	// Group is the group of every file; default DefaultGroup.
	Group string
	// Kerberos, if set, makes the NameNode require Kerberos (GSSAPI) SASL
	// with this service key instead of SIMPLE authentication.
	Kerberos *ipc.KerberosOptions
	// Now returns the current time for lease bookkeeping; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; default a logger that discards.
	Logger *slog.Logger
}

// MiniDFS is a running NameNode and DataNode pair.
type MiniDFS struct {
	opts Options
	root *os.Root
	nn   *namenode
	ipc  *ipc.Server
	dn   *datanode

	closeOnce sync.Once
}

// Start opens Root and starts the NameNode and the DataNode.
func Start(ctx context.Context, opts Options) (*MiniDFS, error) {
	if opts.Root == "" {
		return nil, errors.New("minidfs: Options.Root is required")
	}
	if opts.BlockSize == 0 {
		opts.BlockSize = DefaultBlockSize
	}
	if opts.BlockSize < 0 || opts.BlockSize%bytesPerChecksum != 0 {
		return nil, fmt.Errorf("minidfs: BlockSize %d is not a positive multiple of %d", opts.BlockSize, bytesPerChecksum)
	}
	if opts.Owner == "" {
		opts.Owner = "hdfs"
		if u, err := user.Current(); err == nil && u.Username != "" {
			opts.Owner = u.Username
		}
	}
	if opts.Group == "" {
		opts.Group = DefaultGroup
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	root, err := os.OpenRoot(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("minidfs: opening root: %w", err)
	}
	uuid := make([]byte, 16)
	if _, err := rand.Read(uuid); err != nil {
		root.Close()
		return nil, fmt.Errorf("minidfs: datanode uuid: %w", err)
	}
	m := &MiniDFS{opts: opts, root: root}
	m.dn, err = startDatanode(ctx, root, opts.Logger)
	if err != nil {
		root.Close()
		return nil, err
	}
	m.nn = newNamenode(opts, root, m.dn, hex.EncodeToString(uuid))
	m.dn.blocks = m.nn.blocks

	so := ipc.ServerOptions{Logger: opts.Logger}
	if opts.Kerberos != nil {
		so.Kerberos = opts.Kerberos
	} else {
		so.Simple = true
	}
	m.ipc = ipc.NewServer(so)
	m.nn.register(m.ipc)
	if err := m.ipc.Start(ctx); err != nil {
		m.dn.close()
		root.Close()
		return nil, fmt.Errorf("minidfs: starting namenode: %w", err)
	}
	return m, nil
}

// Addr returns the NameNode's host:port.
func (m *MiniDFS) Addr() string { return m.ipc.Addr() }

// URI returns hdfs://127.0.0.1:<port>, the value for fs.defaultFS.
func (m *MiniDFS) URI() string { return "hdfs://" + m.Addr() }

// Root returns the local directory backing the namespace.
func (m *MiniDFS) Root() string { return m.opts.Root }

// DataNodeAddr returns the DataNode's data-transfer host:port.
func (m *MiniDFS) DataNodeAddr() string { return m.dn.addr() }

// SetStandby makes the NameNode answer every call with a StandbyException
// (or stop doing so). Two MiniDFS sharing one Root, one of them in
// standby, behave like an HA pair that clients fail over between.
func (m *MiniDFS) SetStandby(standby bool) { m.ipc.SetStandby(standby) }

// Close stops both servers and releases the root. It is idempotent.
func (m *MiniDFS) Close() error {
	m.closeOnce.Do(func() {
		m.ipc.Close()
		m.dn.close()
		m.root.Close()
	})
	return nil
}

// loopback is the address both servers listen on.
const loopback = "127.0.0.1:0"

func listenLoopback() (net.Listener, error) {
	l, err := net.Listen("tcp", loopback)
	if err != nil {
		return nil, fmt.Errorf("minidfs: listening: %w", err)
	}
	return l, nil
}
