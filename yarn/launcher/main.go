package launcher

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// Env is what the launcher takes from its process.
type Env struct {
	// Stdout and Stderr are the container's log files; the command's output
	// goes there too.
	Stdout, Stderr io.Writer
	// Getenv reads the container's environment.
	Getenv func(string) string
	// Environ lists the container's environment, the base of the command's.
	Environ func() []string
	// Dir is the working directory; empty means the process's.
	Dir string
	// HTTPClient calls the callback URL; nil means a client with a 10 s
	// timeout.
	HTTPClient *http.Client
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// OSEnv is the process's real environment.
func OSEnv() Env {
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ}
}

// Exit codes of Main.
const (
	// ExitOK: the launcher reported the run's end to the RM (whether the
	// action succeeded or failed is in the final status).
	ExitOK = 0
	// ExitFailed: the launcher could not do its part (no spec, no
	// registration, no unregistration); the RM fails the attempt.
	ExitFailed = 1
	// ExitUsage: bad command line.
	ExitUsage = 2
	// ExitTerminated: stopped by SIGTERM (a YARN kill) or by the RM's order.
	ExitTerminated = 143
)

// Main is `gozie launcher [-spec FILE]`, the ApplicationMaster of an action
// run. ctx ends when the container is told to stop (SIGTERM): the action's
// process group is then stopped and the launcher exits without reporting, as
// the RM has already decided the application's fate.
func Main(ctx context.Context, args []string, env Env) int {
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Environ == nil {
		env.Environ = func() []string { return nil }
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	fs := flag.NewFlagSet("launcher", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	specPath := fs.String("spec", SpecFile, "the launch spec `file`")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "launcher: unexpected arguments %q\n", fs.Args())
		return ExitUsage
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("component", "gozie-launcher")
	if env.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			log.Error("no working directory", "err", err)
			return ExitFailed
		}
		env.Dir = wd
	}
	p := *specPath
	if !filepath.IsAbs(p) {
		p = filepath.Join(env.Dir, p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		log.Error("reading the launch spec", "err", err)
		return ExitFailed
	}
	spec, err := ParseSpec(b)
	if err != nil {
		log.Error("reading the launch spec", "file", p, "err", err)
		return ExitFailed
	}
	l := &launcher{spec: spec, env: env, log: log.With("action_id", spec.ActionID)}
	code := l.run(ctx)
	if errors.Is(ctx.Err(), context.Canceled) && code != ExitOK {
		return ExitTerminated
	}
	return code
}
