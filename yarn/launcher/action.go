package launcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
)

// runAction runs the action's command and says how it ended. ctx ends on a
// kill; the result is then of no use.
func (l *launcher) runAction(ctx context.Context, fsys hadoop.FileSystem, appID string) Result {
	fail := func(code, format string, args ...any) Result {
		msg := fmt.Sprintf(format, args...)
		l.log.Error("action failed", "error_code", code, "error", msg)
		return failure(appID, code, msg)
	}
	if err := l.guard(ctx, fsys, appID); err != nil {
		return fail(CodeException, "%v", err)
	}
	if err := l.prepare(ctx, fsys); err != nil {
		return fail(CodeException, "Prepare execution in the Launcher AM has failed, %v", err)
	}
	dir := l.env.Dir
	for _, name := range l.spec.Resources {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			return fail(CodeNotFound, "File [%s] does not exist in the container: %v", name, err)
		}
	}
	if l.spec.Type == TypeGit {
		return l.runGit(ctx, fsys, appID) // no command: the launcher clones
	}
	f := newFiles(dir)
	ok, err := writeActionTokens(l.env.Getenv(tokenFileEnv), filepath.Join(dir, actionTokensFile))
	if err != nil {
		return fail(CodeException, "%v", err)
	}
	if ok {
		f.tokens = filepath.Join(dir, actionTokensFile)
	}
	if err := writeActionConf(f.actionConf, l.spec.Conf); err != nil {
		return fail(CodeException, "%v", err)
	}

	launched := l.env.Now()
	var cmd command
	switch l.spec.Type {
	case TypeShell:
		cmd, err = shellCommand(l.spec, l.env.Environ(), f, launched)
	case TypeJava:
		cmd, err = javaCommand(l.spec, l.env.Environ(), f, launched)
	case TypeHive:
		cmd, err = hiveCommand(l.spec, l.env.Environ(), f, launched)
	case TypeMapReduce:
		cmd, err = mapReduceCommand(l.spec, l.env.Environ(), f, launched)
	case TypeSpark:
		cmd, err = sparkCommand(l.spec, l.env.Environ(), f, launched)
	case TypeSqoop:
		cmd, err = sqoopCommand(l.spec, l.env.Environ(), f, launched)
	case TypeDistcp:
		cmd, err = distcpCommand(l.spec, l.env.Environ(), f, launched)
	case TypePig:
		cmd, err = pigCommand(l.spec, l.env.Environ(), f, launched)
	default:
		err = fmt.Errorf("unknown action type %q", l.spec.Type)
	}
	if err != nil {
		return fail(CodeException, "%v", err)
	}
	cmd.stdout, cmd.stderr = l.env.Stdout, l.env.Stderr
	var captured *os.File
	if l.spec.Type == TypeShell && l.spec.CaptureOutput {
		// Oozie's shell contract: stdout is the output properties.
		if captured, err = os.Create(f.output); err != nil {
			return fail(CodeException, "creating the capture file: %v", err)
		}
		cmd.stdout = io.MultiWriter(l.env.Stdout, captured)
	}
	// The cluster tools' output names the applications they started, the
	// submitted job and Hive's errors.
	sc := &outputScanner{}
	outScan, errScan := sc.stream(false), sc.stream(true)
	if l.spec.Type == TypeHive || l.spec.Type == TypeMapReduce || l.spec.Type == TypeSpark || l.spec.Type == TypeSqoop ||
		waitsForChildren(l.spec.Type) {
		cmd.stdout = io.MultiWriter(cmd.stdout, outScan)
		cmd.stderr = io.MultiWriter(cmd.stderr, errScan)
	}
	l.log.Info("running the action", "type", l.spec.Type, "command", redactArgs(cmd.args))
	ex := cmd.run(ctx, l.spec.KillGrace.or(DefaultKillGrace))
	if captured != nil {
		captured.Close()
	}
	outScan.flush()
	errScan.flush()
	res := Result{Version: ResultVersion, ApplicationID: appID, Started: launched, Finished: l.env.Now()}
	if ex.startErr != nil {
		return fail(CodeException, "cannot run program [%s]: %v", cmd.args[0], ex.startErr)
	}
	res.ExitCode = &ex.code
	if ids, err := readChildIDs(f.childIDs); err != nil {
		l.log.Warn("reading the child application ids", "err", err)
	} else {
		res.ExternalChildIDs = ids
	}
	for _, id := range sc.childApps() {
		if !slices.Contains(res.ExternalChildIDs, id) {
			res.ExternalChildIDs = append(res.ExternalChildIDs, id)
		}
	}
	l.log.Info("the action's command ended", "exit_code", ex.code)
	if ex.code != 0 {
		res.FinalStatus = StatusFailed
		res.ErrorCode, res.ErrorMessage = l.exitError(ex, sc)
		return res
	}
	if l.spec.Type == TypeMapReduce {
		if res.NewID = sc.newID(); res.NewID == "" {
			res.FinalStatus = StatusFailed
			res.ErrorCode, res.ErrorMessage = CodeException, "the job was not submitted: no job id in the output of "+cmd.args[0]
			return res
		}
		l.log.Info("submitted the MapReduce job", "job_app_id", res.NewID)
	}
	if l.spec.Type == TypeSpark {
		// The Spark application spark-submit started, if any (none with a
		// local master): the server follows it from here.
		res.NewID = sc.newID()
	}
	if waitsForChildren(l.spec.Type) {
		// DistCp and Pig waited for their jobs: the last one is the run's.
		res.NewID = lastChild(sc)
	}
	if l.spec.CaptureOutput {
		max := l.spec.MaxOutputData
		if max == 0 {
			max = DefaultMaxOutputData
		}
		out, err := readOutput(f.output, max)
		if err != nil {
			res.FinalStatus = StatusFailed
			res.ErrorCode, res.ErrorMessage = CodeException, err.Error()
			return res
		}
		res.Output = out
	}
	res.FinalStatus = StatusSucceeded
	return res
}

