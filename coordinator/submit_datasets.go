package coordinator

import (
	"fmt"

	"github.com/gozie/gozie/oozieerr"
)

// datasets resolves the included and inline datasets: included files are read and merged
// (a name defined twice across included files is an error), and an inline dataset replaces
// an included one of the same name.
func (s *submitter) datasets() (map[string]*Dataset, error) {
	defs := map[string]DatasetDef{}
	fromInclude := map[string]string{}
	for _, inc := range s.app.Includes {
		path, err := s.evalString(PhaseSubmitNoFuncs, "datasets/include", inc)
		if err != nil {
			return nil, err
		}
		if s.req.ReadInclude == nil {
			return nil, oozieerr.At(oozieerr.E1003, "datasets/include", "cannot read dataset file %s: no reader", path)
		}
		data, err := s.req.ReadInclude(path)
		if err != nil {
			return nil, oozieerr.WrapAt(oozieerr.E1003, "datasets/include", err, "cannot read dataset file %s", path)
		}
		included, err := ParseDatasets(data)
		if err != nil {
			return nil, oozieerr.WrapAt(ErrorCode(err), "datasets/include", err, "invalid dataset file %s", path)
		}
		for _, d := range included {
			if other, dup := fromInclude[d.Name]; dup {
				return nil, oozieerr.At(oozieerr.E1003, "datasets/include", "Duplicate Dataset %s in %s and %s", d.Name, other, path)
			}
			fromInclude[d.Name] = path
			defs[d.Name] = d
		}
	}
	for _, d := range s.app.Datasets {
		defs[d.Name] = d
	}
	out := make(map[string]*Dataset, len(defs))
	for name, d := range defs {
		ds, err := s.dataset(d)
		if err != nil {
			return nil, err
		}
		out[name] = ds
	}
	return out, nil
}

// dataset resolves one dataset definition.
func (s *submitter) dataset(d DatasetDef) (*Dataset, error) {
	where := fmt.Sprintf("dataset[%s]", d.Name)
	if d.Async {
		return nil, oozieerr.At(oozieerr.E1003, where, "Asynchronous Dataset is not supported yet")
	}
	freq, err := s.parseFrequency(where+"/@frequency", d.Frequency, false)
	if err != nil {
		return nil, err
	}
	initial, err := s.parseDate(PhaseSubmitInitialInstance, "initial-instance", where+"/@initial-instance", d.InitialInstance)
	if err != nil {
		return nil, err
	}
	if initial.Before(minInitialInstance) {
		return nil, oozieerr.At(oozieerr.E1021, where+"/@initial-instance",
			"Dataset initial-instance %s is earlier than the default initial instance %s",
			s.req.Format.Format(initial), s.req.Format.Format(minInitialInstance))
	}
	tz, err := s.parseZone("timezone", where+"/@timezone", d.TimeZone)
	if err != nil {
		return nil, err
	}
	uri, err := s.evalString(PhaseSubmitNoFuncs, where+"/uri-template", d.URITemplate)
	if err != nil {
		return nil, err
	}
	flag := ""
	if d.HasDoneFlag {
		if flag, err = s.evalString(PhaseSubmitNoFuncs, where+"/done-flag", d.DoneFlag); err != nil {
			return nil, err
		}
	}
	ds, err := datasetFromDef(d.Name, freq.N, freq.Unit, freq.EndOf, initial, tz, uri, flag, d.HasDoneFlag)
	if err != nil {
		return nil, oozieerr.WrapAt(oozieerr.E1003, where, err, "invalid dataset")
	}
	return ds, nil
}

// action resolves the workflow app-path and configuration and validates the SLA block.
func (s *submitter) action() error {
	j, a := s.job, s.app.Action
	var err error
	if j.AppPath, err = s.evalString(PhaseSubmitNoFuncs, "action/workflow/app-path", a.AppPath); err != nil {
		return err
	}
	s.ctx.DataNames = j.dataNames()
	for _, p := range a.Configuration {
		where := fmt.Sprintf("action/workflow/configuration/property[%s]", p.Name)
		name, err := s.evalString(PhaseSubmitData, where+"/name", p.Name)
		if err != nil {
			return err
		}
		// The value is only checked here; it is evaluated when the action starts.
		if _, err := s.evalString(PhaseSubmitData, where+"/value", p.Value); err != nil {
			return err
		}
		j.Configuration = append(j.Configuration, Property{Name: name, Value: p.Value})
	}
	if a.SLA == nil {
		return nil
	}
	sla := &SLADef{Namespace: a.SLA.Namespace}
	for _, f := range a.SLA.Fields {
		where := "action/sla:info/" + f.Name
		// Variables are resolved now where possible; a field that needs later functions
		// stays as written (Oozie ignores the failure here).
		v, err := s.ctx.EvalString(PhaseSubmitNoFuncs, f.Value)
		if err != nil {
			v = f.Value
		}
		if _, err := s.evalString(PhaseSLASubmit, where, v); err != nil {
			return err
		}
		sla.Fields = append(sla.Fields, Property{Name: f.Name, Value: v})
	}
	j.SLA = sla
	return nil
}
