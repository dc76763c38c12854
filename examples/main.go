package examples

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/user"

	"github.com/gozie/gozie"
	"github.com/gozie/gozie/cli"
)

// Env is what the command needs from its process.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Program is how the user called gozie (os.Args[0]), for the printed
	// commands.
	Program string
	// Dir is the working directory; printed paths below it are relative.
	Dir string
}

// Main runs `gozie examples install [-data-dir DIR] [-user NAME] [-oozie
// URL]` and returns its exit code: it installs the catalogue into the local
// cluster of DIR and prints the commands that run each app.
func Main(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 || args[0] != "install" {
		fmt.Fprintln(env.Stderr, "usage: gozie examples install [-data-dir DIR] [-user NAME] [-oozie URL]")
		return 2
	}
	fs := flag.NewFlagSet("examples install", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	dataDir := fs.String("data-dir", "gozie-data", "the data directory of the running `gozie server -local` (make run)")
	who := fs.String("user", "", "the user to install the apps for and run them as (default $USER, else the OS user)")
	oozie := fs.String("oozie", "", "the server's URL in the printed commands (default $GOZIE_URL, then $OOZIE_URL, then "+cli.DefaultURL+")")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "gozie examples install: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	u, err := DefaultUser(*who, env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "gozie examples install: %v\n", err)
		return 1
	}
	if err := install(ctx, *dataDir, u, cli.ServerURL(*oozie, env.Getenv), env); err != nil {
		fmt.Fprintf(env.Stderr, "gozie examples install: %v\n", err)
		return 1
	}
	return 0
}

// DefaultUser is the user of the examples: flag when given, else $USER,
// else the OS user; never empty.
func DefaultUser(flag string, getenv func(string) string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if u := getenv("USER"); u != "" {
		return u, nil
	}
	u, err := user.Current()
	if err != nil || u.Username == "" {
		return "", errors.New("no user: $USER is unset and the OS user is unknown; give -user NAME")
	}
	return u.Username, nil
}

func install(ctx context.Context, dataDir, u, oozie string, env Env) error {
	props, err := ReadCluster(dataDir)
	if err != nil {
		return err
	}
	files, err := Plan(gozie.Apps, Catalogue, u)
	if err != nil {
		return err
	}
	fsys, err := resolver(props, u)
	if err != nil {
		return err
	}
	defer fsys.Close()
	if err := Install(ctx, fsys, props["nameNode"], Catalogue, files, u); err != nil {
		return err
	}
	if self, err := user.Current(); err == nil && self.Username != u {
		// gozie job submits as the user running it (user.name), whose
		// apps these then are not.
		fmt.Fprintf(env.Stderr, "note: the apps are %s's; run the commands below as %s (gozie job submits as the user running it, here %s)\n",
			u, u, self.Username)
	}
	c := Cluster{Props: props, OozieURL: oozie, User: u, Program: env.Program, Dir: env.Dir}
	fmt.Fprintf(env.Stdout, "Installed %d example apps (%d files) for %s into %s/user/%s/examples (apps/, input-data/).\n\n",
		len(Catalogue), len(files), u, props["nameNode"], u)
	fmt.Fprintf(env.Stdout, "Run one; then `%s job -oozie %s -info <job id>` follows it:\n", env.Program, c.oozieURL())
	for _, a := range Catalogue {
		fmt.Fprintf(env.Stdout, "\n# %s: %s\n%s\n", a.Name, a.About, c.Command(a))
	}
	return nil
}

func (c Cluster) oozieURL() string {
	if c.OozieURL == "" {
		return cli.DefaultURL
	}
	return c.OozieURL
}