// exitError is the error code and message of a command that exited non-zero,
// as Oozie gives them: a shell action always has error code 1; a java
// action's exit code is its error code, except that an uncaught exception (or
// a main class that does not load), which the JVM reports with exit code 1,
// is JA018 with the exception's message. A hive action's error is Hive's
// (the code of Beeline's error line); a map-reduce submission that failed is
// JA018 with the tool's last error line.
func (l *launcher) exitError(ex exit, sc *outputScanner) (code, msg string) {
	switch l.spec.Type {
	case TypeShell:
		return CodeShellExit, fmt.Sprintf("Shell command [%s] exited with code [%d]", path.Base(l.spec.Shell.Exec), ex.code)
	case TypeHive:
		return hiveExitError(sc, ex.code)
	case TypeMapReduce:
		return CodeException, mapReduceError(sc, ex.code)
	case TypeSpark:
		return CodeException, sparkError(sc, ex)
	case TypeSqoop:
		return strconv.Itoa(ex.code), sqoopError(sc, ex.code)
	case TypeDistcp, TypePig:
		return CodeException, toolError(l.spec, sc, ex.code)
	}
	if ex.code == 1 {
		if m, ok := javaFailure(ex.stderrTail); ok {
			return CodeException, m
		}
	}
	return strconv.Itoa(ex.code), fmt.Sprintf("Main Class [%s], exit code [%d]", l.spec.Java.MainClass, ex.code)
}

// javaFailure finds, in the end of a JVM's stderr, the line of an uncaught
// exception in main or of a main class that could not be loaded, and returns
// the exception's message (or the whole line when it has none).
func javaFailure(stderr string) (string, bool) {
	const uncaught = `Exception in thread "main" `
	const noMain = "Error: Could not find or load main class "
	if i := strings.LastIndex(stderr, uncaught); i >= 0 {
		line, _, _ := strings.Cut(stderr[i+len(uncaught):], "\n")
		line = strings.TrimSpace(line)
		if _, m, ok := strings.Cut(line, ": "); ok && strings.TrimSpace(m) != "" {
			return strings.TrimSpace(m), true
		}
		return line, true
	}
	if i := strings.LastIndex(stderr, noMain); i >= 0 {
		line, _, _ := strings.Cut(stderr[i:], "\n")
		return strings.TrimSpace(line), true
	}
	return "", false
}

// redactArgs hides beeline's password in log lines.
func redactArgs(args []string) []string {
	out := slices.Clone(args)
	if len(out) == 0 || out[0] != beelineTool {
		return out
	}
	for i := 1; i+1 < len(out); i++ {
		if out[i] == "-p" {
			out[i+1] = "********"
		}
	}
	return out
}

// guard is Oozie's recovery-id check: the first launcher of a run records its
// application id in the action directory, and a launcher of another
// application for the same run refuses to run the action a second time.
func (l *launcher) guard(ctx context.Context, fsys hadoop.FileSystem, appID string) error {
	if appID == "" {
		return nil
	}
	p := strings.TrimSuffix(l.spec.ActionDir, "/") + "/" + IDFile
	b, err := fsys.ReadFile(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("reading %s: %w", p, err)
	default:
		id := string(bytes.TrimSpace(b))
		if id == appID {
			return nil
		}
		if id != "" {
			return fmt.Errorf("YARN Id mismatch, action file [%s] declares Id [%s] current Id [%s]", p, id, appID)
		}
	}
	if err := fsys.WriteFile(ctx, p, []byte(appID+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}

// prepare runs the <prepare> block: deletes (globs allowed), then mkdirs.
func (l *launcher) prepare(ctx context.Context, fsys hadoop.FileSystem) error {
	if l.spec.Prepare == nil {
		return nil
	}
	for _, pattern := range l.spec.Prepare.Delete {
		matches, err := fsys.Glob(ctx, pattern)
		if err != nil {
			return fmt.Errorf("delete [%s]: %w", pattern, err)
		}
		for _, m := range matches {
			if err := fsys.RemoveAll(ctx, m); err != nil {
				return fmt.Errorf("delete [%s]: %w", m, err)
			}
		}
	}
	for _, p := range l.spec.Prepare.Mkdir {
		if err := fsys.MkdirAll(ctx, p, 0o755); err != nil {
			return fmt.Errorf("mkdir [%s]: %w", p, err)
		}
	}
	return nil
}

// writeActionConf writes the action configuration as Hadoop configuration
// XML, in key order.
func writeActionConf(p string, props map[string]string) error {
	var buf bytes.Buffer
	if err := conf.WriteConfigurationXML(&buf, conf.PropertiesFromMap(props)); err != nil {
		return fmt.Errorf("writing the action configuration: %w", err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the action configuration: %w", err)
	}
	return nil
}
