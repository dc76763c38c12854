package launcher

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// waitDelay bounds how long the launcher waits, once the command exited, for
// its output pipes to close: a process it left behind in the background may
// hold them open, and is killed right after.
const waitDelay = time.Second

// stderrTailBytes is how much of the command's stderr is kept for error
// messages (the java action's uncaught exception).
const stderrTailBytes = 16 << 10

// command is a process to run in its own process group.
type command struct {
	path   string   // the executable
	args   []string // argv, args[0] included
	env    []string
	dir    string
	stdout io.Writer
	stderr io.Writer
}

// exit is how a command ended.
type exit struct {
	// code is the exit code, 128+n when signal n ended the process.
	code int
	// startErr is set when the command could not be started at all.
	startErr error
	// terminated is true when the launcher stopped the command because its
	// context ended (YARN kill, RM shutdown order).
	terminated bool
	// stderrTail is the end of the command's stderr.
	stderrTail string
}

// run starts the command in a new process group and waits for it. When ctx
// ends first the whole group gets SIGTERM and, grace later, SIGKILL: this is
// how a YARN kill (SIGTERM to the launcher) reaches the action's processes.
// Whatever is left of the group after the command exited is killed too, so
// that nothing outlives the container.
func (c command) run(ctx context.Context, grace time.Duration) exit {
	tail := &tailBuffer{max: stderrTailBytes}
	cmd := &exec.Cmd{
		Path:   c.path,
		Args:   c.args,
		Env:    c.env,
		Dir:    c.dir,
		Stdout: c.stdout,
		Stderr: io.MultiWriter(c.stderr, tail),
		// Setpgid puts the command and its children in one group the
		// launcher can signal without signalling itself. Pdeathsig kills the
		// command if the launcher dies without forwarding a kill; Go keeps
		// the thread that started the child alive, so the signal only
		// follows the launcher's own death.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
		WaitDelay:   waitDelay,
	}
	if err := cmd.Start(); err != nil {
		if !errors.Is(err, syscall.ENOEXEC) {
			return exit{code: -1, startErr: err}
		}
		// A script without a #! line: run it with the POSIX shell, as a
		// login shell would.
		cmd = &exec.Cmd{Path: "/bin/sh", Args: append([]string{"/bin/sh", c.path}, c.args[1:]...),
			Env: cmd.Env, Dir: cmd.Dir, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
			SysProcAttr: cmd.SysProcAttr, WaitDelay: cmd.WaitDelay}
		if err := cmd.Start(); err != nil {
			return exit{code: -1, startErr: err}
		}
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var terminated bool
	select {
	case <-done:
	case <-ctx.Done():
		terminated = true
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		t := time.NewTimer(grace)
		select {
		case <-done:
			t.Stop()
		case <-t.C:
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-done
		}
	}
	// Leftovers (background jobs of a script) die with the command.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return exit{code: exitCode(cmd), terminated: terminated, stderrTail: tail.String()}
}

func exitCode(cmd *exec.Cmd) int {
	ps := cmd.ProcessState
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
