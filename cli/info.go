package cli

import (
	"context"
	"fmt"
)

// runInfo is `gozie info -timezones`: the time zones the server accepts, as
// Oozie's CLI lists them.
func runInfo(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("info", env)
	var c common
	c.register(fs)
	timezones := fs.Bool("timezones", false, "list the available time zones")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !*timezones {
		fmt.Fprintln(env.Stderr, "info: give -timezones")
		fs.Usage()
		return errUsage
	}
	cl, err := c.client(env)
	if err != nil {
		return err
	}
	var tz struct {
		Zones []struct {
			DisplayName string `json:"timezoneDisplayName"`
		} `json:"available-timezones"`
	}
	if err := cl.Admin(ctx, "available-timezones", nil, &tz); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "The available timezones are:")
	for _, z := range tz.Zones {
		fmt.Fprintf(env.Stdout, "  %s\n", z.DisplayName)
	}
	return nil
}
