package coordrun

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Job configuration properties the coordinator engine reads.
const (
	PropAppPath = "oozie.coord.application.path"
	PropUser    = "user.name"
	PropACL     = "oozie.job.acl"
	PropGroup   = "group.name"
)

// coordDefaultsFile is read from the app directory, under the job
// configuration.
const coordDefaultsFile = "coord-config-default.xml"

// reservedDefaults may not be defined by coord-config-default.xml: the
// dataset template variables, EL constants and user.name.
var reservedDefaults = []string{"user.name", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "DAYS", "HOURS", "MINUTES",
	"KB", "MB", "GB", "TB", "PB", "RECORDS", "MAP_IN", "MAP_OUT", "REDUCE_IN", "REDUCE_OUT", "GROUPS"}

// SubmitOptions are the choices of one submission.
type SubmitOptions struct {
	// BundleID is the bundle that submits the coordinator, if any.
	BundleID string
	// BundleCoordName is the coordinator's name in its bundle; it replaces
	// the app's name, and a schema 0.1 coordinator is refused (E1319).
	BundleCoordName string
}

// Prepared is a validated coordinator submission, ready to be stored.
type Prepared struct {
	r   *Runner
	row store.CoordJob
	def *coordinator.Job
	// materializeAt is when the first materialization is due: at once, or
	// when the start comes within the look-ahead.
	materializeAt time.Time
}

// ID returns the id the job will have.
func (p *Prepared) ID() string { return p.row.ID }

// Row returns the job row as it will be stored.
func (p *Prepared) Row() store.CoordJob { return p.row }

// Prepare does everything of Submit but storing: it reads coordinator.xml
// (or the .xml file the app path names), the dataset files it includes and
// coord-config-default.xml through the filesystem, resolves the job
// configuration (substitution, defaults, formal parameters) and validates
// the application as Oozie's submit does. Callers that create a coordinator
// as part of their own transaction (a bundle) then call Insert in it.
func (r *Runner) Prepare(ctx context.Context, props *conf.Properties, opts SubmitOptions) (*Prepared, error) {
	props = props.Trimmed()
	user, _ := props.Get(PropUser)
	if user == "" {
		return nil, oozieerr.New(oozieerr.E0401, "Missing configuration property [%s]", PropUser)
	}
	ctx = hadoop.AsUser(ctx, user) // the app and its includes are read as the user
	appPath, _ := props.Get(PropAppPath)
	if appPath == "" {
		return nil, oozieerr.New(oozieerr.E0302, "Invalid parameter [%s]", PropAppPath)
	}
	if s, err := conf.Substitute(props, r.cfg.SubstituteDepth); err == nil {
		if v, _ := s.Get(PropAppPath); v != "" {
			appPath = v
		}
	}
	// A filesystem the server refuses is E0904 before anything is looked at,
	// so that the answer says nothing about what is there.
	if err := hadoop.CheckScheme(r.cfg.FS, appPath); err != nil {
		return nil, coded(err)
	}
	dir, file := appDir(appPath)
	raw, defaults, err := r.readApp(ctx, dir, file)
	if err != nil {
		return nil, err
	}
	merged := defaults.Clone()
	merged.Merge(props)
	merged, err = conf.Substitute(merged, r.cfg.SubstituteDepth)
	if err != nil {
		return nil, &Error{Code: oozieerr.E0307, Msg: err.Error(), Err: err}
	}
	app, err := coordinator.Parse(raw)
	if err != nil {
		return nil, coded(err)
	}
	now := r.now()
	def, err := coordinator.Submit(app, coordinator.SubmitRequest{
		Conf:            merged.Plain(),
		Format:          r.cfg.Format,
		Settings:        r.set,
		ReadInclude:     func(p string) ([]byte, error) { return r.readInclude(ctx, dir, p) },
		BundleCoordName: opts.BundleCoordName,
		Now:             now,
	})
	var refused *hadoop.SchemeError
	if errors.As(err, &refused) {
		return nil, coded(refused) // an <include> on a refused filesystem
	}
	if err != nil {
		return nil, coded(err)
	}
	if err := r.checkPaths(def); err != nil {
		return nil, err
	}
	confXML, err := def.Conf.ConfigurationXML()
	if err != nil {
		return nil, err
	}
	row := def.Row()
	row.ID = r.cfg.IDs.Next(ids.Coordinator)
	row.AppPath = appPath
	row.User = user
	row.ACL = def.Conf.Value(PropACL)
	row.Group = row.ACL
	if row.Group == "" {
		row.Group = def.Conf.Value(PropGroup)
	}
	row.BundleID = opts.BundleID
	row.Conf = confXML
	row.OrigDefinition = string(raw)
	row.CreatedTime, row.LastModified = now, now
	at := row.StartTime.Add(-r.set.LookupInterval)
	if at.Before(now) {
		at = now
	}
	return &Prepared{r: r, row: row, def: def, materializeAt: at}, nil
}

