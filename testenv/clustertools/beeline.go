package clustertools

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/beltran/gohive"
	"github.com/beltran/gohive/hiveserver"

	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
)

// beelineOpts are Beeline's command-line options that the stand-in uses.
type beelineOpts struct {
	url, user, password string
	authType            string   // -a
	inits, files        []string // -i, -f
	execs               []string // -e
	vars, conf          map[string]string
	silent              bool
}

// beelinePoll is the pause between operation status polls.
const beelinePoll = 50 * time.Millisecond

// parseBeeline reads Beeline's options; options that only shape its
// output or driver are accepted and ignored.
func (t *tool) parseBeeline(args []string) (*beelineOpts, error) {
	o := &beelineOpts{vars: map[string]string{}, conf: map[string]string{}}
	withValue := map[string]bool{"-u": true, "-n": true, "-p": true, "-d": true, "-e": true, "-f": true, "-i": true,
		"-w": true, "-a": true, "--hivevar": true, "--hiveconf": true, "--property-file": true, "--passwordfile": true}
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		if !strings.HasPrefix(name, "--") || !withValue[name] {
			name, value, inline = args[i], "", false
		}
		if withValue[name] && !inline {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("option %s needs a value", name)
			}
			i++
			value = args[i]
		}
		switch name {
		case "-u":
			o.url = value
		case "-n":
			o.user = value
		case "-p":
			o.password = value
		case "-w", "--passwordfile":
			b, err := os.ReadFile(t.localPath(value))
			if err != nil {
				return nil, fmt.Errorf("reading the password file: %w", err)
			}
			o.password = strings.TrimSpace(string(b))
		case "-e":
			o.execs = append(o.execs, value)
		case "-f":
			o.files = append(o.files, value)
		case "-i":
			o.inits = append(o.inits, value)
		case "--hivevar", "--hiveconf":
			k, v, ok := strings.Cut(value, "=")
			if !ok || strings.TrimSpace(k) == "" {
				return nil, fmt.Errorf("%s %q is not key=value", name, value)
			}
			if name == "--hivevar" {
				o.vars[strings.TrimSpace(k)] = v
			} else {
				o.conf[strings.TrimSpace(k)] = v
			}
		case "-a":
			o.authType = value
		case "-d", "--property-file":
		case "--silent=true", "--silent":
			o.silent = true
		default:
			if !strings.HasPrefix(args[i], "-") {
				return nil, fmt.Errorf("unexpected argument %q", args[i])
			}
			// Output options (--showHeader=false, --outputformat=csv2, ...).
		}
	}
	if o.url == "" {
		return nil, errors.New("no JDBC URL (-u) given")
	}
	if len(o.files) == 0 && len(o.execs) == 0 {
		return nil, errors.New("nothing to run: give -e or -f (interactive mode is not supported)")
	}
	return o, nil
}

// beeline runs Beeline's non-interactive mode.
func (t *tool) beeline(ctx context.Context, args []string) int {
	o, err := t.parseBeeline(args)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	u, tok, err := t.beelineURL(o)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	if o.user == "" {
		o.user = t.user()
	}
	vars, hconf := map[string]string{}, map[string]string{}
	for k, v := range u.HiveVars {
		vars[k] = v
	}
	for k, v := range o.vars {
		vars[k] = v
	}
	for k, v := range u.HiveConf {
		hconf[k] = v
	}
	for k, v := range o.conf {
		hconf[k] = v
	}
	var stmts []string
	for _, f := range append(append([]string(nil), o.inits...), o.files...) {
		b, err := os.ReadFile(t.localPath(f))
		if err != nil {
			t.errorf("%v", err)
			return exitFail
		}
		stmts = append(stmts, hive2.SplitStatements(string(b))...)
	}
	for _, e := range o.execs {
		stmts = append(stmts, hive2.SplitStatements(e)...)
	}
	t.info(o, "Connecting to %s", o.url)
	conn, err := t.connectHive(ctx, u, tok, o, vars, hconf)
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "Error: Could not open client transport with JDBC Uri: %s: %v (state=08S01,code=0)\n", o.url, err)
		return exitUsage
	}
	defer conn.Close()
	t.info(o, "Connected to: Apache Hive (stand-in) at %s", strings.Join(u.Hosts, ","))
	prompt := "0: " + o.url + "> "
	for _, raw := range stmts {
		stmt := hive2.Substitute(raw, vars, hconf)
		fmt.Fprintf(t.env.Stdout, "%s%s;\n", prompt, stmt)
		if code := t.runStatement(ctx, conn, o, stmt); code != exitOK {
			return code
		}
	}
	t.info(o, "Closing: 0: %s", o.url)
	return exitOK
}

