// Package cli is gozie's command-line client: the verbs and flags of Oozie's
// `oozie` command (admin, version, job, jobs, validate, sla, info) with
// Oozie's output formats, so that scripts written against Oozie keep working.
// It talks to the server only through the REST API (package server/client).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gozie/gozie/buildinfo"
	"github.com/gozie/gozie/server/client"
)

// DefaultURL is used when neither -oozie nor GOZIE_URL nor OOZIE_URL is set.
const DefaultURL = "http://localhost:11000/oozie"

// Env is what a command needs from its process.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	HTTPClient     *http.Client
}

// OSEnv is the process's real environment.
func OSEnv() Env {
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, HTTPClient: &http.Client{Timeout: 60 * time.Second}}
}

// Commands lists the client verbs Run accepts.
var Commands = map[string]string{
	"admin":   "server administration: -status, -version, -systemmode MODE",
	"version": "print the client's build version",
}

// Run runs the client verb args[0] with its flags and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "missing command")
		return 2
	}
	var err error
	switch args[0] {
	case "admin":
		err = runAdmin(ctx, args[1:], env)
	case "version":
		fmt.Fprintf(env.Stdout, "Oozie client build version: %s\n", buildinfo.Get().Version)
	default:
		fmt.Fprintf(env.Stderr, "unknown command %q\n", args[0])
		return 2
	}
	return report(err, env)
}

// errUsage marks a command-line mistake; its message has been printed.
var errUsage = errors.New("usage")

// report prints err as Oozie's CLI does and returns the exit code.
func report(err error, env Env) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	var ce *client.Error
	if errors.As(err, &ce) {
		fmt.Fprintf(env.Stderr, "Error: %s : %s\n", ce.Code, strings.TrimPrefix(ce.Message, ce.Code+": "))
		return 255
	}
	fmt.Fprintf(env.Stderr, "Error: %v\n", err)
	return 255
}

// common holds the flags every client verb shares.
type common struct {
	oozie string
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.oozie, "oozie", "", "gozie/Oozie URL (default $GOZIE_URL, then $OOZIE_URL, then "+DefaultURL+")")
}

// url resolves the server URL as Oozie's CLI does, with GOZIE_URL first.
func (c *common) url(env Env) string {
	if c.oozie != "" {
		return c.oozie
	}
	for _, v := range []string{"GOZIE_URL", "OOZIE_URL"} {
		if u := env.Getenv(v); u != "" {
			return u
		}
	}
	return DefaultURL
}

func (c *common) client(env Env) (*client.Client, error) {
	return client.New(c.url(env), env.HTTPClient)
}

func newFlagSet(name string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}
