package bundle

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// PropUser is the job configuration property naming the bundle's user.
const PropUser = "user.name"

// Request is what Resolve needs besides the application.
type Request struct {
	// Conf is the job configuration after property-to-property substitution, with
	// bundle-config-default.xml under it; it must set user.name.
	Conf *conf.Properties
	// Format is the processing time zone, in which the kick-off time is read.
	Format oozietime.Format
	// Now is the submission time, the value of EL's timestamp().
	Now time.Time
}

// reservedNames may not be set by a bundle's job configuration (nor by
// bundle-config-default.xml, which may not set user.name either): they are the names of
// coordinator EL constants and dataset template variables.
var reservedNames = []string{"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "DAYS", "HOURS", "MINUTES", "KB", "MB", "GB",
	"TB", "PB", "RECORDS", "MAP_IN", "MAP_OUT", "REDUCE_IN", "REDUCE_OUT", "GROUPS"}

// CheckConf refuses a job configuration that sets a reserved name (E0808); with defaults
// set, conf is bundle-config-default.xml, which may not set user.name either.
func CheckConf(conf *conf.Properties, defaults bool) error {
	names := reservedNames
	if defaults {
		names = append([]string{PropUser}, names...)
	}
	for _, n := range names {
		if _, ok := conf.Get(n); ok {
			return oozieerr.At(oozieerr.E0808, "", "Disallowed user property [%s]", n)
		}
	}
	return nil
}

// Resolve resolves a parsed application for one submission, as Oozie's bundle submit
// does: the formal parameters' defaults are added to the configuration (schema 0.2; E0738
// for a parameter with neither value nor default, E0739 for an empty name), then every
// attribute and element value is evaluated as EL over the configuration (variables and
// bundle:conf; E1004), the kick-off time is read in the processing time zone (E1303), and
// the coordinator names are checked: not empty (E1305) and unique (E1304). A coordinator
// configuration may not name another user (E1303).
func Resolve(app *App, req Request) (*Job, error) {
	conf, err := applyParameters(app, req.Conf.Clone())
	if err != nil {
		return nil, err
	}
	user := conf.Value(PropUser)
	if user == "" {
		return nil, oozieerr.At(oozieerr.E0401, "", "Missing configuration property [%s]", PropUser)
	}
	ev := newEvaluator(conf, req)
	job := &Job{Namespace: app.Namespace, Conf: conf}
	if job.Name, err = ev.eval("bundle-app/@name", app.Name); err != nil {
		return nil, err
	}
	if job.Name = strings.TrimSpace(job.Name); job.Name == "" {
		return nil, oozieerr.At(oozieerr.E0701, "bundle-app/@name", "the bundle's name is empty")
	}
	kick, err := ev.eval("controls/kick-off-time", app.KickOffTime)
	if err != nil {
		return nil, err
	}
	if kick = strings.TrimSpace(kick); kick != "" {
		if job.KickoffTime, err = coordinator.ParseStored(req.Format, kick); err != nil {
			return nil, oozieerr.WrapAt(oozieerr.E1303, "controls/kick-off-time", err,
				"Invalid bundle application attributes [kick-off-time], %q is not a date of the form %s",
				kick, req.Format.Mask())
		}
	}
	seen := map[string]bool{}
	for _, def := range app.Coordinators {
		c, err := resolveCoordinator(ev, def, user)
		if err != nil {
			return nil, err
		}
		if seen[c.Name] {
			return nil, oozieerr.At(oozieerr.E1304, fmt.Sprintf("line %d <coordinator>", def.Line),
				"Duplicate bundle application coordinator name [%s]", c.Name)
		}
		seen[c.Name] = true
		job.Coordinators = append(job.Coordinators, c)
	}
	return job, nil
}