// Insert stores the prepared job in PREP, with its first materialization
// due, in x.
func (p *Prepared) Insert(ctx context.Context, x store.Tx) error {
	row := p.row
	if err := x.InsertCoordJob(ctx, &row); err != nil {
		return err
	}
	return x.Schedule(ctx, KindMaterialize, row.ID, p.materializeAt, "")
}

// Submit creates a coordinator job from a job configuration naming its app
// (oozie.coord.application.path) and returns its id. The job is stored in
// PREP and materializes by itself once its start comes within the
// look-ahead; nothing is stored when anything fails. Errors carry Oozie's
// codes: E0401 without user.name, E0504/E0505 for a missing app, E0700/E0701
// for invalid XML, E1003/E1004/E1010/E1021/E0738 for invalid values.
func (r *Runner) Submit(ctx context.Context, props *conf.Properties, opts SubmitOptions) (string, error) {
	p, err := r.Prepare(ctx, props, opts)
	if err != nil {
		return "", err
	}
	if err := r.cfg.Store.Tx(ctx, func(x store.Tx) error { return p.Insert(ctx, x) }); err != nil {
		return "", err
	}
	r.log.Info("coordinator job submitted", "coord_job_id", p.row.ID, "app_name", p.row.AppName, "user", p.row.User,
		"start", p.row.StartTime, "end", p.row.EndTime, "frequency", p.row.Frequency, "time_unit", p.row.TimeUnit)
	return p.row.ID, nil
}

// DryRunAction is one action a dry run would materialize.
type DryRunAction struct {
	Number      int
	NominalTime time.Time
	// DataIn and DataOut map each event name to its resolved URIs (without
	// done-flags), in Oozie's order.
	DataIn  map[string][]string
	DataOut map[string][]string
	// MissingDependencies is what the action would wait for, in Oozie's
	// format (done-flags included).
	MissingDependencies string
	// ActionXML is the materialized action document.
	ActionXML string
}

// DryRunResult is what a dry run reports.
type DryRunResult struct {
	// Job is the job row the submission would store.
	Job store.CoordJob
	// Actions are the first window's actions.
	Actions []DryRunAction
	// MaterializeErr is the error the first materialization would fail
	// the job with (E1006, E1012...), nil when it creates the actions; a
	// submission is accepted either way.
	MaterializeErr error
	// Text is Oozie's -dryrun output: the definition, then the action
	// documents (or why the first materialization would fail).
	Text string
}

// DryRun judges a submission exactly as Submit does (Prepare is the one
// validation of both: a dry run fails only where a submission would) and
// lists the actions its first materialization would create, with nominal
// times and resolved URIs, storing nothing. Where that materialization would
// fail the job, the result says so instead of refusing the dry run.
func (r *Runner) DryRun(ctx context.Context, props *conf.Properties, opts SubmitOptions) (*DryRunResult, error) {
	p, err := r.Prepare(ctx, props, opts)
	if err != nil {
		return nil, err
	}
	acts, err := coordinator.DryRun(p.def, p.row.ID, r.now(), r.set)
	if err != nil {
		err, acts = coded(err), nil
	}
	res := &DryRunResult{Job: p.row, MaterializeErr: err, Text: coordinator.FormatDryRun(p.def, acts, err)}
	for _, a := range acts {
		da := DryRunAction{Number: a.Row.ActionNumber, NominalTime: a.Row.NominalTime, ActionXML: a.Row.ActionXML,
			MissingDependencies: a.Row.MissingDependencies, DataIn: map[string][]string{}, DataOut: map[string][]string{}}
		if a.Doc != nil {
			for _, ev := range a.Doc.DataIns {
				da.DataIn[ev.Name] = ev.URIs
			}
			for _, ev := range a.Doc.DataOuts {
				da.DataOut[ev.Name] = ev.URIs
			}
		}
		res.Actions = append(res.Actions, da)
	}
	return res, nil
}

