// Command soakload is the load and the recorder of `make soak` (scripts/soak.sh): it
// submits workflows to a running `gozie server` on the local cluster through the REST API at a fixed
// rate, with a bound on the submissions in flight (one in -shell-every runs a shell
// action in a launcher container on the local YARN, the others an fs action that the
// server runs itself), and samples the
// server every interval: its resident memory and open files (from /proc), its
// goroutines (from /metrics), its database's size, and the workflows submitted,
// refused, running and succeeded. It writes the samples as a TSV series, prints them,
// and exits 1 when a series grows without bound (series.grows).
//
//	go run ./scripts/soakload -url http://127.0.0.1:11000/oozie -pid 1234 -data-dir DIR
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/testenv/localcluster"
)

// options are the command's flags.
type options struct {
	url, dataDir, clusterDir, out, user string
	pid, inFlight                       int
	shellEvery                          int
	rate                                float64
	duration, interval                  time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.url, "url", "", "the server's URL, with its context path (http://HOST:PORT/oozie)")
	flag.IntVar(&o.pid, "pid", 0, "the server's process id")
	flag.StringVar(&o.dataDir, "data-dir", "", "the server's -data-dir (its SQLite database)")
	flag.StringVar(&o.clusterDir, "cluster-dir", "", "the local cluster's -data-dir (default: the server's, as with gozie server -local)")
	flag.Float64Var(&o.rate, "rate", 50, "workflows submitted a second")
	flag.IntVar(&o.inFlight, "in-flight", 32, "most submissions waiting for their answer at once")
	flag.IntVar(&o.shellEvery, "shell-every", 10, "one workflow in this many runs a shell action in a YARN container (1: every one)")
	flag.DurationVar(&o.duration, "duration", time.Hour, "how long the load runs")
	flag.DurationVar(&o.interval, "interval", time.Minute, "time between samples")
	flag.StringVar(&o.out, "out", "soak.tsv", "the TSV file of the samples")
	flag.StringVar(&o.user, "user", "", "the jobs' user (default: this process's user)")
	freeAddr := flag.Bool("free-addr", false, "print a free loopback address for the server and exit")
	flag.Parse()
	if *freeAddr {
		if err := printFreeAddr(); err != nil {
			fmt.Fprintln(os.Stderr, "soakload:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "soakload:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.url == "" || o.pid <= 0 || o.dataDir == "" || o.rate <= 0 || o.inFlight < 1 || o.interval <= 0 || o.shellEvery < 1 {
		return errors.New("-url, -pid, -data-dir, a positive -rate, -in-flight, -interval and -shell-every are required")
	}
	if o.clusterDir == "" {
		o.clusterDir = o.dataDir
	}
	if o.user == "" {
		u, err := user.Current()
		if err != nil {
			return err
		}
		o.user = u.Username
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tr, err := client.NewAuthTransport(client.Auth{User: o.user})
	if err != nil {
		return err
	}
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	c, err := client.New(o.url, hc)
	if err != nil {
		return err
	}
	apps, err := installApps(o.clusterDir, o.user)
	if err != nil {
		return err
	}
	l := &load{client: c, apps: apps, shellEvery: o.shellEvery, user: o.user, slots: make(chan struct{}, o.inFlight)}
	rec := &recorder{o: o, client: c, http: hc, load: l}
	samples := make(chan error, 1)
	loadCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	go func() { samples <- rec.every(loadCtx) }()
	l.run(loadCtx, o.rate)
	if err := <-samples; err != nil {
		return err
	}
	if err := rec.sample(ctx); err != nil { // the last, at the end of the load
		return err
	}
	return rec.report(os.Stdout)
}

// printFreeAddr prints a loopback address no one listens on now, for the server's
// -addr (its callback URL is derived from it, so it cannot be port 0).
func printFreeAddr() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	fmt.Println(ln.Addr().String())
	return nil
}

// shellWorkflow is one shell action that runs `true` in a launcher container on the
// local cluster's YARN: the path of callbacks, polls and container logs.
const shellWorkflow = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="soak-shell">
  <start to="a"/>
  <action name="a"><shell xmlns="uri:oozie:shell-action:1.0">
    <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node><exec>true</exec></shell><ok to="end"/><error to="k"/></action>
  <kill name="k"><message>failed</message></kill><end name="end"/>
</workflow-app>`

// fsWorkflow is one fs action, run by the server as the job's user against the
// NameNode: a directory of the run made and deleted. On a real cluster every action's
// work runs on other machines; on the two cores of a laptop a launcher container per
// workflow at 50 a second would measure the container fakes, not the server.
const fsWorkflow = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="soak-fs">
  <start to="a"/>
  <action name="a"><fs>
    <mkdir path="${nameNode}/user/${wf:user()}/soak-out/${wf:id()}"/>
    <delete path="${nameNode}/user/${wf:user()}/soak-out/${wf:id()}"/>
  </fs><ok to="end"/><error to="k"/></action>
  <kill name="k"><message>failed</message></kill><end name="end"/>
</workflow-app>`

// soakApps are the URIs of the installed workflow apps.
type soakApps struct{ shell, fs, nameNode, resourceManager string }

// installApps writes the workflow apps into the HDFS root (a local directory) of the
// local cluster in dataDir.
func installApps(dataDir, user string) (soakApps, error) {
	f, err := os.Open(filepath.Join(dataDir, localcluster.PropertiesFile))
	if err != nil {
		return soakApps{}, fmt.Errorf("reading the local cluster's addresses: %w", err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, localcluster.PropertiesFile)
	if err != nil {
		return soakApps{}, err
	}
	nn, _ := p.Get("nameNode")
	rm, _ := p.Get("resourceManager")
	if nn == "" || rm == "" {
		return soakApps{}, fmt.Errorf("%s names no nameNode or resourceManager", localcluster.PropertiesFile)
	}
	for name, xml := range map[string]string{"soak": shellWorkflow, "soak-fs": fsWorkflow} {
		dir := filepath.Join(dataDir, "dfs", "user", user, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return soakApps{}, err
		}
		if err := os.WriteFile(filepath.Join(dir, "workflow.xml"), []byte(xml), 0o644); err != nil {
			return soakApps{}, err
		}
	}
	base := nn + "/user/" + user + "/"
	return soakApps{shell: base + "soak", fs: base + "soak-fs", nameNode: nn, resourceManager: rm}, nil
}

// load submits workflows at a fixed rate (an open loop: the rate does not wait for
// the answers), with at most cap(slots) submissions waiting for their answer.
type load struct {
	client     *client.Client
	apps       soakApps
	shellEvery int
	user       string
	slots      chan struct{}
	wg         sync.WaitGroup
	n          atomic.Int64 // workflows asked for so far
	// submitted counts accepted submissions; failed, refused or failed ones;
	// skipped, ticks dropped because every slot was taken (the server is behind).
	submitted, failed, skipped atomic.Int64
	mu                         sync.Mutex
	lastErr                    error
}

func (l *load) run(ctx context.Context, rate float64) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	defer l.wg.Wait()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		select {
		case l.slots <- struct{}{}:
		default:
			l.skipped.Add(1)
			continue
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer func() { <-l.slots }()
			l.submit()
		}()
	}
}

func (l *load) submit() {
	app := l.apps.fs
	if l.n.Add(1)%int64(l.shellEvery) == 0 {
		app = l.apps.shell
	}
	props := conf.NewProperties("user.name", l.user, "oozie.wf.application.path", app,
		"nameNode", l.apps.nameNode, "resourceManager", l.apps.resourceManager)
	// Not tied to the load's end: a submission under way is answered, not cut off.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := l.client.Submit(ctx, props, true); err != nil {
		l.failed.Add(1)
		l.mu.Lock()
		l.lastErr = err
		l.mu.Unlock()
		return
	}
	l.submitted.Add(1)
}

