package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/gozie/gozie/server/client"
)

// adminInfoFlags are the options of `admin` that print what the server
// reports about itself.
type adminInfoFlags struct {
	queueDump, servers, shareLibUpdate, instrumentation, metrics bool
	configuration, osEnv, sysProps                               bool
	shareLibList                                                 optionalString
}

// optionalString is a flag that may be given bare (-shareliblist) or with a
// value (-shareliblist hive).
type optionalString struct {
	set   bool
	value string
}

func (o *optionalString) String() string   { return o.value }
func (o *optionalString) IsBoolFlag() bool { return true }
func (o *optionalString) Set(v string) error {
	o.set = true
	if v != "true" {
		o.value = v
	}
	return nil
}

// register adds the options to fs.
func (a *adminInfoFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&a.queueDump, "queuedump", false, "print the engine's queue: work being handled and work waiting")
	fs.BoolVar(&a.servers, "servers", false, "print the live servers")
	fs.Var(&a.shareLibList, "shareliblist", "print the share libraries (`-shareliblist [LIB]` lists LIB's files)")
	fs.BoolVar(&a.shareLibUpdate, "sharelibupdate", false, "reload the share libraries")
	fs.BoolVar(&a.instrumentation, "instrumentation", false, "print the server's instrumentation")
	fs.BoolVar(&a.metrics, "metrics", false, "print the server's metrics")
	fs.BoolVar(&a.configuration, "configuration", false, "print the server's configuration (secrets masked)")
	fs.BoolVar(&a.osEnv, "osenv", false, "print the server's environment (secrets masked)")
	fs.BoolVar(&a.sysProps, "javasysprops", false, "print the server's system properties")
}

// count is how many of the options were given.
func (a *adminInfoFlags) count() int {
	n := 0
	for _, b := range []bool{a.queueDump, a.servers, a.shareLibUpdate, a.instrumentation, a.metrics, a.configuration,
		a.osEnv, a.sysProps, a.shareLibList.set} {
		if b {
			n++
		}
	}
	return n
}

// run prints the chosen report.
func (a *adminInfoFlags) run(ctx context.Context, cl *client.Client, out io.Writer) error {
	switch {
	case a.queueDump:
		var d struct {
			QueueDump     []map[string]string `json:"queueDump"`
			UniqueMapDump []map[string]string `json:"uniqueMapDump"`
		}
		if err := cl.Admin(ctx, "queue-dump", nil, &d); err != nil {
			return err
		}
		fmt.Fprintln(out, "[Server Queue Dump]:")
		for _, q := range d.QueueDump {
			fmt.Fprintln(out, q["queueItem"])
		}
		if len(d.QueueDump) == 0 {
			fmt.Fprintln(out, "Queue dump is null!")
		}
		fmt.Fprintln(out, "******************************************")
		fmt.Fprintln(out, "[Server Uniqueness Map Dump]:")
		for _, q := range d.UniqueMapDump {
			fmt.Fprintln(out, q["uniqueItem"])
		}
		if len(d.UniqueMapDump) == 0 {
			fmt.Fprintln(out, "Uniqueness dump is null!")
		}
	case a.servers:
		var m map[string]string
		if err := cl.Admin(ctx, "available-oozie-servers", nil, &m); err != nil {
			return err
		}
		printPairs(out, m)
	case a.shareLibList.set:
		q := url.Values{}
		if a.shareLibList.value != "" {
			q.Set("lib", a.shareLibList.value)
		}
		var libs struct {
			ShareLib []struct {
				Name  string   `json:"name"`
				Files []string `json:"files"`
			} `json:"sharelib"`
		}
		if err := cl.Admin(ctx, "list_sharelib", q, &libs); err != nil {
			return err
		}
		fmt.Fprintln(out, "[Available ShareLib]")
		for _, l := range libs.ShareLib {
			fmt.Fprintln(out, l.Name)
			for _, f := range l.Files {
				fmt.Fprintln(out, "\t"+f)
			}
		}
	case a.shareLibUpdate:
		var raw json.RawMessage
		if err := cl.Admin(ctx, "update_sharelib", nil, &raw); err != nil {
			return err
		}
		return printShareLibUpdate(out, raw)
	case a.instrumentation:
		var ins map[string][]struct {
			Group string           `json:"group"`
			Data  []map[string]any `json:"data"`
		}
		if err := cl.Instrumentation(ctx, &ins); err != nil {
			return err
		}
		for _, kind := range []string{"counters", "timers", "variables", "samplers"} {
			fmt.Fprintln(out, strings.ToUpper(kind))
			fmt.Fprintln(out, strings.Repeat("-", len(kind)))
			for _, g := range ins[kind] {
				fmt.Fprintf(out, "%s\n", g.Group)
				for _, d := range g.Data {
					fmt.Fprintf(out, "\t%v%s\n", d["name"], dataFields(d))
				}
			}
		}
	case a.metrics:
		var m map[string]any
		if err := cl.Admin(ctx, "metrics", nil, &m); err != nil {
			return err
		}
		for _, kind := range []string{"counters", "gauges", "histograms"} {
			fmt.Fprintln(out, strings.ToUpper(kind))
			fmt.Fprintln(out, strings.Repeat("-", len(kind)))
			byName, _ := m[kind].(map[string]any)
			for _, name := range slices.Sorted(maps.Keys(byName)) {
				fields, _ := byName[name].(map[string]any)
				fmt.Fprintf(out, "%s%s\n", name, dataFields(fields))
			}
		}
	default:
		name := map[bool]string{true: "configuration"}[a.configuration]
		if a.osEnv {
			name = "os-env"
		} else if a.sysProps {
			name = "java-sys-properties"
		}
		var m map[string]string
		if err := cl.Admin(ctx, name, nil, &m); err != nil {
			return err
		}
		printPairs(out, m)
	}
	return nil
}

// printPairs prints "key : value" lines in key order.
func printPairs(out io.Writer, m map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(out, "%s : %s\n", k, m[k])
	}
}

// dataFields prints a datum's fields other than its name: " (k: v, ...)".
func dataFields(d map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d)) {
		if k != "name" {
			parts = append(parts, fmt.Sprintf("%s: %v", k, d[k]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// shareLibUpdateKeys are the keys of a share lib update in the order Oozie's
// documentation prints them; other keys follow, sorted.
var shareLibUpdateKeys = []string{"host", "status", "sharelibDirOld", "sharelibDirNew"}

// printShareLibUpdate prints an admin/update_sharelib answer as Oozie's client
// does: "[ShareLib update status]", then for each server (one object, or an
// array of them when the server asked the others too) a "\tkey = value" line
// per key and an empty line; a null value prints as null.
func printShareLibUpdate(out io.Writer, raw json.RawMessage) error {
	type entry struct {
		Update map[string]any `json:"sharelibUpdate"`
	}
	var entries []entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		var one entry
		if err := json.Unmarshal(raw, &one); err != nil {
			return fmt.Errorf("reading the share lib update answer: %w", err)
		}
		entries = []entry{one}
	}
	fmt.Fprintln(out, "[ShareLib update status]")
	for _, e := range entries {
		keys := slices.DeleteFunc(slices.Sorted(maps.Keys(e.Update)), func(k string) bool {
			return slices.Contains(shareLibUpdateKeys, k)
		})
		for _, k := range append(slices.Clone(shareLibUpdateKeys), keys...) {
			v, ok := e.Update[k]
			switch {
			case !ok:
				continue
			case v == nil:
				v = "null"
			}
			fmt.Fprintf(out, "\t%s = %v\n", k, v)
		}
		fmt.Fprintln(out)
	}
	return nil
}
