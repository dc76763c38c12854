package bundlerun

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"time"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Job configuration properties the bundle engine reads and sets.
const (
	// PropAppPath names the bundle application: a directory holding bundle.xml, or the
	// file itself.
	PropAppPath = "oozie.bundle.application.path"
	// PropBundleID is set in each coordinator's configuration to its bundle's id.
	PropBundleID = "oozie.bundle.id"
	PropUser     = bundle.PropUser
	PropACL      = "oozie.job.acl"
	PropGroup    = "group.name"
)

// Files read from a bundle's application directory.
const (
	bundleFile   = "bundle.xml"
	defaultsFile = "bundle-config-default.xml"
)

// Prepared is a validated bundle submission, ready to be stored.
type Prepared struct {
	row store.BundleJob
	job *bundle.Job
	// kickoffAt is when the kick-off trigger is due: the kick-off time, or at once.
	kickoffAt time.Time
}

// ID returns the id the bundle will have.
func (p *Prepared) ID() string { return p.row.ID }

// Row returns the bundle row as it will be stored.
func (p *Prepared) Row() store.BundleJob { return p.row }

// Prepare does everything of Submit but storing: it reads bundle.xml (or the file the app
// path names) and bundle-config-default.xml, resolves the job configuration (defaults
// under it, substitution, formal parameters) and the application's EL, and validates it
// as Oozie's bundle submit does. Its errors carry Oozie's codes: E0401 without user.name,
// E0302 without an app path, E1301 for an app that cannot be read, E0700/E0701 for invalid
// XML, E0808 for reserved properties, E1004/E1303/E1304/E1305/E0738 for invalid values.
func (r *Runner) Prepare(ctx context.Context, props *conf.Properties) (*Prepared, error) {
	props = props.Trimmed()
	user, _ := props.Get(PropUser)
	if user == "" {
		return nil, oozieerr.New(oozieerr.E0401, "Missing configuration property [%s]", PropUser)
	}
	ctx = hadoop.AsUser(ctx, user) // the app is read as the user
	if v, _ := props.Get(PropAppPath); v == "" {
		return nil, oozieerr.New(oozieerr.E0302, "Invalid parameter [%s]", PropAppPath)
	}
	resolved, err := conf.Substitute(props, r.cfg.SubstituteDepth)
	if err != nil {
		return nil, &Error{Code: oozieerr.E0307, Msg: err.Error(), Err: err}
	}
	appPath := resolved.Value(PropAppPath)
	dir, raw, defaults, err := r.readApp(ctx, appPath)
	if err != nil {
		return nil, err
	}
	merged := defaults.Clone()
	merged.Merge(props)
	if merged, err = conf.Substitute(merged, r.cfg.SubstituteDepth); err != nil {
		return nil, &Error{Code: oozieerr.E0307, Msg: err.Error(), Err: err}
	}
	jobConf := merged.Plain()
	if err := bundle.CheckConf(jobConf, false); err != nil {
		return nil, err
	}
	app, err := bundle.Parse(raw)
	if err != nil {
		return nil, err
	}
	now := r.now()
	job, err := bundle.Resolve(app, bundle.Request{Conf: jobConf, Format: r.cfg.Format, Now: now})
	if err != nil {
		return nil, err
	}
	confXML, err := job.Conf.ConfigurationXML()
	if err != nil {
		return nil, err
	}
	row := store.BundleJob{
		ID:             r.cfg.IDs.Next(ids.Bundle),
		AppName:        job.Name,
		AppPath:        appPath,
		User:           user,
		ACL:            job.Conf.Value(PropACL),
		Status:         store.JobPrep,
		Conf:           confXML,
		Definition:     job.DefinitionXML(r.cfg.Format),
		OrigDefinition: string(raw),
		KickoffTime:    job.KickoffTime,
		CreatedTime:    now,
		LastModified:   now,
	}
	row.Group = row.ACL
	if row.Group == "" {
		row.Group = job.Conf.Value(PropGroup)
	}
	at := job.KickoffTime
	if at.Before(now) {
		at = now
	}
	r.log.Debug("bundle prepared", "app_dir", dir, "bundle_job_id", row.ID)
	return &Prepared{row: row, job: job, kickoffAt: at}, nil
}

