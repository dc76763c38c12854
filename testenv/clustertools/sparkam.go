package clustertools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gozie/gozie/yarn"
)

// sparkKillGrace is how long a killed application's process group has
// between SIGTERM and SIGKILL.
const sparkKillGrace = 200 * time.Millisecond

// sparkAM is `spark-submit --gozie-appmaster FILE`, the AM container of a
// Spark application: register, run the application while heartbeating,
// unregister with its outcome (Spark's ApplicationMaster diagnostics: "User
// class threw exception: ..." or "User application exited with status N").
// A kill (SIGTERM) stops the application's processes and ends without
// unregistering, the RM having decided already.
func (t *tool) sparkAM(ctx context.Context, file string) int {
	b, err := os.ReadFile(t.localPath(file))
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	var app sparkApp
	if err := json.Unmarshal(b, &app); err != nil {
		t.errorf("reading %s: %v", file, err)
		return exitFail
	}
	if _, err := yarn.ParseContainerID(t.env.Getenv("CONTAINER_ID")); err != nil {
		t.errorf("not in a YARN container: %v", err)
		return exitFail
	}
	am, err := t.registerAM(ctx)
	if err != nil {
		t.errorf("registering with the ResourceManager: %v", err)
		return exitFail
	}
	defer am.Close()
	appCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		t.heartbeat(appCtx, am, stop)
	}()
	code, diag := t.runSparkApp(appCtx, &app, t.env.Dir)
	stop(nil)
	<-hbDone
	if ctx.Err() != nil {
		return exitTerminated
	}
	final := yarn.FinalSucceeded
	if code != 0 {
		final = yarn.FinalFailed
		fmt.Fprintf(t.env.Stderr, "ERROR yarn.ApplicationMaster: %s\n", diag)
	}
	uctx, cancel := context.WithTimeout(ctx, time.Minute)
	err = am.Unregister(uctx, final, diag, "")
	cancel()
	if err != nil {
		t.errorf("unregistering: %v", err)
		return exitFail
	}
	return exitOK
}

// runSparkApp runs the application in dir and returns its exit code and,
// when it failed, Spark's diagnostics for it. A jar runs on the JVM
// ($JAVA_HOME/bin/java, else java) with the jar and the directory's files
// on the class path; a Python file with $PYSPARK_PYTHON, else python3,
// with the --py-files on PYTHONPATH. Neither gets Spark's own libraries:
// the stand-in runs applications that use only their language's.
func (t *tool) runSparkApp(ctx context.Context, app *sparkApp, dir string) (int, string) {
	env := t.env.Environ()
	var argv []string
	if app.python() {
		py := orDefault(t.env.Getenv("PYSPARK_PYTHON"), "python3")
		argv = append([]string{py, app.Primary}, app.Args...)
		pp := strings.Join(app.PyFiles, string(os.PathListSeparator))
		if old := t.env.Getenv("PYTHONPATH"); old != "" {
			pp += string(os.PathListSeparator) + old
		}
		env = append(env, "PYTHONPATH="+pp)
	} else {
		java := "java"
		if home := t.env.Getenv("JAVA_HOME"); home != "" {
			java = filepath.Join(home, "bin", "java")
		}
		cp := app.Primary + string(os.PathListSeparator) + filepath.Join(dir, "*")
		argv = append([]string{java, "-cp", cp, app.Class}, app.Args...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	tail := &tailWriter{}
	cmd.Stdout = t.env.Stdout
	cmd.Stderr = io.MultiWriter(t.env.Stderr, tail)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(t.env.Stderr, "Exception in thread \"main\" java.io.IOException: Cannot run program %q: %v\n", argv[0], err)
		return exitFail, fmt.Sprintf("User class threw exception: java.io.IOException: Cannot run program %q: %v", argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case err = <-done:
		case <-time.After(sparkKillGrace):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-done
		}
	}
	if err == nil {
		return exitOK, ""
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return exitFail, err.Error()
	}
	code := ee.ExitCode()
	if code < 0 {
		code = exitTerminated
	}
	return code, sparkDiagnostics(app, code, tail.String())
}

// sparkDiagnostics words a failed application as Spark's ApplicationMaster
// does: an uncaught exception of a JVM application's main ("User class
// threw exception: <exception>: <message>"), else the exit status with the
// application's last error line.
func sparkDiagnostics(app *sparkApp, code int, stderr string) string {
	const uncaught = `Exception in thread "main" `
	if !app.python() {
		if i := strings.LastIndex(stderr, uncaught); i >= 0 {
			line, _, _ := strings.Cut(stderr[i+len(uncaught):], "\n")
			return "User class threw exception: " + strings.TrimSpace(line)
		}
	}
	msg := fmt.Sprintf("User application exited with status %d", code)
	if last := lastLine(stderr); last != "" {
		msg += ": " + last
	}
	return msg
}

// lastLine is the last non-blank line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// tailWriter keeps the last 8 KB written to it.
type tailWriter struct{ b []byte }

func (w *tailWriter) Write(p []byte) (int, error) {
	const keep = 8 << 10
	w.b = append(w.b, p...)
	if len(w.b) > keep {
		w.b = w.b[len(w.b)-keep:]
	}
	return len(p), nil
}

func (w *tailWriter) String() string { return string(w.b) }
