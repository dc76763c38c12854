package conf

import (
	"iter"
	"maps"
	"slices"
	"strings"
)

// Property is one configuration entry.
type Property struct {
	// Name is the property key.
	Name string
	// Value is the raw value, before any substitution.
	Value string
	// Final marks a Hadoop configuration property that later resources may not override
	// (<final>true</final>). It is always false for properties files.
	Final bool
	// Line is the 1-based line of the definition in the file it was read from, zero when
	// the property was not read from a file. It lets callers name the line of a bad value.
	Line int
}

// Properties is an ordered set of configuration properties. Keys keep the position of their
// first definition; setting an existing key replaces its value in place. The zero value is an
// empty set ready to use. A Properties is not safe for concurrent modification.
type Properties struct {
	list  []Property
	index map[string]int
}

// NewProperties returns a set holding the given name/value pairs in order; a name given
// twice keeps its first position and its last value. An odd trailing name is ignored.
func NewProperties(pairs ...string) *Properties {
	p := &Properties{}
	for i := 0; i+1 < len(pairs); i += 2 {
		p.Set(pairs[i], pairs[i+1])
	}
	return p
}

// PropertiesFromMap returns the properties of m in key order, so that what is written from
// a map (a generated *-site.xml, an action configuration) is the same every time.
func PropertiesFromMap(m map[string]string) *Properties {
	p := &Properties{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p.Set(k, m[k])
	}
	return p
}

// Len returns the number of properties.
func (p *Properties) Len() int {
	if p == nil {
		return 0
	}
	return len(p.list)
}

// Get returns the raw value of name and whether it is set.
func (p *Properties) Get(name string) (string, bool) {
	if p == nil {
		return "", false
	}
	i, ok := p.index[name]
	if !ok {
		return "", false
	}
	return p.list[i].Value, true
}

// Value returns the raw value of name, or "" when it is not set.
func (p *Properties) Value(name string) string {
	v, _ := p.Get(name)
	return v
}

// Lookup returns the whole entry for name and whether it is set.
func (p *Properties) Lookup(name string) (Property, bool) {
	if p == nil {
		return Property{}, false
	}
	i, ok := p.index[name]
	if !ok {
		return Property{}, false
	}
	return p.list[i], true
}

// Set sets name to value, keeping the position (and the Final flag) of an existing entry.
func (p *Properties) Set(name, value string) {
	if i, ok := p.index[name]; ok {
		p.list[i].Value = value
		return
	}
	p.Put(Property{Name: name, Value: value})
}

// Put stores prop, replacing the value and Final flag of an existing entry in place.
func (p *Properties) Put(prop Property) {
	if p.index == nil {
		p.index = make(map[string]int)
	}
	if i, ok := p.index[prop.Name]; ok {
		p.list[i] = prop
		return
	}
	p.index[prop.Name] = len(p.list)
	p.list = append(p.list, prop)
}

// Delete removes name and reports whether it was set.
func (p *Properties) Delete(name string) bool {
	if p == nil {
		return false
	}
	i, ok := p.index[name]
	if !ok {
		return false
	}
	p.list = append(p.list[:i], p.list[i+1:]...)
	delete(p.index, name)
	for j := i; j < len(p.list); j++ {
		p.index[p.list[j].Name] = j
	}
	return true
}

// Keys returns the property names in order.
func (p *Properties) Keys() []string {
	if p.Len() == 0 {
		return nil
	}
	keys := make([]string, len(p.list))
	for i, e := range p.list {
		keys[i] = e.Name
	}
	return keys
}

// All iterates over the names and raw values in order.
func (p *Properties) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		if p == nil {
			return
		}
		for _, e := range p.list {
			if !yield(e.Name, e.Value) {
				return
			}
		}
	}
}

// Entries returns a copy of the entries in order.
func (p *Properties) Entries() []Property {
	if p == nil {
		return nil
	}
	return append([]Property(nil), p.list...)
}

// Map returns the properties as a plain map of raw values.
func (p *Properties) Map() map[string]string {
	m := make(map[string]string, p.Len())
	for k, v := range p.All() {
		m[k] = v
	}
	return m
}

// Clone returns an independent copy.
func (p *Properties) Clone() *Properties {
	c := &Properties{}
	if p == nil {
		return c
	}
	c.list = append([]Property(nil), p.list...)
	c.index = make(map[string]int, len(p.list))
	for i, e := range c.list {
		c.index[e.Name] = i
	}
	return c
}

// Merge sets every property of other on p, in other's order; values from other win. Final
// flags are copied along with the values.
func (p *Properties) Merge(other *Properties) {
	for _, e := range other.Entries() {
		p.Put(e)
	}
}

// Trimmed returns a copy with names and values trimmed the way Oozie trims a submitted job
// configuration: leading and trailing characters up to and including U+0020 (spaces and
// control characters) are removed, as Java's String.trim does. When two names become equal
// after trimming, the later value wins.
func (p *Properties) Trimmed() *Properties {
	t := &Properties{}
	for _, e := range p.Entries() {
		e.Name = javaTrim(e.Name)
		e.Value = javaTrim(e.Value)
		t.Put(e)
	}
	return t
}

// javaTrim removes what java.lang.String.trim removes: every code point <= U+0020 at both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}
