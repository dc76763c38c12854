package coordinator

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/hcat"
)

// The coord: HCatalog functions (Oozie's HCatELFunctions) read the hcat://
// URIs of a data-in or data-out: its database and table, the partition
// filter of its instances for pig, hive or java, the smallest and largest
// value of a partition key, and the partition of a data-out. The submission
// phases echo them (after checking the event's name); the action-start phase
// resolves them, echoing those of a data-in whose coord:latest/future
// instances are not resolved yet.

// hcatEchoes are the HCatalog functions of the submit-data phase: name, arity.
var hcatEchoes = []struct {
	name  string
	arity int
}{
	{"databaseIn", 1}, {"databaseOut", 1}, {"tableIn", 1}, {"tableOut", 1},
	{"database", 2}, {"table", 2},
	{"dataInPartitionFilter", 2}, {"dataInPartitionPigFilter", 1},
	{"dataInPartitionMin", 2}, {"dataInPartitionMax", 2}, {"dataInPartitions", 2},
	{"dataOutPartitions", 1}, {"dataOutPartitionValue", 2},
}

// hcatOutputOnly are the functions of the SLA phases (they name data-outs).
var hcatOutputOnly = map[string]bool{"databaseOut": true, "tableOut": true, "dataOutPartitions": true, "dataOutPartitionValue": true}

// registerHCat adds the HCatalog functions to the phases that have them
// (oozie-default.xml's coord-job-submit-data, coord-sla-submit,
// coord-action-start and coord-sla-create).
func registerHCat(out map[Phase]*el.Registry) {
	for _, f := range hcatEchoes {
		out[PhaseSubmitData].RegisterArity("coord:"+f.name, f.arity, hcatEcho(f.name))
		if hcatOutputOnly[f.name] {
			out[PhaseSLASubmit].RegisterArity("coord:"+f.name, f.arity, hcatEcho(f.name))
		}
	}
	start := map[string]struct {
		arity int
		fn    el.Func
	}{
		"databaseIn":               {1, hcatTablePart(false, false)},
		"databaseOut":              {1, hcatTablePart(true, false)},
		"tableIn":                  {1, hcatTablePart(false, true)},
		"tableOut":                 {1, hcatTablePart(true, true)},
		"database":                 {2, hcatTablePartTyped(false)},
		"table":                    {2, hcatTablePartTyped(true)},
		"dataInPartitionFilter":    {2, fnDataInPartitionFilter},
		"dataInPartitionPigFilter": {1, fnDataInPartitionPigFilter},
		"dataInPartitionMin":       {2, hcatMinMax("dataInPartitionMin", -1)},
		"dataInPartitionMax":       {2, hcatMinMax("dataInPartitionMax", 1)},
		"dataInPartitions":         {2, fnDataInPartitions},
		"dataOutPartitions":        {1, fnDataOutPartitions},
		"dataOutPartitionValue":    {2, fnDataOutPartitionValue},
	}
	for name, f := range start {
		out[PhaseActionStart].RegisterArity("coord:"+name, f.arity, f.fn)
		if hcatOutputOnly[name] {
			out[PhaseSLACreate].RegisterArity("coord:"+name, f.arity, f.fn)
		}
	}
}

// hcatEcho is a submission-phase HCatalog function: the event must be a
// declared data-in or data-out ("data set name X is not valid"), and the
// call is echoed with its arguments quoted.
func hcatEcho(fn string) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		name := argString(args, 0)
		if k := c.DataNames[name]; k != "data-in" && k != "data-out" {
			return nil, fmt.Errorf("data set name %s is not valid", name)
		}
		return echoCall(fn, ", ", quoteArgs(args)...), nil
	}
}

// quoteArgs renders arguments as Oozie's HCatalog echoes do: each in single
// quotes.
func quoteArgs(args []any) []string {
	out := make([]string, len(args))
	for i := range args {
		out[i] = "'" + argString(args, i) + "'"
	}
	return out
}

// hcatData returns the URIs of a data-in (or data-out), joined by ",",
// whether they are still unresolved, and whether the event has any.
func hcatData(c *ELContext, name string, out bool) (uris string, unresolved, ok bool, err error) {
	m := c.DataIn
	if out {
		m = c.DataOut
	}
	if v, found := m[name]; found {
		return strings.Join(v.URIs, dirSeparator), v.Unresolved, true, nil
	}
	if !out && c.Logic != nil {
		s, resolved, err := c.Logic(name)
		if err != nil {
			return "", false, false, err
		}
		return s, !resolved, true, nil
	}
	return "", false, false, nil
}

// javaURIError renders a parse failure as Java prints a URISyntaxException.
func javaURIError(err error) string {
	var se *hcat.SyntaxError
	if errors.As(err, &se) {
		return "java.net.URISyntaxException: " + se.Error()
	}
	return err.Error()
}

// firstURI parses the first of an event's URIs (HCatELFunctions'
// getURIFromResolved).
func firstURI(uris string) (hcat.URI, error) {
	first, _, _ := strings.Cut(uris, dirSeparator)
	u, err := hcat.Parse(first)
	if err != nil {
		return hcat.URI{}, oozieErrorf("HCat URI can't be parsed %s", javaURIError(err))
	}
	return u, nil
}

// hcatTablePart is coord:databaseIn/Out and coord:tableIn/Out: the database
// or table of the event's first URI, "" when the event has none.
func hcatTablePart(out, table bool) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		return hcatTableOf(c, argString(args, 0), out, table)
	}
}

// hcatTablePartTyped is the two-argument coord:database and coord:table of
// Oozie 3 (name, 'input' or 'output').
func hcatTablePartTyped(table bool) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		return hcatTableOf(c, argString(args, 0), argString(args, 1) != "input", table)
	}
}

