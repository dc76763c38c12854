package coordinator

import (
	"strconv"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// Frequency is how often a coordinator materializes: N units, or a cron expression.
type Frequency struct {
	// N is the number of units between nominal times (0 for cron).
	N int
	// Unit is MINUTE, DAY, WEEK or MONTH (HOUR and YEAR only appear in stored data), or CRON.
	Unit oozietime.Unit
	// EndOf is END_OF_DAY, END_OF_WEEK or END_OF_MONTH for coord:endOf* frequencies, NONE
	// otherwise.
	EndOf oozietime.Unit
	// Cron is the parsed expression when Unit is CRON.
	Cron *oozietime.CronSpec
}

// Stored returns the frequency and time unit as Oozie stores and reports them: "60" and
// "MINUTE" for coord:hours(1), "1" and "DAY" for coord:endOfDays(1), the expression and
// "CRON" for a cron frequency.
func (f Frequency) Stored() (frequency, timeUnit string) {
	if f.Unit == oozietime.Cron {
		return f.Cron.String(), string(oozietime.Cron)
	}
	return strconv.Itoa(f.N), string(f.Unit)
}

// DataIn is a resolved <data-in>: its dataset and its instance expressions, still
// unevaluated (they are evaluated per action).
type DataIn struct {
	Name          string
	Dataset       *Dataset
	Instances     []string
	StartInstance string
	EndInstance   string
	IsRange       bool
}

// DataOut is a resolved <data-out>.
type DataOut struct {
	Name      string
	Dataset   *Dataset
	Instance  string
	NoCleanup bool
}

// Job is a coordinator application resolved for one submission: what materialization, input
// checks and the engine need. It is built by Submit and stored (see DefinitionXML and
// LoadJob).
type Job struct {
	// Namespace is the coordinator schema namespace of the application.
	Namespace string
	// Name is the application name (the bundle's coordinator name when submitted by a bundle).
	Name      string
	Frequency Frequency
	Start     time.Time
	End       time.Time
	// TimeZone is the job's time zone ID as written; Location is its zone.
	TimeZone    string
	Location    *time.Location
	Timeout     int // minutes
	Concurrency int // negative means unlimited
	Throttle    int // maximum WAITING actions
	Execution   Execution

	DataIns  []DataIn
	DataOuts []DataOut
	// InputLogic is the <input-logic> tree with names and min/wait resolved, or nil.
	InputLogic *LogicNode

	// AppPath is the workflow application path with variables resolved.
	AppPath string
	// Configuration is the action's workflow configuration: names resolved, values as
	// written (they are evaluated when the action starts).
	Configuration []Property
	// SLA is the sla:info block with job variables resolved, or nil.
	SLA *SLADef

	// Conf is the job configuration, parameter defaults included.
	Conf *conf.Properties
	// User is the job's user (user.name).
	User string
	// Format is the processing time zone the job was resolved with.
	Format oozietime.Format
}

// Row returns the coordinator job row for a new submission: status PREP, the resolved
// attributes and controls, and the definition. The engine fills in the id, user, group,
// paths, configuration and times.
func (j *Job) Row() store.CoordJob {
	freq, unit := j.Frequency.Stored()
	return store.CoordJob{
		AppName:        j.Name,
		User:           j.User,
		Status:         store.JobPrep,
		Definition:     j.DefinitionXML(),
		Frequency:      freq,
		TimeUnit:       unit,
		TimeZone:       j.TimeZone,
		Concurrency:    j.Concurrency,
		Timeout:        j.Timeout,
		Throttle:       j.Throttle,
		ExecutionOrder: string(j.Execution),
		StartTime:      j.Start,
		EndTime:        j.End,
	}
}

// nominalTime returns the nominal time of action number k (1-based) of a non-cron job:
// start (moved to the end of its day, week or month for endOf* frequencies) plus (k-1)
// frequencies, in the job's zone.
func (j *Job) nominalTime(start time.Time, k int) time.Time {
	orig := oozietime.MoveToEnd(start, j.Frequency.EndOf, j.Location)
	return oozietime.AddUnits(orig, j.Frequency.Unit, (k-1)*j.Frequency.N, j.Location)
}

// dataNames maps every data-in, data-out and named input-logic node to its kind, for the
// coord:dataIn/dataOut checks.
func (j *Job) dataNames() map[string]string {
	names := map[string]string{}
	for _, d := range j.DataIns {
		names[d.Name] = "data-in"
	}
	for _, d := range j.DataOuts {
		names[d.Name] = "data-out"
	}
	var walk func(n *LogicNode)
	walk = func(n *LogicNode) {
		if n == nil {
			return
		}
		if n.Name != "" {
			names[n.Name] = "data-in"
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(j.InputLogic)
	return names
}
