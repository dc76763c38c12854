package coordinator

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/hcat"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// defaultDoneFlag is the readiness file checked when a dataset has no <done-flag>.
const defaultDoneFlag = "_SUCCESS"

// Dataset is a resolved synchronous dataset: a series of instances initial + k×frequency
// (k ≥ 0), computed with calendar arithmetic in the dataset's time zone, each with a URI.
type Dataset struct {
	Name string
	// Frequency is the number of Units between instances (> 0).
	Frequency int
	Unit      oozietime.Unit
	// EndOf is END_OF_DAY, END_OF_WEEK or END_OF_MONTH when the frequency used
	// coord:endOfDays/endOfWeeks/endOfMonths, NONE otherwise.
	EndOf oozietime.Unit
	// InitialInstance is the initial-instance attribute as written (before the end-of
	// adjustment, see Initial).
	InitialInstance time.Time
	TimeZone        string
	Location        *time.Location
	// URITemplate is the template with job variables resolved; ${YEAR}, ${MONTH}, ${DAY},
	// ${HOUR} and ${MINUTE} remain.
	URITemplate string
	// DoneFlag is the <done-flag> text and HasDoneFlag whether the element is present.
	DoneFlag    string
	HasDoneFlag bool
}

// Initial returns the first instance: the initial instance moved to the end of its day, week
// or month for endOf* frequencies.
func (d *Dataset) Initial() time.Time {
	return oozietime.MoveToEnd(d.InitialInstance, d.EndOf, d.Location)
}

// Instance returns instance k (k may be negative: instances before the initial one exist
// arithmetically but never hold data).
func (d *Dataset) Instance(k int) time.Time {
	return oozietime.AddUnits(d.Initial(), d.Unit, k*d.Frequency, d.Location)
}

// IndexAtOrBefore returns the largest k (possibly negative) whose instance is at or before t.
func (d *Dataset) IndexAtOrBefore(t time.Time) int {
	return oozietime.StepIndex(d.Initial(), d.Unit, d.Frequency, d.Location, t)
}

// CurrentIndex returns the index of the current instance at t, the latest instance at or
// before t, and false if t is before the initial instance.
func (d *Dataset) CurrentIndex(t time.Time) (int, bool) {
	if t.Before(d.Initial()) {
		return 0, false
	}
	return d.IndexAtOrBefore(t), true
}

// EffectiveDoneFlag returns the flag checked inside each instance: _SUCCESS without a
// <done-flag> element, its trimmed text otherwise ("" means the directory itself).
func (d *Dataset) EffectiveDoneFlag() string {
	if !d.HasDoneFlag {
		return defaultDoneFlag
	}
	return d.DoneFlag
}

// WithDoneFlag returns the URI whose existence marks the instance at uri as ready. An
// hcat:// partition is its own mark: no done-flag applies (HCatURIHandler.getURIWithDoneFlag).
func (d *Dataset) WithDoneFlag(uri string) string {
	if hcat.IsURI(uri) {
		return uri
	}
	if f := d.EffectiveDoneFlag(); f != "" {
		return uri + "/" + f
	}
	return uri
}

// URI expands the template for an instance. The date variables are the instance's fields in
// the processing time zone (never the dataset's): ${YEAR} unpadded, the others two digits.
func (d *Dataset) URI(instance time.Time, f oozietime.Format) (string, error) {
	lt := instance.In(f.Location())
	two := func(n int) string {
		if n < 10 {
			return "0" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	}
	vars := map[string]any{
		"YEAR":   int64(lt.Year()),
		"MONTH":  two(int(lt.Month())),
		"DAY":    two(lt.Day()),
		"HOUR":   two(lt.Hour()),
		"MINUTE": two(lt.Minute()),
	}
	env := &el.Env{Funcs: el.NewRegistry(), Vars: el.MapVars(vars), Location: f.Location()}
	uri, err := env.EvalString(d.URITemplate)
	if err != nil {
		return "", oozieerr.At(oozieerr.E1004, "dataset "+d.Name+" uri-template", "cannot expand %q: %v", d.URITemplate, err)
	}
	return uri, nil
}

// datasetFromDef builds a Dataset from resolved attribute values.
func datasetFromDef(name string, freq int, unit, endOf oozietime.Unit, initial time.Time, tzID string,
	uriTemplate, doneFlag string, hasDoneFlag bool) (*Dataset, error) {
	loc, err := oozietime.LoadZone(tzID)
	if err != nil {
		return nil, err
	}
	if freq <= 0 {
		return nil, fmt.Errorf("dataset %s: frequency must be greater than zero, got %d", name, freq)
	}
	return &Dataset{Name: name, Frequency: freq, Unit: unit, EndOf: endOf, InitialInstance: initial,
		TimeZone: tzID, Location: loc, URITemplate: uriTemplate, DoneFlag: doneFlag, HasDoneFlag: hasDoneFlag}, nil
}
