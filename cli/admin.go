package cli

import (
	"context"
	"flag"
	"fmt"
)

func runAdmin(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("admin", env)
	var c common
	c.register(fs)
	status := fs.Bool("status", false, "print the server's system mode")
	version := fs.Bool("version", false, "print the server's build version")
	mode := fs.String("systemmode", "", "set the system mode: NORMAL, NOWEBSERVICE or SAFEMODE")
	var info adminInfoFlags
	info.register(fs)
	purgeOpts := fs.String("purge", "", "purge old finished jobs now: 'wf=30;coord=7;bundle=7;limit=100;oldcoordaction=true' "+
		"(ages in days; each part optional, the server's configuration otherwise)")
	if err := parse(fs, args); err != nil {
		return err
	}
	purging := false
	fs.Visit(func(f *flag.Flag) { purging = purging || f.Name == "purge" })
	n := info.count()
	for _, set := range []bool{*status, *version, *mode != "", purging} {
		if set {
			n++
		}
	}
	if n != 1 {
		fmt.Fprintln(env.Stderr, "admin: give exactly one of -status, -version, -systemmode MODE, -queuedump, -servers, "+
			"-shareliblist [LIB], -sharelibupdate, -instrumentation, -metrics, -configuration, -osenv, -javasysprops, "+
			"-purge OPTIONS")
		fs.Usage()
		return errUsage
	}
	cl, err := c.client(env)
	if err != nil {
		return err
	}
	switch {
	case purging:
		return runPurge(ctx, cl, *purgeOpts, env)
	case info.count() > 0:
		return info.run(ctx, cl, env.Stdout)
	case *status:
		m, err := cl.Status(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "System mode: %s\n", m)
	case *version:
		b, err := cl.BuildVersion(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Oozie server build version: %s\n", b.Version)
	default:
		if err := cl.SetSystemMode(ctx, *mode); err != nil {
			return err
		}
		m, err := cl.Status(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "System mode: %s\n", m)
	}
	return nil
}