func hcatTableOf(c *ELContext, name string, out, table bool) (any, error) {
	uris, _, ok, err := hcatData(c, name, out)
	if err != nil || !ok {
		return "", err
	}
	u, err := firstURI(uris)
	if err != nil {
		return nil, err
	}
	if table {
		return u.Table, nil
	}
	return u.DB, nil
}

// partitionFilter joins the filters of every URI with " OR ".
func partitionFilter(uris, lang string) (string, error) {
	var parts []string
	for s := range strings.SplitSeq(uris, dirSeparator) {
		u, err := hcat.Parse(s)
		if err != nil {
			return "", oozieErrorf("Parsing exception for HCatURI %s. details: %s", s, javaURIError(err))
		}
		parts = append(parts, u.PartitionFilter(lang))
	}
	return strings.Join(parts, " OR "), nil
}

// fnDataInPartitionFilter is coord:dataInPartitionFilter(name, lang): the
// instances' partitions as a filter for pig ("==") or hive and java ("="),
// OR-ed.
func fnDataInPartitionFilter(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	name, lang := argString(args, 0), argString(args, 1)
	uris, unresolved, _, err := hcatData(c, name, false)
	if err != nil {
		return nil, err
	}
	if unresolved {
		return echoCall("dataInPartitionFilter", ", ", quoteArgs(args)...), nil
	}
	return partitionFilter(uris, lang)
}

// fnDataInPartitionPigFilter is Oozie 3's coord:dataInPartitionPigFilter(name).
func fnDataInPartitionPigFilter(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	uris, unresolved, _, err := hcatData(c, argString(args, 0), false)
	if err != nil {
		return nil, err
	}
	if unresolved {
		return echoCall("dataInPartitionPigFilter", ", ", quoteArgs(args)...), nil
	}
	return partitionFilter(uris, "pig")
}

// hcatMinMax is coord:dataInPartitionMin/Max(name, key): the smallest
// (sign -1) or largest (sign 1) value of key over the instances, compared as
// strings (dates with letters compare right that way too).
func hcatMinMax(fn string, sign int) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := context(env)
		if err != nil {
			return nil, err
		}
		name, key := argString(args, 0), argString(args, 1)
		uris, unresolved, ok, err := hcatData(c, name, false)
		if err != nil {
			return nil, err
		}
		if unresolved {
			return echoCall(fn, ", ", quoteArgs(args)...), nil
		}
		if !ok {
			return nil, nil
		}
		var best string
		for i, s := range strings.Split(uris, dirSeparator) {
			u, err := hcat.Parse(s)
			if err != nil {
				return nil, oozieErrorf("HCat URI can't be parsed %s", javaURIError(err))
			}
			v, _ := u.Value(key)
			if v == "" {
				return nil, oozieErrorf("No value in data-in uri for partition key: %s", key)
			}
			if i == 0 || strings.Compare(v, best) == sign {
				best = v
			}
		}
		return best, nil
	}
}

// fnDataInPartitions is coord:dataInPartitions(name, 'hive-export'): the
// one instance's partition as k1='v1',k2='v2'.
func fnDataInPartitions(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	name, typ := argString(args, 0), argString(args, 1)
	uris, unresolved, ok, err := hcatData(c, name, false)
	switch {
	case err != nil:
		return nil, err
	case unresolved:
		return echoCall("dataInPartitions", ", ", quoteArgs(args)...), nil
	case !ok:
		return nil, nil
	case typ != "hive-export":
		return nil, oozieErrorf("Unsupported type: %s dataset name: %s", typ, name)
	case strings.Contains(uris, dirSeparator):
		return nil, oozieErrorf("Multiple partitions not supported for hive-export type. Dataset name: %s URI: %s", name, uris)
	}
	u, err := hcat.Parse(uris)
	if err != nil {
		return nil, oozieErrorf("Parsing exception for HCatURI %s: %s", uris, javaURIError(err))
	}
	parts := make([]string, len(u.Partitions))
	for i, p := range u.Partitions {
		parts[i] = p.Key + "='" + p.Value + "'"
	}
	return strings.Join(parts, ","), nil
}

// dataOutURI parses a data-out's URI (all of its URIs as one string, as
// Oozie does: a data-out of several instances does not parse).
func dataOutURI(c *ELContext, name string) (hcat.URI, bool, error) {
	uris, _, ok, err := hcatData(c, name, true)
	if err != nil || !ok {
		return hcat.URI{}, false, err
	}
	u, err := hcat.Parse(uris)
	if err != nil {
		return hcat.URI{}, false, oozieErrorf("Parsing exception for HCatURI %s. details: %s", uris, javaURIError(err))
	}
	return u, true, nil
}

// fnDataOutPartitions is coord:dataOutPartitions(name): 'k1=v1,k2=v2'.
func fnDataOutPartitions(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	u, ok, err := dataOutURI(c, argString(args, 0))
	if err != nil || !ok {
		return nil, err
	}
	return u.PartitionString(), nil
}

// fnDataOutPartitionValue is coord:dataOutPartitionValue(name, key).
func fnDataOutPartitionValue(env *el.Env, args []any) (any, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	u, ok, err := dataOutURI(c, argString(args, 0))
	if err != nil || !ok {
		return nil, err
	}
	v, found := u.Value(argString(args, 1))
	if !found {
		return nil, nil
	}
	return v, nil
}

// oozieErrorf formats one of HCatELFunctions' messages, which Oozie
// capitalizes, verbatim.
func oozieErrorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}
