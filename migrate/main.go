package migrate

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gozie/gozie/migrate/oozie"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store/backends"
)

// Usage is the synopsis of `gozie migrate`.
const Usage = `usage: gozie migrate oozie -from OOZIE_DB_URL -db GOZIE_DB_URL [-dry-run] [-since AGE]
                          [-running-actions refuse|follow|rerun] [-oozie-tz ZONE] [-processing-tz ZONE]`

// Main runs `gozie migrate <args>` and returns the exit status: 0 when every
// job was imported (or would be, with -dry-run) or skipped, 1 when a job was
// refused or failed, 2 for bad flags.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "oozie" {
		fmt.Fprintln(stderr, Usage)
		return 2
	}
	fs := flag.NewFlagSet("gozie migrate oozie", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "Oozie's database (read only): a postgres:// URL or mysql://USER:PASSWORD@HOST[:PORT]/DATABASE")
	db := fs.String("db", "", "gozie's database: sqlite:PATH or a postgres:// URL (gozie.db.url)")
	dry := fs.Bool("dry-run", false, "list every job with its verdict and change nothing")
	since := fs.String("since", "30d", "import finished jobs last modified within this age (e.g. 30d, 12h; 0: all)")
	running := fs.String("running-actions", "refuse", "workflow actions RUNNING in an Oozie launcher: refuse (leave the job in Oozie), follow (gozie follows the YARN application) or rerun (gozie runs the node again)")
	oozieTZ := fs.String("oozie-tz", "GMT", "the zone Oozie's server wrote its timestamps in")
	procTZ := fs.String("processing-tz", "UTC", "gozie's processing time zone (oozie.processing.timezone)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	cfg, err := parseFlags(*from, *db, *dry, *since, *running, *oozieTZ, *procTZ)
	if err != nil {
		fmt.Fprintf(stderr, "gozie migrate oozie: %v\n", err)
		return 2
	}
	ok, err := Run(ctx, cfg, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "gozie migrate oozie: %v\n", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// Config is one run of the migration.
type Config struct {
	From, DB string
	DryRun   bool
	Options  oozie.Options
	OozieTZ  *time.Location
	Now      func() time.Time
	sinceAge time.Duration
	src      source
}

func parseFlags(from, db string, dry bool, since, running, oozieTZ, procTZ string) (Config, error) {
	c := Config{From: from, DB: db, DryRun: dry, Now: time.Now}
	var err error
	if c.src, err = parseSource(from); err != nil {
		return c, fmt.Errorf("-from %w", err)
	}
	if !dry {
		if err := backends.Validate(db); err != nil {
			return c, fmt.Errorf("-db: %w", err)
		}
	}
	age, err := ParseAge(since)
	if err != nil {
		return c, fmt.Errorf("-since: %w", err)
	}
	c.sinceAge = age
	if c.Options.Running, err = oozie.ParseRunningActions(running); err != nil {
		return c, fmt.Errorf("-running-actions: %w", err)
	}
	if c.OozieTZ, err = oozietime.LoadZone(oozieTZ); err != nil {
		return c, fmt.Errorf("-oozie-tz: %w", err)
	}
	if c.Options.Format, err = oozietime.NewFormat(procTZ); err != nil {
		return c, fmt.Errorf("-processing-tz: %w", err)
	}
	return c, nil
}

// ParseAge reads an age: a number of days ("30d") or a Go duration
// ("12h"); "0" means no limit.
func ParseAge(s string) (time.Duration, error) {
	if s == "0" || s == "" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("invalid age %q: want e.g. 30d or 12h", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid age %q: want e.g. 30d or 12h", s)
	}
	return d, nil
}

// Run reads Oozie's database, plans, and (without DryRun) imports, writing
// one line per job to out. ok is false when a job was refused or failed.
func Run(ctx context.Context, c Config, out io.Writer) (ok bool, err error) {
	if c.src.driver == "" {
		if c.src, err = parseSource(c.From); err != nil {
			return false, err
		}
	}
	src, r, err := c.src.open(ctx, c.OozieTZ)
	if err != nil {
		return false, err
	}
	defer src.Close()
	if c.sinceAge > 0 {
		c.Options.Since = c.Now().Add(-c.sinceAge)
	}
	snap, err := r.Read(ctx)
	if err != nil {
		return false, err
	}
	units, err := oozie.Plan(ctx, snap, r, c.Options)
	if err != nil {
		return false, err
	}
	if c.DryRun {
		return Report(out, units, nil), nil
	}
	st, err := backends.Open(ctx, c.DB)
	if err != nil {
		return false, fmt.Errorf("opening gozie's database: %w", err)
	}
	defer st.Close()
	im := &Importer{Store: st, Now: c.Now}
	return Report(out, units, im.Import(ctx, units)), nil
}

// Report writes one line per unit (its verdict, or with results the
// import's outcome), the notes and a summary, and reports whether every
// job was imported or skipped.
func Report(out io.Writer, units []oozie.Unit, results []Result) bool {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VERDICT\tKIND\tID\tNAME\tSTATUS\tDETAIL")
	counts := map[string]int{}
	ok := true
	for i, u := range units {
		what, detail := string(u.Verdict), u.Reason
		if u.Verdict == oozie.Import {
			detail = summary(u)
		}
		if results != nil {
			what = string(results[i].Outcome)
			if results[i].Err != nil {
				detail = results[i].Err.Error()
			}
			if results[i].Outcome == Failed {
				ok = false
			}
		}
		if u.Verdict == oozie.Refuse {
			ok = false
		}
		counts[what]++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", what, u.Kind, u.ID, u.AppName, u.Status, detail)
		for _, n := range u.Notes {
			fmt.Fprintf(tw, "\t\t\t\t\tnote: %s\n", n)
		}
	}
	_ = tw.Flush()
	keys := []string{"import", "imported", "already imported", "skip", "refuse", "failed", "not imported"}
	var parts []string
	for _, k := range keys {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	fmt.Fprintf(out, "%d jobs: %s\n", len(units), strings.Join(parts, ", "))
	return ok
}

// summary says what an imported unit holds.
func summary(u oozie.Unit) string {
	var parts []string
	for _, c := range u.Coords {
		parts = append(parts, fmt.Sprintf("coordinator %s: %d actions, last action number %d, next materialization %s",
			c.Job.ID, len(c.Actions), c.Job.LastActionNumber, fmtTime(c.Job.NextMaterializedTime)))
	}
	if n := len(u.Workflows); n > 0 {
		parts = append(parts, fmt.Sprintf("%d workflows", n))
	}
	if n := len(u.SLAs); n > 0 {
		parts = append(parts, fmt.Sprintf("%d SLA registrations", n))
	}
	return strings.Join(parts, "; ")
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04Z")
}
