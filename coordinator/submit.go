package coordinator

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// SubmitRequest is what Submit needs besides the application.
type SubmitRequest struct {
	// Conf is the job configuration after property-to-property substitution; it must set
	// user.name.
	Conf *conf.Properties
	// Format is the processing time zone (the zero value is UTC).
	Format oozietime.Format
	// Settings are the server defaults; start from DefaultSettings.
	Settings Settings
	// ReadInclude returns the bytes of a dataset file named by <include> (after variable
	// resolution); nil refuses applications with includes.
	ReadInclude func(path string) ([]byte, error)
	// BundleCoordName is set when a bundle submits the coordinator: it becomes the job's
	// name, and schema 0.1 is refused (E1319).
	BundleCoordName string
	// Now is the submission time, the value of EL's timestamp() during submission.
	Now time.Time
}

// minInitialInstance is the earliest dataset initial instance Oozie accepts.
var minInitialInstance = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// Submit resolves a parsed application for one submission, evaluating every submission-phase
// EL and validating the result as Oozie's coordinator submit command does. Errors are *Error
// values with Oozie's codes: E1003 for invalid values (dates, zones, frequencies, controls),
// E1004 for EL errors, E1021 for bad instance elements, E0738/E0739 for parameters, E1319 for
// a schema 0.1 coordinator in a bundle.
func Submit(app *App, req SubmitRequest) (*Job, error) {
	s := &submitter{app: app, req: req, settings: req.Settings.WithDefaults()}
	return s.run()
}

// submitter carries the state of one Submit call.
type submitter struct {
	app      *App
	req      SubmitRequest
	settings Settings
	ctx      *ELContext
	job      *Job
}

// run performs the submission steps in Oozie's order.
func (s *submitter) run() (*Job, error) {
	app := s.app
	if s.req.BundleCoordName != "" && app.Version == "0.1" {
		return nil, oozieerr.At(oozieerr.E1319, "coordinator-app",
			"bundle app can not submit coordinator namespace %s, please use 0.2 or later", app.Namespace)
	}
	conf, err := applyParameters(app, s.req.Conf.Clone())
	if err != nil {
		return nil, err
	}
	user, ok := conf.Get("user.name")
	if !ok || user == "" {
		return nil, oozieerr.At(oozieerr.E0401, "", "Missing configuration property [user.name]")
	}
	s.ctx = &ELContext{Format: s.req.Format, User: user, Conf: conf, Now: s.req.Now,
		LatestUsesCurrentTime: s.settings.LatestUsesCurrentTime}
	s.job = &Job{Namespace: app.Namespace, Conf: conf, User: user, Format: s.req.Format}
	steps := []func() error{s.frequency, s.attributes, s.controls, s.events, s.action, s.validate, s.instances}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return s.job, nil
}

// applyParameters checks the formal parameters (schema 0.4 and later) and adds the defaults
// of those the configuration does not set.
func applyParameters(app *App, props *conf.Properties) (*conf.Properties, error) {
	return ApplyParameters(app.Parameters, app.Version, "0.4", props, func(code oozieerr.Code, msg string) error {
		return oozieerr.At(code, "parameters", "%s", msg)
	})
}

// ApplyParameters checks the formal parameters of an application of schema version and
// sets on props the defaults of those it does not set; schemas before since have none
// (coordinators 0.4, bundles 0.2). A parameter with an empty name is E0739, parameters
// with neither a value nor a default E0738; fail builds the error of the caller's package
// from the code and the message.
func ApplyParameters(params []Parameter, version, since string, props *conf.Properties, fail func(code oozieerr.Code, msg string) error) (*conf.Properties, error) {
	if len(params) == 0 || version < since {
		return props, nil
	}
	var missing []string
	for _, p := range params {
		if p.Name == "" {
			return nil, fail(oozieerr.E0739, "A parameter has an empty name")
		}
		if _, ok := props.Get(p.Name); ok {
			continue
		}
		if p.HasValue {
			props.Set(p.Name, p.Value)
			continue
		}
		missing = append(missing, p.Name)
	}
	if len(missing) > 0 {
		return nil, fail(oozieerr.E0738, fmt.Sprintf(
			"The following %d parameters are required but were not defined and no default values are available: %s",
			len(missing), strings.Join(missing, ", ")))
	}
	return props, nil
}

