package coordinator

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gozie/gozie/conf"
)

// The conversions between Props and conf.Properties, the form the
// configuration XML is read and written in, for the coordinator and bundle
// engines.

// PropsOf converts a configuration to Props, in its order; nil gives nil.
func PropsOf(p *conf.Properties) Props {
	if p == nil {
		return nil
	}
	out := make(Props, 0, p.Len())
	for k, v := range p.All() {
		out = append(out, Property{Name: k, Value: v})
	}
	return out
}

// ToProperties converts ps to a configuration.
func ToProperties(ps Props) *conf.Properties {
	out := &conf.Properties{}
	for _, p := range ps {
		out.Set(p.Name, p.Value)
	}
	return out
}

// ReadConfXML reads a Hadoop configuration document (name says which, in
// errors) into Props; blank text has no properties.
func ReadConfXML(xml, name string) (Props, error) {
	if strings.TrimSpace(xml) == "" {
		return nil, nil
	}
	p, err := conf.ReadConfigurationXML(strings.NewReader(xml), name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return PropsOf(p), nil
}

// ConfXML writes ps as a Hadoop configuration document.
func ConfXML(ps Props) (string, error) {
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, ToProperties(ps)); err != nil {
		return "", fmt.Errorf("writing configuration: %w", err)
	}
	return b.String(), nil
}
