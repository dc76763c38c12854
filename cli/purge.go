package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gozie/gozie/server/client"
)

// parsePurgeOptions reads the value of admin -purge as Oozie's CLI does:
// "wf=30;coord=7;bundle=7;limit=100;oldcoordaction=true", every part
// optional, names in any case. Its errors read as Oozie's.
func parsePurgeOptions(s string) (client.PurgeOptions, error) {
	var o client.PurgeOptions
	invalid := func(format string, args ...any) error {
		return &plainError{msg: "INVALID_INPUT : " + fmt.Sprintf(format, args...)}
	}
	for _, part := range strings.Split(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		key, value, ok := strings.Cut(part, "=")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if !ok || key == "" || value == "" {
			return o, invalid("Invalid purge option pair [%s] specified.", part)
		}
		if key == "oldcoordaction" {
			b := strings.EqualFold(value, "true")
			if !b && !strings.EqualFold(value, "false") {
				return o, invalid("Invalid purge option value [%s] specified.", part)
			}
			o.OldCoordAction = &b
			continue
		}
		var field **int
		switch key {
		case "wf":
			field = &o.WorkflowDays
		case "coord":
			field = &o.CoordDays
		case "bundle":
			field = &o.BundleDays
		case "limit":
			field = &o.Limit
		default:
			return o, invalid("Invalid purge option [%s] specified.", key)
		}
		n, err := strconv.Atoi(value)
		if err != nil {
			return o, invalid("For input string: %q", value)
		}
		if n < 0 {
			return o, invalid("Input value should be a positive integer. Value: %d", n)
		}
		*field = &n
	}
	return o, nil
}

// runPurge runs admin -purge and prints the server's message.
func runPurge(ctx context.Context, cl *client.Client, options string, env Env) error {
	o, err := parsePurgeOptions(options)
	if err != nil {
		return err
	}
	r, err := cl.Purge(ctx, o)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, r.Message)
	return nil
}