// evalString evaluates text in a phase and reports failures against where.
func (s *submitter) evalString(p Phase, where, text string) (string, error) {
	v, err := s.ctx.EvalString(p, strings.TrimSpace(text))
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Where = where
		}
		return "", err
	}
	return v, nil
}

// parseFrequency evaluates a frequency attribute: an integer with the unit selected by the
// coord: functions (MINUTE for a plain number) and the end-of flag, or else a cron expression
// when allowCron is set.
func (s *submitter) parseFrequency(where, text string, allowCron bool) (Frequency, error) {
	s.ctx.Unit, s.ctx.EndOf = oozietime.Minute, oozietime.NoUnit
	v, err := s.evalString(PhaseSubmitFreq, where, text)
	if err != nil {
		return Frequency{}, err
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n <= 0 {
			return Frequency{}, oozieerr.At(oozieerr.E1003, where, "frequency must be greater than zero, got [%s]", v)
		}
		return Frequency{N: n, Unit: s.ctx.Unit, EndOf: s.ctx.EndOf}, nil
	}
	if !allowCron {
		return Frequency{}, oozieerr.At(oozieerr.E1003, where, "parameter [frequency] = [%s] must be an integer", v)
	}
	c, err := oozietime.ParseCron(v)
	if err != nil {
		return Frequency{}, oozieerr.WrapAt(oozieerr.E1003, where, err,
			"parameter [frequency] = [%s] must be an integer or a cron syntax", v)
	}
	return Frequency{Unit: oozietime.Cron, EndOf: oozietime.NoUnit, Cron: c}, nil
}

// parseDate evaluates and parses a datetime attribute.
func (s *submitter) parseDate(p Phase, name, where, text string) (time.Time, error) {
	v, err := s.evalString(p, where, text)
	if err != nil {
		return time.Time{}, err
	}
	t, err := ParseStored(s.req.Format, v)
	if err != nil {
		return time.Time{}, oozieerr.WrapAt(oozieerr.E1003, where, err, "parameter [%s] = [%s] must be Date in %s format (%s)",
			name, v, s.req.Format.Name(), s.req.Format.Mask())
	}
	return t, nil
}

// parseZone evaluates and resolves a time-zone attribute.
func (s *submitter) parseZone(name, where, text string) (string, error) {
	v, err := s.evalString(PhaseSubmitNoFuncs, where, text)
	if err != nil {
		return "", err
	}
	if _, err := oozietime.LoadZone(v); err != nil {
		return "", oozieerr.WrapAt(oozieerr.E1003, where, err, "parameter [%s] = [%s] must be a valid TZ", name, v)
	}
	return v, nil
}

// frequency resolves the coordinator frequency.
func (s *submitter) frequency() error {
	f, err := s.parseFrequency("coordinator-app/@frequency", s.app.Frequency, true)
	if err != nil {
		return err
	}
	s.job.Frequency = f
	return nil
}

// attributes resolves name, start, end and time zone.
func (s *submitter) attributes() error {
	j, app := s.job, s.app
	if s.req.BundleCoordName != "" {
		j.Name = s.req.BundleCoordName
	} else {
		name, err := s.evalString(PhaseSubmitNoFuncs, "coordinator-app/@name", app.Name)
		if err != nil {
			return err
		}
		j.Name = name
	}
	var err error
	if j.Start, err = s.parseDate(PhaseSubmitNoFuncs, "start", "coordinator-app/@start", app.Start); err != nil {
		return err
	}
	if j.End, err = s.parseDate(PhaseSubmitNoFuncs, "end", "coordinator-app/@end", app.End); err != nil {
		return err
	}
	if j.TimeZone, err = s.parseZone("timezone", "coordinator-app/@timezone", app.TimeZone); err != nil {
		return err
	}
	j.Location, _ = oozietime.LoadZone(j.TimeZone)
	return nil
}