// Insert stores the prepared bundle in PREP, with its kick-off due, in x.
func (p *Prepared) Insert(ctx context.Context, x store.Tx) error {
	row := p.row
	if err := x.InsertBundleJob(ctx, &row); err != nil {
		return err
	}
	return x.Schedule(ctx, KindKickoff, row.ID, p.kickoffAt, "")
}

// Submit creates a bundle job from a job configuration naming its app
// (oozie.bundle.application.path) and returns its id. The bundle is stored in PREP with a
// kick-off trigger due at its kick-off time (at once without one); its coordinators are
// only submitted then. Nothing is stored when anything fails; the errors are Prepare's.
func (r *Runner) Submit(ctx context.Context, props *conf.Properties) (string, error) {
	p, err := r.Prepare(ctx, props)
	if err != nil {
		return "", err
	}
	if err := r.cfg.Store.Tx(ctx, func(x store.Tx) error { return p.Insert(ctx, x) }); err != nil {
		return "", err
	}
	r.log.Info("bundle job submitted", "bundle_job_id", p.row.ID, "app_name", p.row.AppName, "user", p.row.User,
		"kickoff", p.kickoffAt, "coordinators", len(p.job.Coordinators))
	return p.row.ID, nil
}

// DryRun validates a submission like Submit and returns the bundle definition as it
// would be stored (every EL resolved), storing nothing.
func (r *Runner) DryRun(ctx context.Context, props *conf.Properties) (string, error) {
	p, err := r.Prepare(ctx, props)
	if err != nil {
		return "", err
	}
	return p.row.Definition, nil
}

// readApp reads the bundle definition and bundle-config-default.xml. A path that is a
// directory holds bundle.xml; any other names the definition itself.
func (r *Runner) readApp(ctx context.Context, appPath string) (dir string, raw []byte, defaults *conf.Properties, err error) {
	// A filesystem the server refuses is E0904 before anything is looked at,
	// so that the answer says nothing about what is there.
	if err := hadoop.CheckScheme(r.cfg.FS, appPath); err != nil {
		return "", nil, nil, err
	}
	p := strings.TrimSuffix(appPath, "/")
	fi, err := r.cfg.FS.Stat(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, nil, oozieerr.New(oozieerr.E1301, "Could not read the bundle job definition, [%s does not exist]", appPath)
	case err != nil:
		return "", nil, nil, wrapf(oozieerr.E1301, err, "Could not read the bundle job definition, [%s]", appPath)
	}
	file := p
	if fi.IsDir {
		dir, file = p, p+"/"+bundleFile
	} else {
		// Not path.Dir, which would fold the "//" of scheme://authority.
		dir = p[:max(strings.LastIndex(p, "/"), 0)]
	}
	raw, err = r.cfg.FS.ReadFile(ctx, file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, nil, oozieerr.New(oozieerr.E1301, "Could not read the bundle job definition, [%s does not exist]", file)
	case err != nil:
		return "", nil, nil, wrapf(oozieerr.E1301, err, "Could not read the bundle job definition, [%s]", file)
	}
	defaults = &conf.Properties{}
	b, err := r.cfg.FS.ReadFile(ctx, dir+"/"+defaultsFile)
	switch {
	case err == nil:
		d, perr := conf.ReadConfigurationXML(bytes.NewReader(b), dir+"/"+defaultsFile)
		if perr != nil {
			return "", nil, nil, wrapf(oozieerr.E0702, perr, "Problem reading default config %s", dir+"/"+defaultsFile)
		}
		if err := bundle.CheckConf(d, true); err != nil {
			return "", nil, nil, err
		}
		defaults = d
	case errors.Is(err, fs.ErrNotExist):
	default:
		return "", nil, nil, wrapf(oozieerr.E0702, err, "Problem reading default config %s", dir+"/"+defaultsFile)
	}
	return dir, raw, defaults, nil
}

// coordinatorConf is the job configuration of one coordinator of a bundle: the bundle's,
// overridden by the entry's configuration, with the coordinator's app path and the
// bundle's id.
func coordinatorConf(bundleConf *conf.Properties, c bundle.Coordinator, bundleID string) *conf.Properties {
	props := bundleConf.Clone()
	props.Merge(c.Conf)
	props.Set(coordrun.PropAppPath, c.AppPath)
	props.Set(PropBundleID, bundleID)
	return props
}
