package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/gozie/gozie/examples"
)

// examplesEnv is the process's environment for `gozie examples`.
func examplesEnv() examples.Env {
	dir, _ := os.Getwd()
	return examples.Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Program: os.Args[0], Dir: dir}
}

// localBanner tells the user of `gozie server -local` (make run), once the
// REST API is up, where the console is and the one command that installs
// the example apps and runs the README's pipeline: a log line, and the
// same as plain lines on stdout.
func localBanner(log *slog.Logger, addr net.Addr, dataDir string, props map[string]string) {
	url := "http://" + hostPort(addr) + "/oozie"
	program := os.Args[0]
	if !strings.ContainsRune(program, filepath.Separator) {
		program = "gozie"
	}
	cwd, _ := os.Getwd()
	user, err := examples.DefaultUser("", os.Getenv)
	if err != nil {
		log.Warn("no user for the example commands", "err", err)
		return
	}
	nightly, _ := examples.Find("nightly-hive")
	install := program + " examples install -oozie " + url
	if abs, err := filepath.Abs(dataDir); err == nil {
		if rel, err := filepath.Rel(cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			dataDir = rel
		} else {
			dataDir = abs
		}
	}
	if dataDir != "gozie-data" {
		install += " -data-dir " + dataDir
	}
	c := examples.Cluster{Props: props, OozieURL: url, User: user, Program: program, Dir: cwd}
	run := install + " && " + c.Command(nightly)
	log.Info("gozie local server ready", "console", url+"/", "examples", run)
	fmt.Printf("\ngozie is running with a local cluster.\n  Console:  %s/\n  Examples: %s\n\n", url, run)
}

// hostPort is addr as a browser reaches it: localhost for a loopback or
// unspecified address.
func hostPort(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsLoopback() || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
