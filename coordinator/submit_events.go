package coordinator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// events resolves the datasets, input and output events and the input logic.
func (s *submitter) events() error {
	datasets, err := s.datasets()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, d := range s.app.InputEvents {
		where := fmt.Sprintf("input-events/data-in[%s]", d.Name)
		if seen[d.Name] {
			return oozieerr.At(oozieerr.E1003, where, "Duplicate dataIn name %s", d.Name)
		}
		seen[d.Name] = true
		ds, err := s.eventDataset(where, d.Dataset, datasets)
		if err != nil {
			return err
		}
		texts := d.Instances
		tags := make([]string, len(texts))
		for i := range tags {
			tags[i] = "instance"
		}
		if d.IsRange {
			texts = []string{d.StartInstance, d.EndInstance}
			tags = []string{"start-instance", "end-instance"}
		}
		for i, text := range texts {
			if err := s.checkInstance(where+"/"+tags[i], "input-events", tags[i], text); err != nil {
				return err
			}
		}
		s.job.DataIns = append(s.job.DataIns, DataIn{Name: d.Name, Dataset: ds, Instances: d.Instances,
			StartInstance: d.StartInstance, EndInstance: d.EndInstance, IsRange: d.IsRange})
	}
	seen = map[string]bool{}
	for _, d := range s.app.OutputEvents {
		where := fmt.Sprintf("output-events/data-out[%s]", d.Name)
		if seen[d.Name] {
			return oozieerr.At(oozieerr.E1003, where, "Duplicate dataOut name %s", d.Name)
		}
		seen[d.Name] = true
		ds, err := s.eventDataset(where, d.Dataset, datasets)
		if err != nil {
			return err
		}
		if err := s.checkInstance(where+"/instance", "output-events", "instance", d.Instance); err != nil {
			return err
		}
		s.job.DataOuts = append(s.job.DataOuts, DataOut{Name: d.Name, Dataset: ds, Instance: d.Instance,
			NoCleanup: d.NoCleanup})
	}
	if s.app.InputLogic != nil {
		logic, err := s.inputLogic(s.app.InputLogic)
		if err != nil {
			return err
		}
		s.job.InputLogic = logic
	}
	return nil
}

// eventDataset resolves the dataset attribute of an event and finds the dataset.
func (s *submitter) eventDataset(where, text string, datasets map[string]*Dataset) (*Dataset, error) {
	name, err := s.evalString(PhaseSubmitInstances, where+"/@dataset", text)
	if err != nil {
		return nil, err
	}
	ds, ok := datasets[name]
	if !ok {
		return nil, oozieerr.At(oozieerr.E1003, where, "undefined dataset: %s", name)
	}
	return ds, nil
}

// checkInstance validates one instance element: not empty, a single instance (no comma
// outside ${...}), and evaluable in the submit-instances phase.
func (s *submitter) checkInstance(where, events, tag, text string) error {
	if strings.TrimSpace(text) == "" {
		return oozieerr.At(oozieerr.E1021, where, "<%s> tag within %s is empty!", tag, events)
	}
	static, ok := staticText(text)
	if !ok {
		return oozieerr.At(oozieerr.E1021, where, "%s instance '%s' is not valid. Coordinator job NOT SUBMITTED.", events, text)
	}
	if strings.Contains(static, ",") {
		return oozieerr.At(oozieerr.E1021, where,
			"%s %s '%s' contains more than one date %s. Coordinator job NOT SUBMITTED.", events, tag, text, tag)
	}
	_, err := s.evalString(PhaseSubmitInstances, where, text)
	return err
}

// staticText returns text without its ${...} expressions, and false if an expression is not
// closed.
func staticText(text string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(text, "${")
		if i < 0 {
			b.WriteString(text)
			return b.String(), true
		}
		b.WriteString(text[:i])
		end, ok := exprEnd(text, i+2)
		if !ok {
			return "", false
		}
		text = text[end+1:]
	}
}

// exprEnd returns the index of the '}' closing an expression that starts at i, skipping
// string literals.
func exprEnd(text string, i int) (int, bool) {
	var quote byte
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '}':
			return i, true
		}
	}
	return 0, false
}

// inputLogic resolves the names and min/wait attributes of the input-logic tree and checks
// that its data-in nodes name declared data-ins.
func (s *submitter) inputLogic(n *LogicNode) (*LogicNode, error) {
	out := &LogicNode{Op: n.Op}
	fields := []struct {
		src string
		dst *string
		p   Phase
	}{{n.Name, &out.Name, PhaseSubmitInstances}, {n.Dataset, &out.Dataset, PhaseSubmitInstances},
		{n.Min, &out.Min, PhaseSubmitNoFuncs}, {n.Wait, &out.Wait, PhaseSubmitNoFuncs}}
	for _, f := range fields {
		v, err := s.evalString(f.p, "input-logic/"+n.Op, f.src)
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	for _, v := range []string{out.Min, out.Wait} {
		if _, err := strconv.Atoi(v); v != "" && err != nil {
			return nil, oozieerr.At(oozieerr.E1028, "input-logic/"+n.Op, "min and wait must be integers, got %q", v)
		}
	}
	if out.Op == "data-in" {
		found := false
		for _, d := range s.job.DataIns {
			found = found || d.Name == out.Dataset
		}
		if !found {
			return nil, oozieerr.At(oozieerr.E1028, "input-logic/data-in",
				"input-logic data-in %q does not name a data-in of input-events", out.Dataset)
		}
	}
	for _, c := range n.Children {
		child, err := s.inputLogic(c)
		if err != nil {
			return nil, err
		}
		out.Children = append(out.Children, child)
	}
	return out, nil
}
