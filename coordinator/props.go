package coordinator

// Props is a job configuration: name/value pairs in order. For a name given more than once
// the last value wins. The engine converts its configuration type into Props.
type Props []Property

// Get returns the value of name and whether it is set.
func (p Props) Get(name string) (string, bool) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].Name == name {
			return p[i].Value, true
		}
	}
	return "", false
}

// Value returns the value of name, or "" when it is not set.
func (p Props) Value(name string) string {
	v, _ := p.Get(name)
	return v
}

// Set returns p with name set to value: an existing entry is replaced in place, a new one is
// appended. p itself is not modified.
func (p Props) Set(name, value string) Props {
	out := make(Props, 0, len(p)+1)
	found := false
	for _, e := range p {
		if e.Name == name {
			if !found {
				out = append(out, Property{Name: name, Value: value})
				found = true
			}
			continue
		}
		out = append(out, e)
	}
	if !found {
		out = append(out, Property{Name: name, Value: value})
	}
	return out
}

// Merge returns p overridden by each entry of other, in other's order.
func (p Props) Merge(other []Property) Props {
	out := p
	for _, e := range other {
		out = out.Set(e.Name, e.Value)
	}
	return out
}