// controls resolves timeout, concurrency, throttle and execution.
func (s *submitter) controls() error {
	c, set := s.app.Controls, s.settings
	j := s.job

	s.ctx.Unit = oozietime.Minute
	timeout, err := s.evalString(PhaseWaitTimeout, "controls/timeout", c.Timeout)
	if err != nil {
		return err
	}
	if timeout == "" {
		j.Timeout = set.DefaultTimeout
	} else {
		t, err := strconv.Atoi(timeout)
		if err != nil {
			return oozieerr.At(oozieerr.E1003, "controls/timeout", "parameter [timeout] = [%s] must be an integer", timeout)
		}
		switch s.ctx.Unit {
		case oozietime.Hour:
			t *= 60
		case oozietime.Day:
			t *= 60 * 24
		case oozietime.Month:
			t *= 60 * 24 * 30
		}
		j.Timeout = t
	}
	if j.Timeout < 0 || j.Timeout > set.MaxTimeout {
		j.Timeout = set.MaxTimeout
	}

	if j.Concurrency, err = s.intControl("concurrency", c.Concurrency, set.DefaultConcurrency); err != nil {
		return err
	}
	if j.Throttle, err = s.intControl("throttle", c.Throttle, set.DefaultThrottle); err != nil {
		return err
	}
	if j.Throttle < 1 || j.Throttle > set.MaxThrottle {
		j.Throttle = set.MaxThrottle
	}

	exec, err := s.evalString(PhaseSubmitNoFuncs, "controls/execution", c.Execution)
	if err != nil {
		return err
	}
	switch e := Execution(exec); e {
	case "":
		j.Execution = FIFO
	case FIFO, LIFO, LastOnly, None:
		j.Execution = e
	default:
		return oozieerr.At(oozieerr.E1003, "controls/execution",
			"parameter [execution] = [%s] must be in the list FIFO, LIFO, LAST_ONLY, NONE", exec)
	}
	return nil
}

// intControl resolves an integer control with a default for an empty value.
func (s *submitter) intControl(name, text string, def int) (int, error) {
	where := "controls/" + name
	v, err := s.evalString(PhaseSubmitNoFuncs, where, text)
	if err != nil {
		return 0, err
	}
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, oozieerr.At(oozieerr.E1003, where, "parameter [%s] = [%s] must be an integer", name, v)
	}
	return n, nil
}

// instances refuses a job whose first action's data-ins or data-outs name more dataset
// instances than Settings.MaxInstances (E1010, naming the event): its events are resolved as
// its materialization will resolve them, which measures every range before expanding it.
// Other errors of that action are left to its materialization, as in Oozie.
func (s *submitter) instances() error {
	j := s.job
	row := store.CoordJob{Status: store.JobPrep, StartTime: j.Start, EndTime: j.End, Throttle: 1,
		ExecutionOrder: string(j.Execution), Timeout: j.Timeout}
	m := materializer{req: MaterializeRequest{Job: s.job, Row: row, Now: s.req.Now, Settings: s.settings},
		s: s.settings, row: row}
	if _, err := m.run(true); errors.Is(err, ErrTooManyInstances) {
		return err
	}
	return nil
}

// validate applies the checks Oozie makes once everything is resolved.
func (s *submitter) validate() error {
	j := s.job
	if !j.Start.Before(j.End) {
		return oozieerr.At(oozieerr.E1003, "coordinator-app", "Coordinator Start Time must be earlier than End Time.")
	}
	f := j.Frequency
	if f.Unit == oozietime.Cron {
		next, ok := f.Cron.Next(j.Start.Add(-time.Minute), s.req.Format.Location())
		if !ok {
			return oozieerr.At(oozieerr.E1003, "coordinator-app/@frequency", "Invalid coordinator cron frequency: %s", f.Cron)
		}
		if !next.Before(j.End) {
			return oozieerr.At(oozieerr.E1003, "coordinator-app/@frequency",
				"Coordinator job with frequency '%s' materializes no actions between start and end time.", f.Cron)
		}
		return nil
	}
	if s.settings.CheckMaximumFrequency && f.N < 5 && f.Unit == oozietime.Minute {
		return oozieerr.At(oozieerr.E1003, "coordinator-app/@frequency",
			"Coordinator job with frequency [%d] minutes is faster than allowed maximum of 5 minutes "+
				"(oozie.service.coord.check.maximum.frequency is set to true)", f.N)
	}
	return nil
}
