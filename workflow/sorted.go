package workflow

import "sort"

// sortedKeys returns the keys of m in ascending order, so that messages and
// results do not depend on map iteration order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
