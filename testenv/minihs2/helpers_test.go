package minihs2_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beltran/gohive"
	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minihs2"
)

// startDFS starts a MiniDFS and returns a filesystem on it (bare paths).
func startDFS(t *testing.T) hadoop.FileSystem {
	t.Helper()
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	return fs
}

func startServer(t *testing.T, opts minihs2.Options) *minihs2.Server {
	t.Helper()
	if opts.FS == nil {
		opts.FS = startDFS(t)
	}
	s, err := minihs2.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// connect opens a gohive connection as user with the transport and
// authentication of the server.
func connect(t *testing.T, s *minihs2.Server, transport minihs2.Transport, auth minihs2.Auth, user string, conf map[string]string) *gohive.Connection {
	t.Helper()
	host, portStr, _ := net.SplitHostPort(s.Addr())
	port, _ := strconv.Atoi(portStr)
	cfg := gohive.NewConnectConfiguration()
	cfg.Username, cfg.Password = user, "secret"
	cfg.PollIntervalInMillis = 10
	cfg.HiveConfiguration = conf
	cfg.ConnectTimeout, cfg.SocketTimeout = 10*time.Second, 30*time.Second
	if transport == minihs2.HTTP {
		cfg.TransportMode = "http"
	}
	conn, err := gohive.Connect(host, port, string(auth), cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// exec runs one statement synchronously and fails the test on error.
func exec(t *testing.T, conn *gohive.Connection, sql string) *gohive.Cursor {
	t.Helper()
	cur := conn.Cursor()
	cur.Exec(ctxT(t), sql)
	if cur.Err != nil {
		t.Fatalf("%s: %v", sql, cur.Err)
	}
	return cur
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// rows fetches every row of a finished cursor as strings ("NULL" for
// nulls).
func rows(t *testing.T, cur *gohive.Cursor) [][]string {
	t.Helper()
	var out [][]string
	ctx := ctxT(t)
	for cur.HasMore(ctx) {
		if cur.Err != nil {
			t.Fatalf("HasMore: %v", cur.Err)
		}
		desc := cur.Description()
		m := cur.RowMap(ctx)
		if cur.Err != nil {
			t.Fatalf("RowMap: %v", cur.Err)
		}
		row := make([]string, len(desc))
		for i, d := range desc {
			if v := m[d[0]]; v == nil {
				row[i] = "NULL"
			} else {
				row[i] = fmtValue(v)
			}
		}
		out = append(out, row)
	}
	if cur.Err != nil {
		t.Fatalf("HasMore: %v", cur.Err)
	}
	return out
}

func fmtValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int8:
		return strconv.Itoa(int(x))
	case int16:
		return strconv.Itoa(int(x))
	case int32:
		return strconv.Itoa(int(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return "?"
}

// poll waits for an asynchronous operation to leave RUNNING and returns
// its final status.
func poll(t *testing.T, cur *gohive.Cursor) *hiveserver.TGetOperationStatusResp {
	t.Helper()
	var st *hiveserver.TGetOperationStatusResp
	testwait.WaitForLast(t, 30*time.Second, "the operation to end", func() (bool, string) {
		st = cur.Poll(false)
		if cur.Err != nil {
			t.Fatalf("poll: %v", cur.Err)
		}
		switch s := st.GetOperationState(); s {
		case hiveserver.TOperationState_RUNNING_STATE, hiveserver.TOperationState_PENDING_STATE,
			hiveserver.TOperationState_INITIALIZED_STATE:
			return false, s.String()
		}
		return true, ""
	})
	return st
}

func hiveCode(err error) int {
	var he gohive.HiveError
	if errors.As(err, &he) {
		return he.ErrorCode
	}
	return -1
}

// errMessage is the message Hive sent with a statement's error.
func errMessage(err error) string {
	var he gohive.HiveError
	if errors.As(err, &he) {
		return he.Message
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// readExample reads the file name of the hive2 example app under apps
// (testapps.Dir or testapps.Oozie).
func readExample(t *testing.T, apps, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(apps, "hive2", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// statements splits a script on semicolons at line ends, dropping comment
// lines (enough for the example scripts).
func statements(script string) []string {
	var out []string
	var cur []string
	for _, line := range strings.Split(script, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			continue
		}
		cur = append(cur, line)
		if strings.HasSuffix(strings.TrimSpace(line), ";") {
			st := strings.TrimSuffix(strings.TrimSpace(strings.Join(cur, "\n")), ";")
			out = append(out, st)
			cur = nil
		}
	}
	return out
}
