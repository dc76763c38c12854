package coordinator

import (
	"errors"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// Phase names an EL evaluation phase of a coordinator, as Oozie names its evaluator groups.
// A coord: function not available in a phase is an unknown function there.
type Phase string

// Evaluation phases, in the order a coordinator goes through them.
const (
	// PhaseSubmitFreq evaluates coordinator and dataset frequencies: coord:minutes, hours,
	// days, months, endOfDays, endOfWeeks, endOfMonths, conf, user.
	PhaseSubmitFreq Phase = "coord-job-submit-freq"
	// PhaseSubmitNoFuncs resolves variables only (start, end, time zones, controls, URI
	// templates, app-path); ${YEAR} … ${MINUTE} are left as they are.
	PhaseSubmitNoFuncs Phase = "coord-job-submit-nofuncs"
	// PhaseSubmitInitialInstance is PhaseSubmitNoFuncs plus coord:dateOffset and
	// coord:dateTzOffset, for dataset initial instances.
	PhaseSubmitInitialInstance Phase = "coord-job-submit-initial-instance"
	// PhaseWaitTimeout evaluates <timeout>: coord:minutes, hours, days, months.
	PhaseWaitTimeout Phase = "coord-job-wait-timeout"
	// PhaseSubmitInstances validates instance expressions: instance functions are echoed as
	// text, hoursInDay/daysInMonth/tzOffset return dummies (24, 30, 3).
	PhaseSubmitInstances Phase = "coord-job-submit-instances"
	// PhaseSubmitData validates workflow configuration values: data and action functions
	// are echoed, coord:dataIn/dataOut names must be declared.
	PhaseSubmitData Phase = "coord-job-submit-data"
	// PhaseSLASubmit validates sla:info values; coord:nominalTime returns a dummy.
	PhaseSLASubmit Phase = "coord-sla-submit"
	// PhaseActionCreate resolves <instance> elements at materialization: current,
	// currentRange, offset, absoluteRange are resolved, latest/future echoed.
	PhaseActionCreate Phase = "coord-action-create"
	// PhaseActionCreateInst evaluates start-instance/end-instance at materialization: the
	// instance functions are kept as references (their arguments evaluated) to expand ranges.
	PhaseActionCreateInst Phase = "coord-action-create-inst"
	// PhaseSLACreate resolves sla:info values of a new action.
	PhaseSLACreate Phase = "coord-sla-create"
	// PhaseActionStart resolves latest/future during input checks and the workflow
	// configuration when an action becomes ready.
	PhaseActionStart Phase = "coord-action-start"
)

// ExistsFunc tells whether a dataset URI exists; the caller backs it with HDFS or the local
// filesystem. The URI already includes the done-flag.
type ExistsFunc func(uri string) (bool, error)

// DataValue is what coord:dataIn/dataOut return for one event in the action-start phase.
type DataValue struct {
	// URIs are the resolved URIs of the event, in <uris> order.
	URIs []string
	// Unresolved is set while latest/future instances remain; coord:dataIn then returns
	// itself unresolved.
	Unresolved bool
}

// ActionContext describes the action an expression is evaluated for.
type ActionContext struct {
	// ID is the action id, <jobID>@<number>.
	ID string
	// Name is the coordinator application name.
	Name string
	// NominalTime is the action's nominal time.
	NominalTime time.Time
	// ActualTime is when the action was materialized.
	ActualTime time.Time
	// Location is the job's time zone.
	Location *time.Location
}

// ELContext is the state coord: functions read; it travels in el.Env.Data. A context serves
// one evaluation at a time: the frequency functions record in it the unit they select, and
// coord:latest/future record what they resolved.
type ELContext struct {
	// Format is the processing time zone and mask.
	Format oozietime.Format
	// User is the job's user (coord:user()).
	User string
	// Conf is the job configuration (variables and coord:conf).
	Conf *conf.Properties

	// Unit and EndOf are set by the frequency functions: the last one evaluated wins.
	Unit  oozietime.Unit
	EndOf oozietime.Unit

	// DataNames maps declared data-in, data-out and input-logic names to "data-in" or
	// "data-out", for the submission checks of coord:dataIn/dataOut.
	DataNames map[string]string

	// Dataset is the dataset of the event being resolved (instance functions).
	Dataset *Dataset
	// Action is the action being materialized or started.
	Action *ActionContext

	// DataIn and DataOut hold the events' URIs in the action-start phase.
	DataIn  map[string]DataValue
	DataOut map[string]DataValue
	// Logic resolves coord:dataIn of an input-logic node name; nil without input-logic.
	Logic func(name string) (uris string, ok bool, err error)

	// Exists answers existence checks for coord:latest and coord:future.
	Exists ExistsFunc
	// Now is the current time; coord:latest uses it instead of the actual time when
	// LatestUsesCurrentTime is set (oozie.service.ELService.latest-el.use-current-time).
	Now                   time.Time
	LatestUsesCurrentTime bool
	// MaxInstances bounds the instances of the event being resolved (Settings.MaxInstances;
	// zero means DefaultMaxInstances). Every instance function counts what it names against it
	// before expanding anything (see countInstances).
	MaxInstances int

	// instances counts the instances named so far in this context, for MaxInstances.
	instances int64

	// resolved and resolvedURIs report what the last coord:latest/future call found.
	resolved     bool
	resolvedURIs []string
}

// context returns the coordinator context of an evaluation.
func context(env *el.Env) (*ELContext, error) {
	if env != nil {
		if c, ok := env.Data.(*ELContext); ok && c != nil {
			return c, nil
		}
	}
	return nil, errors.New("coordinator EL function called without a coordinator context")
}

// env builds an evaluation environment for phase p over the context.
func (c *ELContext) env(p Phase) *el.Env {
	vars := []func(string) (any, bool){c.confVar}
	switch p {
	case PhaseSubmitNoFuncs, PhaseSubmitInitialInstance:
		vars = append(vars, el.MapVars(el.DateEchoConstants()))
	case PhaseSLASubmit, PhaseSLACreate:
		vars = append(vars, el.MapVars(el.SLAConstants()))
	}
	now := c.Now
	return &el.Env{
		Funcs:    registries[p],
		Vars:     el.ChainVars(vars...),
		Data:     c,
		Now:      func() time.Time { return now },
		Location: c.Format.Location(),
	}
}

// confVar resolves a variable from the job configuration.
func (c *ELContext) confVar(name string) (any, bool) {
	v, ok := c.Conf.Get(name)
	if !ok {
		return nil, false
	}
	return v, true
}

// Eval evaluates text in phase p with this context, keeping the value's type when the text
// is exactly one ${...}. Errors are *Error with code E1004, or the code of a coordinator
// error raised inside (E1010 for an invalid instance range).
func (c *ELContext) Eval(p Phase, text string) (any, error) {
	v, err := c.env(p).Eval(text)
	if err != nil {
		code := oozieerr.Code(oozieerr.E1004)
		var inner *Error
		if errors.As(err, &inner) {
			code = inner.Code
		}
		return nil, oozieerr.WrapAt(code, "", err, "Unable to evaluate [%s] in phase %s", text, p)
	}
	return v, nil
}

// EvalString is Eval converted to a string as EL does.
func (c *ELContext) EvalString(p Phase, text string) (string, error) {
	v, err := c.Eval(p, text)
	if err != nil {
		return "", err
	}
	return el.ToString(v), nil
}

// Registry returns the coord: functions of phase p together with EL's basic functions, for
// callers that build their own el.Env (Env.Data must then be an *ELContext).
func Registry(p Phase) *el.Registry {
	return registries[p].With(nil)
}

// registries holds one prebuilt registry per phase; registries are read-only once built.
var registries = buildRegistries()
