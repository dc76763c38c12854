package coordrun

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
)

// confProps reads a configuration XML into the coordinator core's form.
func confProps(xml, name string) (coordinator.Props, error) {
	if strings.TrimSpace(xml) == "" {
		return nil, nil
	}
	p, err := conf.ReadConfigurationXML(strings.NewReader(xml), name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return fromProperties(p), nil
}

// fromProperties converts a configuration to the coordinator core's form.
func fromProperties(p *conf.Properties) coordinator.Props {
	if p == nil {
		return nil
	}
	out := make(coordinator.Props, 0, p.Len())
	for k, v := range p.All() {
		out = append(out, coordinator.Property{Name: k, Value: v})
	}
	return out
}

// toProperties converts the coordinator core's form to a configuration.
func toProperties(ps []coordinator.Property) *conf.Properties {
	out := &conf.Properties{}
	for _, p := range ps {
		out.Set(p.Name, p.Value)
	}
	return out
}

// configurationXML writes ps as a Hadoop configuration document.
func configurationXML(ps []coordinator.Property) (string, error) {
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, toProperties(ps)); err != nil {
		return "", fmt.Errorf("writing configuration: %w", err)
	}
	return b.String(), nil
}
