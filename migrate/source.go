package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql" // Oozie on MySQL and MariaDB
	_ "github.com/lib/pq"            // Oozie on PostgreSQL

	"github.com/gozie/gozie/migrate/oozie"
)

// source is Oozie's database as -from names it: the database/sql driver
// and its data source name.
type source struct {
	driver, dsn string
}

// parseSource reads -from: a postgres:// (or postgresql://) URL, as lib/pq
// takes it, or a mysql://USER:PASSWORD@HOST[:PORT]/DATABASE[?PARAM=VALUE...]
// URL for MySQL and MariaDB (port 3306 by default; parameters are the
// driver's, e.g. tls=true). An optional "jdbc:" prefix, as Oozie's
// oozie.service.JPAService.jdbc.url has it, is accepted.
func parseSource(from string) (source, error) {
	from = strings.TrimPrefix(from, "jdbc:")
	switch {
	case strings.HasPrefix(from, "postgres://"), strings.HasPrefix(from, "postgresql://"):
		return source{driver: "postgres", dsn: from}, nil
	case strings.HasPrefix(from, "mysql://"):
		dsn, err := mysqlDSN(from)
		if err != nil {
			return source{}, err
		}
		return source{driver: "mysql", dsn: dsn}, nil
	}
	return source{}, fmt.Errorf("%q: want a postgres:// or mysql:// URL of Oozie's database", from)
}

// mysqlDSN turns a mysql:// URL into the driver's DSN. Times are read as
// they are stored (DATETIME, no zone): the reader places them in -oozie-tz.
func mysqlDSN(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%q: %w", raw, err)
	}
	if u.Host == "" {
		return "", fmt.Errorf("%q: want mysql://USER:PASSWORD@HOST[:PORT]/DATABASE", raw)
	}
	c := mysql.NewConfig()
	c.Net, c.Addr = "tcp", u.Host
	if u.Port() == "" {
		c.Addr = net.JoinHostPort(u.Hostname(), "3306")
	}
	if u.User != nil {
		c.User = u.User.Username()
		c.Passwd, _ = u.User.Password()
	}
	c.DBName = strings.TrimPrefix(u.Path, "/")
	c.ParseTime, c.Loc = true, time.UTC
	for k, vs := range u.Query() {
		if len(vs) == 0 {
			continue
		}
		if c.Params == nil {
			c.Params = map[string]string{}
		}
		c.Params[k] = vs[len(vs)-1]
	}
	// Known parameters (tls, timeout, ...) are the driver's to parse.
	parsed, err := mysql.ParseDSN(c.FormatDSN())
	if err != nil {
		return "", fmt.Errorf("%q: %w", raw, err)
	}
	return parsed.FormatDSN(), nil
}

// open opens the source and returns a reader of Oozie's tables in it.
func (s source) open(ctx context.Context, zone *time.Location) (*sql.DB, *oozie.Reader, error) {
	db, err := sql.Open(s.driver, s.dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("opening Oozie's database: %w", err)
	}
	r := &oozie.Reader{DB: db, Zone: zone}
	if s.driver == "mysql" {
		r.Placeholder = func(int) string { return "?" }
		if r.Tables, err = oozie.TableNames(ctx, db); err != nil {
			db.Close()
			return nil, nil, err
		}
	}
	return db, r, nil
}