func (t *tool) info(o *beelineOpts, format string, args ...any) {
	if !o.silent {
		fmt.Fprintf(t.env.Stderr, format+"\n", args...)
	}
}

// beelineURL parses the JDBC URL and picks the delegation token to
// authenticate with, as the Hive JDBC driver does (HiveConnection
// createBinaryTransport, getClientDelegationToken): with auth=delegationToken
// (in the URL or by -a) and no principal=, the HIVE_DELEGATION_TOKEN of
// service hiveserver2ClientToken among the container's tokens
// (HADOOP_TOKEN_FILE_LOCATION); without one the driver falls back to SASL
// PLAIN, which a Kerberized HiveServer2 refuses. With principal= the
// driver uses Kerberos whatever auth says.
func (t *tool) beelineURL(o *beelineOpts) (*hive2.JDBCURL, *hadoop.Token, error) {
	raw, tokenAuth := hive2.CutDelegationTokenAuth(o.url)
	tokenAuth = tokenAuth || strings.EqualFold(o.authType, hive2.AuthDelegationToken)
	u, err := hive2.ParseJDBCURL(raw)
	if err != nil || !tokenAuth || u.Principal != "" {
		return u, nil, err
	}
	toks, err := hadoop.TokensFromEnv(t.env.Getenv)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the container's tokens: %w", err)
	}
	tok, ok := hive2.TokenFrom(toks)
	if !ok {
		return u, nil, nil
	}
	if u.TransportMode == "http" {
		return nil, nil, errors.New("auth=delegationToken over transportMode=http (X-Hive-Delegation-Token) is not supported by the beeline stand-in")
	}
	return u, &tok, nil
}

// connectHive opens a session on the first host that answers, with the
// hiveconf and hivevar settings as the Hive JDBC driver sends them. With
// tok the binary transport authenticates with SASL DIGEST-MD5 and the
// token, and gohive speaks NOSASL over the negotiated framing.
func (t *tool) connectHive(ctx context.Context, u *hive2.JDBCURL, tok *hadoop.Token, o *beelineOpts, vars, hconf map[string]string) (*gohive.Connection, error) {
	if u.Principal != "" {
		// gohive's GSSAPI needs cgo; a container has no ticket anyway,
		// where Hive's driver fails its GSSAPI negotiation.
		return nil, errors.New("GSS initiate failed (the beeline stand-in does not do Kerberos: in a container it authenticates with auth=delegationToken and the container's HIVE_DELEGATION_TOKEN)")
	}
	session := map[string]string{"use:database": u.Database}
	for k, v := range hconf {
		session["set:hiveconf:"+k] = v
	}
	for k, v := range vars {
		session["set:hivevar:"+k] = v
	}
	var errs []error
	for _, addr := range u.Hosts {
		host, portStr, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		port, err := strconv.Atoi(portStr)
		if err != nil {
			return nil, err
		}
		cfg := gohive.NewConnectConfiguration()
		cfg.Username, cfg.Password = o.user, o.password
		cfg.HiveConfiguration = session
		cfg.TransportMode, cfg.HTTPPath = u.TransportMode, u.HTTPPath
		cfg.ConnectTimeout, cfg.SocketTimeout, cfg.HttpTimeout = 30*time.Second, 10*time.Minute, 10*time.Minute
		if u.SSL {
			cfg.TLSConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
		}
		auth := u.Auth
		if tok != nil {
			auth, cfg.DialContext = "NOSASL", tokenDialer(*tok)
		}
		conn, err := gohive.Connect(host, port, auth, cfg)
		if err == nil {
			return conn, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// tokenDialer dials and runs the SASL DIGEST-MD5 negotiation with tok
// (KerberosSaslHelper.getTokenTransport).
func tokenDialer(tok hadoop.Token) gohive.DialContextFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			c.SetDeadline(dl)
		}
		sc, err := hive2.SASLToken(c, tok)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.SetDeadline(time.Time{})
		return sc, nil
	}
}