// checkPaths refuses, with E0904, a job whose workflow app-path or data-in
// or data-out dataset is on a filesystem the server refuses, when the path
// fixes it at submission (it starts with a scheme or a '/'); any other is
// judged when the action's inputs are checked or its workflow submitted.
func (r *Runner) checkPaths(def *coordinator.Job) error {
	paths := []string{def.AppPath}
	for _, in := range def.DataIns {
		if in.Dataset != nil {
			paths = append(paths, in.Dataset.URITemplate)
		}
	}
	for _, out := range def.DataOuts {
		if out.Dataset != nil {
			paths = append(paths, out.Dataset.URITemplate)
		}
	}
	for _, p := range paths {
		fixed, _, _ := strings.Cut(p, "${")
		if hadoop.Scheme(fixed) == "" && !strings.HasPrefix(fixed, "/") {
			continue
		}
		if err := hadoop.CheckScheme(r.cfg.FS, p); err != nil {
			return coded(err)
		}
	}
	return nil
}

// appDir splits an app path into its directory and the coordinator file:
// a path ending in .xml names the file, any other the directory holding
// coordinator.xml.
func appDir(appPath string) (dir, file string) {
	p := strings.TrimSuffix(appPath, "/")
	if strings.HasSuffix(p, ".xml") {
		// Not path.Dir, which would fold the "//" of scheme://authority.
		return p[:strings.LastIndex(p, "/")], p
	}
	return p, p + "/coordinator.xml"
}

// appIOError is the error of a filesystem failure reading an app: E0902 for
// a scheme gozie has no filesystem for, as Oozie's HadoopAccessorService
// reports it, E0803 otherwise.
func appIOError(err error) *Error {
	var nf *hadoop.NoFileSystemError
	if errors.As(err, &nf) {
		return &Error{Code: oozieerr.Code(nf.ErrorCode()), Msg: nf.Message(), Err: err}
	}
	return oozieerr.Wrap(oozieerr.E0803, err, "IO error")
}

// readApp reads the coordinator definition and coord-config-default.xml.
func (r *Runner) readApp(ctx context.Context, dir, file string) ([]byte, *conf.Properties, error) {
	if strings.HasSuffix(dir, "://") {
		dir += "/" // an app at the root: file:///coordinator.xml
	}
	if _, err := r.cfg.FS.Stat(ctx, dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, oozieerr.New(oozieerr.E0504, "App directory [%s] does not exist", dir)
		}
		return nil, nil, appIOError(err)
	}
	raw, err := r.cfg.FS.ReadFile(ctx, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, oozieerr.New(oozieerr.E0505, "App definition [%s] does not exist", file)
		}
		return nil, nil, appIOError(err)
	}
	defaults := &conf.Properties{}
	b, err := r.cfg.FS.ReadFile(ctx, dir+"/"+coordDefaultsFile)
	switch {
	case err == nil:
		p, perr := conf.ReadConfigurationXML(bytes.NewReader(b), dir+"/"+coordDefaultsFile)
		if perr != nil {
			return nil, nil, &Error{Code: oozieerr.E0701, Msg: perr.Error(), Err: perr}
		}
		for _, name := range reservedDefaults {
			if _, ok := p.Get(name); ok {
				return nil, nil, oozieerr.New(oozieerr.E0804, "Disallowed default property [%s] in %s", name, coordDefaultsFile)
			}
		}
		defaults = p
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, nil, appIOError(err)
	}
	return raw, defaults, nil
}

// readInclude reads a dataset file named by <include>; a relative path is
// relative to the app directory.
func (r *Runner) readInclude(ctx context.Context, dir, p string) ([]byte, error) {
	if hadoop.Scheme(p) == "" && !strings.HasPrefix(p, "/") {
		p = dir + "/" + p
	}
	if err := hadoop.CheckScheme(r.cfg.FS, p); err != nil {
		return nil, coded(err)
	}
	b, err := r.cfg.FS.ReadFile(ctx, p)
	if err != nil {
		return nil, oozieerr.Wrap(oozieerr.E0803, err, "reading dataset file %s", p)
	}
	return b, nil
}
