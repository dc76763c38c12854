package coordinator

import (
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
)

// ResolvedEvent is a data-in or data-out of one materialized action.
type ResolvedEvent struct {
	Name    string
	Dataset *Dataset
	// URIs are the resolved instances' URIs (without done-flag), in Oozie's order: <instance>
	// elements in document order, ranges newest first.
	URIs []string
	// Unresolved are the coord:latest/future placeholders left for the input check, such as
	// "${coord:latestRange(-3,0)}".
	Unresolved []string
	// NoCleanup is the data-out nocleanup attribute.
	NoCleanup bool
}

// Dependencies returns the URIs to check for the event, each with the dataset's done-flag.
func (e ResolvedEvent) Dependencies() []string {
	out := make([]string, len(e.URIs))
	for i, u := range e.URIs {
		out[i] = e.Dataset.WithDoneFlag(u)
	}
	return out
}

// eventContext returns an EL context for resolving an event of the action, with at most max
// instances (Settings.MaxInstances).
func (j *Job) eventContext(ds *Dataset, action *ActionContext, max int) *ELContext {
	return &ELContext{Format: j.Format, User: j.User, Conf: j.Conf, Dataset: ds, Action: action, Now: action.ActualTime,
		MaxInstances: max}
}

// resolveEvent materializes the instances of one event for an action, at most max of them
// (Settings.MaxInstances; see countInstances).
func (j *Job) resolveEvent(name, kind string, ds *Dataset, instances []string, isRange bool,
	start, end string, action *ActionContext, max int) (ResolvedEvent, error) {
	where := kind + "[" + name + "]"
	c := j.eventContext(ds, action, max)
	var pieces []string
	for _, text := range instances {
		v, err := c.EvalString(PhaseActionCreate, strings.TrimSpace(text))
		if err != nil {
			return ResolvedEvent{}, atWhere(err, where+"/instance")
		}
		pieces = append(pieces, strings.Split(v, instanceSeparator)...)
	}
	if isRange {
		r, err := rangeInstances(c, start, end)
		if err != nil {
			return ResolvedEvent{}, atWhere(err, where)
		}
		pieces = append(pieces, r...)
	}
	ev := ResolvedEvent{Name: name, Dataset: ds}
	for _, p := range pieces {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
		case strings.Contains(p, "latest") || strings.Contains(p, "future"):
			ev.Unresolved = append(ev.Unresolved, p)
		default:
			t, err := j.Format.Parse(p)
			if err != nil {
				return ResolvedEvent{}, oozieerr.WrapAt(oozieerr.E1012, where, err, "instance %q is not a date", p)
			}
			uri, err := ds.URI(t, j.Format)
			if err != nil {
				return ResolvedEvent{}, atWhere(err, where)
			}
			ev.URIs = append(ev.URIs, uri)
		}
	}
	return ev, nil
}

// atWhere sets the location of a coordinator error that has none.
func atWhere(err error, where string) error {
	if e, ok := err.(*Error); ok && e.Where == "" {
		e.Where = where
	}
	return err
}