// runStatement executes one statement asynchronously, printing the
// operation log while it runs and its rows when it ends. SIGTERM (ctx)
// cancels it on the server.
func (t *tool) runStatement(ctx context.Context, conn *gohive.Connection, o *beelineOpts, stmt string) int {
	started := t.env.Now()
	cur := conn.Cursor()
	defer cur.Close()
	cur.Execute(ctx, stmt, true)
	if cur.Err != nil {
		var he gohive.HiveError
		if errors.As(cur.Err, &he) {
			t.printError(he.Message, sqlStateFor(he.ErrorCode), he.ErrorCode)
		} else {
			t.printError(cur.Err.Error(), "08S01", 0)
		}
		return exitUsage
	}
	for {
		select {
		case <-ctx.Done():
			cur.Cancel()
			t.printLogs(cur)
			t.printError("the statement was cancelled: the tool was stopped", "HY008", 0)
			return exitTerminated
		case <-time.After(beelinePoll):
		}
		st := cur.Poll(false)
		if cur.Err != nil {
			t.printError(cur.Err.Error(), "08S01", 0)
			return exitUsage
		}
		t.printLogs(cur)
		switch st.GetOperationState() {
		case hiveserver.TOperationState_FINISHED_STATE:
			return t.printRows(ctx, cur, st.GetHasResultSet(), started)
		case hiveserver.TOperationState_ERROR_STATE:
			msg := st.GetErrorMessage()
			if msg == "" {
				msg = st.GetStatus().GetErrorMessage()
			}
			t.printError(msg, st.GetSqlState(), int(st.GetErrorCode()))
			return exitUsage
		case hiveserver.TOperationState_CANCELED_STATE, hiveserver.TOperationState_CLOSED_STATE,
			hiveserver.TOperationState_TIMEDOUT_STATE, hiveserver.TOperationState_UKNOWN_STATE:
			t.printError(fmt.Sprintf("Query was ended by the server in state %s", st.GetOperationState()), "HY008", 0)
			return exitUsage
		}
	}
}

func (t *tool) printLogs(cur *gohive.Cursor) {
	lines := cur.FetchLogs()
	if cur.Err != nil {
		cur.Err = nil
		return
	}
	for _, l := range lines {
		fmt.Fprintln(t.env.Stderr, l)
	}
}

// printError prints Beeline's error line, which callers parse for Hive's
// error code.
func (t *tool) printError(msg, state string, code int) {
	fmt.Fprintf(t.env.Stderr, "Error: %s (state=%s,code=%d)\n", strings.TrimSpace(msg), state, code)
}

// sqlStateFor is the SQL state HiveServer2 attaches to an error code, for
// compile errors (gohive does not hand over the state of those).
func sqlStateFor(code int) string {
	switch {
	case code == 10001:
		return "42S02"
	case code >= 10000 && code < 50000:
		return "42000"
	}
	return "08S01"
}

// printRows prints a finished statement's rows as Beeline's table.
func (t *tool) printRows(ctx context.Context, cur *gohive.Cursor, hasResultSet bool, started time.Time) int {
	elapsed := func() string { return fmt.Sprintf("%.3f seconds", t.env.Now().Sub(started).Seconds()) }
	if !hasResultSet {
		fmt.Fprintf(t.env.Stdout, "No rows affected (%s)\n", elapsed())
		return exitOK
	}
	desc := cur.Description()
	if cur.Err != nil {
		t.printError(cur.Err.Error(), "08S01", 0)
		return exitUsage
	}
	var rows [][]string
	for cur.HasMore(ctx) {
		m := cur.RowMap(ctx)
		if cur.Err != nil {
			t.printError(cur.Err.Error(), "08S01", 0)
			return exitUsage
		}
		row := make([]string, len(desc))
		for i, d := range desc {
			if v := m[d[0]]; v == nil {
				row[i] = "NULL"
			} else {
				row[i] = fmt.Sprint(v)
			}
		}
		rows = append(rows, row)
	}
	if cur.Err != nil {
		t.printError(cur.Err.Error(), "08S01", 0)
		return exitUsage
	}
	names := make([]string, len(desc))
	for i, d := range desc {
		names[i] = d[0]
	}
	printTable(t.env.Stdout, names, rows)
	switch len(rows) {
	case 0:
		fmt.Fprintf(t.env.Stdout, "No rows selected (%s)\n", elapsed())
	case 1:
		fmt.Fprintf(t.env.Stdout, "1 row selected (%s)\n", elapsed())
	default:
		fmt.Fprintf(t.env.Stdout, "%d rows selected (%s)\n", len(rows), elapsed())
	}
	return exitOK
}