// resolveCoordinator evaluates one coordinator entry.
func resolveCoordinator(ev *evaluator, def CoordinatorDef, user string) (Coordinator, error) {
	where := fmt.Sprintf("line %d <coordinator>", def.Line)
	c := Coordinator{Conf: &conf.Properties{}}
	name, err := ev.eval(where+"/@name", def.Name)
	if err != nil {
		return c, err
	}
	if c.Name = strings.TrimSpace(name); c.Name == "" {
		return c, oozieerr.At(oozieerr.E1305, where, "Empty bundle application coordinator name.")
	}
	where = "coordinator[" + c.Name + "]"
	if c.AppPath, err = ev.eval(where+"/app-path", def.AppPath); err != nil {
		return c, err
	}
	c.AppPath = strings.TrimSpace(c.AppPath)
	for _, p := range def.Configuration {
		n, err := ev.eval(where+"/configuration", p.Name)
		if err != nil {
			return c, err
		}
		v, err := ev.eval(where+"/configuration/"+strings.TrimSpace(n), p.Value)
		if err != nil {
			return c, err
		}
		c.Conf.Set(strings.TrimSpace(n), strings.TrimSpace(v))
	}
	if u, ok := c.Conf.Get(PropUser); ok && u != user {
		return c, oozieerr.At(oozieerr.E1303, where+"/configuration",
			"Invalid bundle application attributes [%s], the coordinator's user %q is not the bundle's user %q", PropUser, u, user)
	}
	c.Critical, c.Enabled = false, true
	if def.HasCritical {
		v, err := ev.eval(where+"/@critical", def.Critical)
		if err != nil {
			return c, err
		}
		c.Critical = strings.EqualFold(strings.TrimSpace(v), "true")
	}
	if def.HasEnabled {
		v, err := ev.eval(where+"/@enabled", def.Enabled)
		if err != nil {
			return c, err
		}
		// Java's Boolean.parseBoolean: anything but "true" in any case is false.
		c.Enabled = strings.EqualFold(strings.TrimSpace(v), "true")
	}
	return c, nil
}

// applyParameters checks the formal parameters (schema 0.2) and adds the defaults of those
// the configuration does not set (coordinator.ApplyParameters).
func applyParameters(app *App, conf *conf.Properties) (*conf.Properties, error) {
	return coordinator.ApplyParameters(app.Parameters, app.Version, "0.2", conf, func(code oozieerr.Code, msg string) error {
		return oozieerr.At(code, "parameters", "%s", msg)
	})
}

// evaluator evaluates the EL of one bundle: the job configuration's properties are
// variables, bundle:conf(name) reads any of them, and Oozie's basic functions are there.
type evaluator struct {
	env *el.Env
}

// registry holds the bundle's EL functions; it is read-only once built.
var registry = func() *el.Registry {
	r := el.Basic()
	r.RegisterArity("bundle:conf", 1, fnConf)
	return r
}()

// newEvaluator returns the evaluator of a submission.
func newEvaluator(conf *conf.Properties, req Request) *evaluator {
	now := req.Now
	return &evaluator{env: &el.Env{
		Funcs:    registry,
		Vars:     func(name string) (any, bool) { v, ok := conf.Get(name); return v, ok },
		Data:     conf,
		Now:      func() time.Time { return now },
		Location: req.Format.Location(),
	}}
}

// eval evaluates text, reporting failures against where.
func (e *evaluator) eval(where, text string) (string, error) {
	if !el.Contains(text) {
		return text, nil
	}
	v, err := e.env.EvalString(text)
	if err != nil {
		return "", oozieerr.WrapAt(oozieerr.E1004, where, err, "Unable to evaluate [%s]", text)
	}
	return v, nil
}

// fnConf is bundle:conf(name): a property of the job configuration, or null.
func fnConf(env *el.Env, args []any) (any, error) {
	props, ok := env.Data.(*conf.Properties)
	if !ok {
		return nil, errors.New("bundle:conf called without a bundle configuration")
	}
	if v, ok := props.Get(el.ToString(args[0])); ok {
		return v, nil
	}
	return nil, nil
}