// recorder samples the server.
type recorder struct {
	o      options
	client *client.Client
	http   *http.Client
	load   *load
	start  time.Time
	rows   [][]float64
}

// columns of a sample, in order; the series judged by the growth rule are marked in
// seriesOf.
var columns = []string{"minute", "rss_mb", "goroutines", "open_fds", "db_mb", "submitted", "failed", "skipped", "running", "succeeded"}

func (r *recorder) every(ctx context.Context) error {
	r.start = time.Now()
	if err := r.sample(ctx); err != nil {
		return err
	}
	t := time.NewTicker(r.o.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if err := r.sample(ctx); err != nil {
			return err
		}
	}
}

func (r *recorder) sample(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	rss, err := procStatusKB(r.o.pid, "VmRSS")
	if err != nil {
		return err
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", r.o.pid))
	if err != nil {
		return fmt.Errorf("counting the server's open files: %w", err)
	}
	gor, err := r.metric(ctx, "go_goroutines")
	if err != nil {
		return err
	}
	running, err := r.count(ctx, "status=RUNNING")
	if err != nil {
		return err
	}
	succeeded, err := r.count(ctx, "status=SUCCEEDED")
	if err != nil {
		return err
	}
	row := []float64{time.Since(r.start).Minutes(), rss / 1024, gor, float64(len(fds)), dbMB(r.o.dataDir),
		float64(r.load.submitted.Load()), float64(r.load.failed.Load()), float64(r.load.skipped.Load()),
		float64(running), float64(succeeded)}
	r.rows = append(r.rows, row)
	fmt.Fprintln(os.Stderr, "soakload:", formatRow(row))
	return nil
}

// count is the number of the user's workflow jobs a filter matches.
func (r *recorder) count(ctx context.Context, filter string) (int, error) {
	l, err := r.client.Jobs(ctx, client.JobsQuery{Filter: filter + ";user=" + r.o.user, Len: 1})
	if err != nil {
		return 0, fmt.Errorf("counting %s workflows: %w", filter, err)
	}
	return l.Total, nil
}

// metric reads one unlabelled sample of the server's /metrics.
func (r *recorder) metric(ctx context.Context, name string) (float64, error) {
	u := strings.TrimSuffix(strings.TrimRight(r.o.url, "/"), "/oozie") + "/metrics"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("reading %s: %s", u, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("reading %s: %w", u, err)
	}
	return 0, fmt.Errorf("%s serves no %s", u, name)
}

// procStatusKB reads a size field of a process's /proc status.
func procStatusKB(pid int, field string) (float64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("reading the server's memory: %w", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			return strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// dbMB is the size of the server's SQLite database with its write-ahead log.
func dbMB(dataDir string) float64 {
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(filepath.Join(dataDir, "gozie.db"+suffix)); err == nil {
			n += fi.Size()
		}
	}
	return float64(n) / (1 << 20)
}

func formatRow(row []float64) string {
	s := make([]string, len(row))
	for i, v := range row {
		s[i] = strconv.FormatFloat(v, 'f', -1, 64)
		if i == 0 || i == 1 || i == 4 {
			s[i] = strconv.FormatFloat(v, 'f', 1, 64)
		}
	}
	return strings.Join(s, "\t")
}

// seriesOf is the column i of the samples as a series, with its floor and whether the
// growth rule applies to it.
func (r *recorder) seriesOf(i int) series {
	s := series{name: columns[i]}
	for _, row := range r.rows {
		s.values = append(s.values, row[i])
	}
	switch columns[i] {
	case "rss_mb":
		s.floor, s.checked = 16, true
	case "goroutines":
		s.floor, s.checked = 50, true
	case "open_fds":
		s.floor, s.checked = 16, true
	case "running":
		s.floor, s.checked = 100, true
	}
	return s
}

// report writes the TSV file, prints the series and the judgement of each, and
// answers an error when one grows without bound.
func (r *recorder) report(w io.Writer) error {
	var b strings.Builder
	b.WriteString(strings.Join(columns, "\t") + "\n")
	for _, row := range r.rows {
		b.WriteString(formatRow(row) + "\n")
	}
	if err := os.WriteFile(r.o.out, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprint(w, b.String())
	var grew []string
	for i := 1; i < len(columns); i++ {
		s := r.seriesOf(i)
		if !s.checked {
			continue
		}
		g, why := s.grows()
		fmt.Fprintf(w, "%s: %s\n", s.name, why)
		if g {
			grew = append(grew, s.name)
		}
	}
	if n := len(r.rows); n > 0 {
		el := r.rows[n-1][0] * 60
		fmt.Fprintf(w, "submitted %d workflows in %.0f s: %.1f/s of the %g/s asked; %d refused or failed; %d ticks skipped with every slot waiting for an answer\n",
			r.load.submitted.Load(), el, float64(r.load.submitted.Load())/max(el, 1), r.o.rate, r.load.failed.Load(), r.load.skipped.Load())
	}
	r.load.mu.Lock()
	if r.load.lastErr != nil {
		fmt.Fprintf(w, "last submission error: %v\n", r.load.lastErr)
	}
	r.load.mu.Unlock()
	if len(grew) > 0 {
		return fmt.Errorf("grows without bound: %s", strings.Join(grew, ", "))
	}
	return nil
}
