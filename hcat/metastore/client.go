// Package metastore asks Hive metastores about HCatalog datasets: whether
// the partitions of an hcat:// URI exist (get_partitions_by_filter, as
// Oozie's HCatURIHandler asks through HCatClient.getPartitions), and what
// changed since a point of their notification log (get_next_notification,
// written by the metastore's DbNotificationListener), over the metastore's
// Thrift API with gohive's generated client.
//
// Without Kerberos a connection is the plain Thrift binary protocol and
// its first call is set_ugi(job user), so the metastore acts for the job's
// user (hive.metastore.execute.setugi). With Kerberos the connection is
// SASL GSSAPI as gozie's own principal, to the principal of
// hive.metastore.kerberos.principal (_HOST is the metastore's host): the
// metastore sees gozie, as a Kerberized metastore sees Oozie's read-only
// HCatURIHandler calls (reads need no other identity there).
//
// Datasets (datasets.go) is what the coordinator engine uses: existence
// checks, and a Watcher that polls each metastore waited on once a second
// and wakes the actions waiting on a partition as soon as its ADD_PARTITION
// event appears.
package metastore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	hms "github.com/beltran/gohive/hive_metastore"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hcat"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// DefaultTimeout bounds one metastore call, connection included.
const DefaultTimeout = 30 * time.Second

// Config configures a Client.
type Config struct {
	// Kerberos is gozie's login; nil means the metastores take plain
	// connections (hive.metastore.sasl.enabled=false).
	Kerberos *krbclient.Client
	// Principal is the metastores' principal
	// (hive.metastore.kerberos.principal), required with Kerberos.
	Principal string
	// Timeout bounds one call; default DefaultTimeout.
	Timeout time.Duration
}

// Client calls Hive metastores; it keeps no connection between calls.
type Client struct {
	cfg Config
}

// New returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.Kerberos != nil && cfg.Principal == "" {
		return nil, errors.New("hcat: a Kerberized metastore needs hive.metastore.kerberos.principal")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Client{cfg: cfg}, nil
}

// Exists reports whether any partition of u's table matches its
// specification, asked as user. An unknown database or table is an error
// (the metastore's NoSuchObjectException), as it is for Oozie.
func (c *Client) Exists(ctx context.Context, user string, u hcat.URI) (bool, error) {
	var n int
	err := c.call(ctx, u.Metastores(), user, func(ctx context.Context, cl *hms.ThriftHiveMetastoreClient) error {
		parts, err := cl.GetPartitionsByFilter(ctx, u.DB, u.Table, u.MetastoreFilter(), -1)
		n = len(parts)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("looking up %s: %w", u, err)
	}
	return n > 0, nil
}

// DropPartitions drops every partition u stands for, with its data, as
// user (HCatClient.dropPartitions(db, table, spec, ifExists=true), what
// Oozie's rerun does to an hcat output); none matching is no error.
func (c *Client) DropPartitions(ctx context.Context, user string, u hcat.URI) error {
	err := c.call(ctx, u.Metastores(), user, func(ctx context.Context, cl *hms.ThriftHiveMetastoreClient) error {
		parts, err := cl.GetPartitionsByFilter(ctx, u.DB, u.Table, u.MetastoreFilter(), -1)
		if err != nil {
			return err
		}
		for _, p := range parts {
			if _, err := cl.DropPartition(ctx, u.DB, u.Table, p.Values, true); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dropping %s: %w", u, err)
	}
	return nil
}

// CurrentEventID returns the id of the last event of a metastore's
// notification log (0 for an empty log).
func (c *Client) CurrentEventID(ctx context.Context, server hcat.URI) (int64, error) {
	var id int64
	err := c.call(ctx, server.Metastores(), "", func(ctx context.Context, cl *hms.ThriftHiveMetastoreClient) error {
		r, err := cl.GetCurrentNotificationEventId(ctx)
		if r != nil {
			id = r.EventId
		}
		return err
	})
	return id, err
}

// NextEvents returns up to max events after id, oldest first, skipping
// the types in skip.
func (c *Client) NextEvents(ctx context.Context, server hcat.URI, after int64, max int32, skip []string) ([]*hms.NotificationEvent, error) {
	var events []*hms.NotificationEvent
	err := c.call(ctx, server.Metastores(), "", func(ctx context.Context, cl *hms.ThriftHiveMetastoreClient) error {
		r, err := cl.GetNextNotification(ctx, &hms.NotificationEventRequest{LastEvent: after, MaxEvents: &max, EventTypeSkipList: skip})
		if r != nil {
			events = r.Events
		}
		return err
	})
	return events, err
}

// call runs f on a connection to the first metastore of addrs that
// answers; an answer of the metastore (an exception it raised) is final,
// a connection failure moves on to the next one.
func (c *Client) call(ctx context.Context, addrs []string, user string, f func(context.Context, *hms.ThriftHiveMetastoreClient) error) error {
	if len(addrs) == 0 {
		return errors.New("no metastore named")
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var errs []error
	for _, addr := range addrs {
		cl, closeConn, err := c.connect(ctx, addr, user)
		if err != nil {
			errs = append(errs, fmt.Errorf("metastore %s: %w", addr, err))
			continue
		}
		err = f(ctx, cl)
		closeConn()
		var te thrift.TException
		if err == nil || !errors.As(err, &te) || te.TExceptionType() != thrift.TExceptionTypeTransport {
			return err
		}
		errs = append(errs, fmt.Errorf("metastore %s: %w", addr, err))
	}
	return errors.Join(errs...)
}

// connect opens a client on addr: SASL GSSAPI with Kerberos, else a plain
// connection whose first call is set_ugi(user) when there is a user.
func (c *Client) connect(ctx context.Context, addr, user string) (*hms.ThriftHiveMetastoreClient, func(), error) {
	var nd net.Dialer
	nc, err := nd.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	conn := nc
	if c.cfg.Kerberos != nil {
		host, _, _ := net.SplitHostPort(addr)
		if conn, err = hive2.SASLGSSAPI(nc, c.cfg.Kerberos, hive2.ServicePrincipal(c.cfg.Principal, host)); err != nil {
			nc.Close()
			return nil, nil, err
		}
	}
	tconf := &thrift.TConfiguration{}
	trans := thrift.NewTBufferedTransport(thrift.NewTSocketFromConnConf(conn, tconf), 4096)
	prot := thrift.NewTBinaryProtocolConf(trans, tconf)
	cl := hms.NewThriftHiveMetastoreClient(thrift.NewTStandardClient(prot, prot))
	closeConn := func() { conn.Close() }
	if c.cfg.Kerberos == nil && user != "" {
		if _, err := cl.SetUgi(ctx, user, []string{}); err != nil {
			closeConn()
			return nil, nil, fmt.Errorf("set_ugi(%s): %w", user, err)
		}
	}
	return cl, closeConn, nil
}
