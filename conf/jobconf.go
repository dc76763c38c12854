package conf

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// What the coordinator and bundle engines need of a job configuration, which they keep
// as *Properties and store as a Hadoop configuration document.

// PropertiesOf returns a set holding entries in order, as Put stores them: a name given
// twice keeps its first position and its last value.
func PropertiesOf(entries ...Property) *Properties {
	p := &Properties{}
	for _, e := range entries {
		p.Put(e)
	}
	return p
}

// Plain returns a copy holding only the names and values, in order, without Final flags or
// lines: what a job keeps of a submitted configuration.
func (p *Properties) Plain() *Properties {
	out := &Properties{}
	for k, v := range p.All() {
		out.Set(k, v)
	}
	return out
}

// Sorted returns a plain copy (see Plain) in name order.
func (p *Properties) Sorted() *Properties {
	names := p.Keys()
	slices.Sort(names)
	out := &Properties{}
	for _, k := range names {
		out.Set(k, p.Value(k))
	}
	return out
}

// ParseConfigurationXML reads a Hadoop configuration document held in text (name says
// which, in errors) into plain properties (see Plain); blank text has none.
func ParseConfigurationXML(text, name string) (*Properties, error) {
	if strings.TrimSpace(text) == "" {
		return &Properties{}, nil
	}
	p, err := ReadConfigurationXML(strings.NewReader(text), name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return p.Plain(), nil
}

// ConfigurationXML returns the names and values of p as a Hadoop configuration document
// (WriteConfigurationXML, without Final flags).
func (p *Properties) ConfigurationXML() (string, error) {
	var b bytes.Buffer
	if err := WriteConfigurationXML(&b, p.Plain()); err != nil {
		return "", fmt.Errorf("writing configuration: %w", err)
	}
	return b.String(), nil
}
