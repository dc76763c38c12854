package cli

import (
	"context"
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
	if err := parse(fs, args); err != nil {
		return err
	}
	n := info.count()
	for _, set := range []bool{*status, *version, *mode != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		fmt.Fprintln(env.Stderr, "admin: give exactly one of -status, -version, -systemmode MODE, -queuedump, -servers, "+
			"-shareliblist [LIB], -sharelibupdate, -instrumentation, -metrics, -configuration, -osenv, -javasysprops")
		fs.Usage()
		return errUsage
	}
	cl, err := c.client(env)
	if err != nil {
		return err
	}
	switch {
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