// rangeInstances expands a start-instance/end-instance pair. Instance functions keep their
// evaluated arguments in the action-create-inst phase; a variable holding the call as text
// (start-instance ${startInstance} with startInstance=coord:current(-2)) is read the way
// Oozie reads it.
func rangeInstances(c *ELContext, startText, endText string) ([]string, error) {
	sr, err := instanceOf(c, startText)
	if err != nil {
		return nil, err
	}
	er, err := instanceOf(c, endText)
	if err != nil {
		return nil, err
	}
	if err := checkSameFamily(sr, er); err != nil {
		return nil, err
	}
	var joined string
	switch sr.kind {
	case "absolute":
		joined, err = c.absoluteRange(sr.date, er.n)
	case "endOfMonths", "endOfWeeks", "endOfDays":
		joined, err = c.absoluteRange(c.Format.Format(c.endOfStart(sr.kind, sr.n)), er.n)
	case "offset":
		return offsetRange(c, sr, er)
	case "current", "latest", "future":
		if sr.n > er.n {
			return nil, oozieerr.At(oozieerr.E1010, "", "start-instance should be equal or earlier than the end-instance")
		}
		what := "start-instance " + sr.String() + " to end-instance " + er.String()
		switch sr.kind {
		case "current":
			joined, err = c.currentRange(sr.n, er.n, what)
		case "latest":
			if err = c.checkLookup(false, sr.n, er.n, 0, what); err == nil {
				joined = "${coord:latestRange(" + strconv.Itoa(sr.n) + "," + strconv.Itoa(er.n) + ")}"
			}
		default:
			limit, _ := strconv.Atoi(strings.TrimSpace(er.limit))
			if err = c.checkLookup(true, sr.n, er.n, limit, what); err == nil {
				joined = "${coord:futureRange(" + strconv.Itoa(sr.n) + "," + strconv.Itoa(er.n) + ",'" + er.limit + "')}"
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return strings.Split(joined, instanceSeparator), nil
}

// offsetRange expands start/end offsets: every instance between the raw start and end times,
// newest first, stopping at the initial instance. Oozie compares the two offsets with a
// formula on Java Calendar field constants, which rejects valid ranges such as
// offset(-1, DAY)..offset(-30, MINUTE); gozie compares the resolved times instead.
func offsetRange(c *ELContext, sr, er instanceRef) ([]string, error) {
	su, err := offsetUnit("offset", sr.unit)
	if err != nil {
		return nil, err
	}
	eu, err := offsetUnit("offset", er.unit)
	if err != nil {
		return nil, err
	}
	rawStart, ok1 := c.offsetRaw(sr.n, su)
	rawEnd, ok2 := c.offsetRaw(er.n, eu)
	if !ok1 || !ok2 {
		return nil, nil
	}
	if rawStart.After(rawEnd) {
		return nil, oozieerr.At(oozieerr.E1010, "", "start-instance should be equal or earlier than the end-instance")
	}
	ds := c.Dataset
	first := ds.IndexAtOrBefore(rawStart)
	if ds.Instance(first).Before(rawStart) {
		first++
	}
	last := ds.IndexAtOrBefore(rawEnd)
	if err := c.countInstances(span(max(first, 0), last), "start-instance "+sr.String()+" to end-instance "+er.String()); err != nil {
		return nil, err
	}
	var out []string
	for k := last; k >= first && k >= 0; k-- {
		out = append(out, c.Format.Format(ds.Instance(k)))
	}
	return out, nil
}

// checkSameFamily applies Oozie's rule on start/end pairs: the same function, except that
// absolute and endOf* starts go with a current end.
func checkSameFamily(sr, er instanceRef) error {
	if sr.kind == er.kind {
		return nil
	}
	switch sr.kind {
	case "absolute", "endOfMonths", "endOfWeeks", "endOfDays":
		if er.kind != "current" {
			return oozieerr.At(oozieerr.E1010, "", "Only start-instance as absolute/endOfMonths/endOfWeeks/endOfDays and "+
				"end-instance as current is supported. start = %s  end = %s", sr, er)
		}
		return nil
	}
	return oozieerr.At(oozieerr.E1010, "", "start-instance and end-instance both should be either latest or current "+
		"or future or offset. start %s and end %s", sr, er)
}

// instanceOf evaluates a start-instance or end-instance text to an instance reference.
func instanceOf(c *ELContext, text string) (instanceRef, error) {
	v, err := c.Eval(PhaseActionCreateInst, strings.TrimSpace(text))
	if err != nil {
		return instanceRef{}, err
	}
	if r, ok := v.(instanceRef); ok {
		if strings.HasSuffix(r.kind, "Range") {
			return instanceRef{}, oozieerr.At(oozieerr.E1010, "", "%s cannot be a start-instance or end-instance", r)
		}
		return r, nil
	}
	s, _ := v.(string)
	return parseInstanceText(s)
}

// instanceKinds are the instance functions in the order Oozie looks for them in a text.
var instanceKinds = []string{"current", "latest", "future", "offset", "absolute", "endOfMonths", "endOfWeeks", "endOfDays"}

// parseInstanceText reads an instance function call written as text ("coord:current(-2)"),
// as Oozie does for start/end instances that a variable supplies: the function is the first
// known name found in the text, numbers may be written as decimals (truncated).
func parseInstanceText(s string) (instanceRef, error) {
	var r instanceRef
	for _, k := range instanceKinds {
		if strings.Contains(s, k) {
			r.kind = k
			break
		}
	}
	open, closing := strings.Index(s, "("), strings.LastIndex(s, ")")
	if r.kind == "" || open < 0 || closing <= open {
		return r, oozieerr.At(oozieerr.E1010, "", "Unformatted function :%s", s)
	}
	inner := strings.TrimSpace(s[open+1 : closing])
	switch r.kind {
	case "absolute":
		r.date = strings.Trim(inner, `"'`)
		return r, nil
	case "future", "offset":
		comma := strings.LastIndex(inner, ",")
		if comma < 0 {
			return r, oozieerr.At(oozieerr.E1010, "", "Unformatted function :%s", s)
		}
		rest := strings.Trim(strings.TrimSpace(inner[comma+1:]), `"'`)
		inner = strings.TrimSpace(inner[:comma])
		if r.kind == "future" {
			r.limit = rest
		} else {
			r.unit = rest
		}
	}
	f, err := strconv.ParseFloat(inner, 64)
	if err != nil || f > 1<<31 || f < -(1<<31) {
		return r, oozieerr.At(oozieerr.E1010, "", "Unformatted function :%s", s)
	}
	r.n = int(f)
	return r, nil
}

// pullDependencies renders the missing-dependency string of new action: every data-in's
// dependencies (URI plus done-flag) joined by '#', then for each data-in with unresolved
// latest/future instances "!!" and those instances joined by '#'.
func pullDependencies(ins []ResolvedEvent) string {
	var deps []string
	var b strings.Builder
	for _, e := range ins {
		deps = append(deps, e.Dependencies()...)
	}
	b.WriteString(strings.Join(deps, instanceSeparator))
	for _, e := range ins {
		if len(e.Unresolved) > 0 {
			b.WriteString(unresolvedSeparator)
			b.WriteString(strings.Join(e.Unresolved, instanceSeparator))
		}
	}
	return b.String()
}

// unresolvedSeparator separates resolved from unresolved dependencies.
const unresolvedSeparator = "!!"

// resolveEvents materializes every data-in and data-out of an action, each with at most max
// instances (Settings.MaxInstances).
func (j *Job) resolveEvents(action *ActionContext, max int) (ins, outs []ResolvedEvent, err error) {
	for _, d := range j.DataIns {
		ev, err := j.resolveEvent(d.Name, "data-in", d.Dataset, d.Instances, d.IsRange, d.StartInstance, d.EndInstance,
			action, max)
		if err != nil {
			return nil, nil, err
		}
		ins = append(ins, ev)
	}
	for _, d := range j.DataOuts {
		ev, err := j.resolveEvent(d.Name, "data-out", d.Dataset, []string{d.Instance}, false, "", "", action, max)
		if err != nil {
			return nil, nil, err
		}
		if len(ev.Unresolved) > 0 {
			return nil, nil, oozieerr.At(oozieerr.E1006, "data-out["+d.Name+"]",
				"coord:latest()/future() not permitted in output-event")
		}
		ev.NoCleanup = d.NoCleanup
		outs = append(outs, ev)
	}
	return ins, outs, nil
}

// actionContextFor builds the context of action number k.
func (j *Job) actionContextFor(jobID string, k int, nominal, actual time.Time) *ActionContext {
	return &ActionContext{ID: ActionID(jobID, k), Name: j.Name, NominalTime: nominal, ActualTime: actual,
		Location: j.Location}
}

// ActionID returns the id of action number k of a coordinator job: <jobID>@<k>.
func ActionID(jobID string, k int) string {
	return jobID + "@" + strconv.Itoa(k)
}
