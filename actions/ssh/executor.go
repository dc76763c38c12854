package ssh

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/workflow"
	gossh "golang.org/x/crypto/ssh"
)

// External statuses, Oozie's ssh action's (WorkflowAction.Status names).
const (
	statusRunning = "RUNNING"
	statusOK      = "OK"
	statusError   = "ERROR"
)

// Executor runs ssh actions.
type Executor struct {
	cfg     Config
	signers []gossh.Signer
}

var _ actions.Executor = (*Executor)(nil)

// New returns an executor; it reads the private keys now, so a key file
// that cannot be read stops the server at start rather than every action.
func New(cfg Config) (*Executor, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	signers, err := loadSigners(cfg)
	if err != nil {
		return nil, err
	}
	return &Executor{cfg: cfg, signers: signers}, nil
}

// action is what a run's body and user say: the body and where it runs.
type action struct {
	body   *workflow.SSH
	target target
	dir    string
}

func (e *Executor) action(run *actions.Attempt) (action, error) {
	b, err := workflow.ParseBody(run.Body)
	if err != nil {
		return action{}, actions.Errorf(actions.ActionError, codeXMLParseFailed, "parsing the ssh action: %v", err)
	}
	body, ok := b.(*workflow.SSH)
	if !ok {
		return action{}, actions.Errorf(actions.ActionError, codeXMLParseFailed, "the action is not an ssh action: %T", b)
	}
	t, err := resolveTarget(body.Host, run.User, e.cfg.AllowUserAtHost)
	if err != nil {
		return action{}, err
	}
	return action{body: body, target: t, dir: Dir(run.JobID, run.Node, run.Key)}, nil
}

// Start starts the run's command on its host, or finds the one an earlier
// Start started for the same run and reports it.
func (e *Executor) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	a, err := e.action(run)
	if err != nil {
		return actions.Status{}, err
	}
	c, err := e.dial(ctx, a.target)
	if err != nil {
		return actions.Status{}, err
	}
	defer c.Close()
	res, err := runRemote(ctx, c, startScript(a.dir), wrapper(a.body, run.Key, run.CallbackURL), maxRemoteMessageBytes)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, CodeCouldNotConnect, "starting the command on %s: %v", a.target, err)
	}
	if res.status != 0 {
		return actions.Status{}, actions.Errorf(actions.ActionError, CodeSetupFailed,
			"setting up %s on %s failed (status %d): %s", a.dir, a.target, res.status, strings.TrimSpace(res.stderr))
	}
	word, pid, _ := strings.Cut(strings.TrimSpace(firstLine(res.stdout)), " ")
	switch word {
	case answerStarted:
		e.cfg.Logger.Info("started the ssh command", "action_id", run.ActionID, "host", a.target.String(), "pid", pid, "dir", a.dir)
		return actions.Status{ExternalID: pid, ExternalStatus: statusRunning, TrackerURI: a.target.String()}, nil
	case answerRunning:
		e.cfg.Logger.Info("found the ssh command of an earlier start", "action_id", run.ActionID, "host", a.target.String(), "pid", pid)
		return e.check(ctx, c, a, pid)
	case answerNoPID:
		return actions.Status{}, actions.Errorf(actions.ActionError, CodeUnknownError,
			"%s on %s exists without a pid: an earlier start was cut short; remove the directory to run the action again", a.dir, a.target)
	}
	return actions.Status{}, actions.Errorf(actions.ActionError, CodeUnknownError, "unexpected answer of %s to the start: %q", a.target, res.stdout)
}

// Check reports the run: RUNNING while its wrapper lives, else how the
// command ended.
func (e *Executor) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	a, err := e.action(run)
	if err != nil {
		return actions.Status{}, err
	}
	c, err := e.dial(ctx, a.target)
	if err != nil {
		return actions.Status{}, err
	}
	defer c.Close()
	return e.check(ctx, c, a, run.ExternalID)
}

func (e *Executor) check(ctx context.Context, c *gossh.Client, a action, pid string) (actions.Status, error) {
	res, err := runRemote(ctx, c, checkScript(a.dir, a.body.CaptureOutput, e.cfg.MaxOutputData), "", e.cfg.MaxOutputData+128)
	if err != nil || res.status != 0 {
		return actions.Status{}, actions.Errorf(actions.Transient, CodeCouldNotConnect,
			"checking the command on %s: %v (status %d) %s", a.target, err, res.status, strings.TrimSpace(res.stderr))
	}
	head, rest, _ := strings.Cut(res.stdout, "\n")
	word, value, _ := strings.Cut(strings.TrimSpace(head), " ")
	st := actions.Status{ExternalID: pid, ExternalStatus: statusRunning, TrackerURI: a.target.String()}
	switch word {
	case stateRunning:
		return st, nil
	case stateExit:
		return e.ended(st, a, value, rest), nil
	case stateKilled:
		return e.failed(st, CodeExecutionFailed, fmt.Sprintf("the command on %s was killed", a.target)), nil
	case stateGone:
		return e.failed(st, CodeUnknownError, fmt.Sprintf("the command's process %s on %s ended without recording an exit status "+
			"(killed, or the host restarted)", pid, a.target)), nil
	case stateMissing:
		return e.failed(st, CodeUnknownError, fmt.Sprintf("%s is missing on %s", a.dir, a.target)), nil
	}
	return actions.Status{}, actions.Errorf(actions.Transient, CodeUnknownError, "unexpected answer of %s to the check: %q", a.target, head)
}

// ended is the status of a command that exited with status code; rest is
// its captured stdout (status 0 with capture-output) or the end of its
// stderr.
func (e *Executor) ended(st actions.Status, a action, code, rest string) actions.Status {
	n, err := strconv.Atoi(code)
	if err != nil {
		return e.failed(st, CodeUnknownError, fmt.Sprintf("unreadable exit status %q of the command on %s", code, a.target))
	}
	if n != 0 {
		msg := fmt.Sprintf("command [%s] on [%s] exited with status [%d]", a.body.Command, a.target, n)
		if tail := strings.TrimSpace(rest); tail != "" {
			msg += ": " + tail
		}
		return e.failed(st, CodeExecutionFailed, msg)
	}
	st.Done, st.Outcome, st.ExternalStatus = true, workflow.OutcomeOK, statusOK
	if !a.body.CaptureOutput {
		return st
	}
	if len(rest) > e.cfg.MaxOutputData {
		return e.failed(st, CodeOutputExceedsMax, fmt.Sprintf("the command's output on %s is longer than the %d bytes "+
			"capture-output allows (gozie.action.max-output-data)", a.target, e.cfg.MaxOutputData))
	}
	if _, err := conf.ReadProperties(strings.NewReader(rest), "stdout"); err != nil {
		return e.failed(st, CodeUnknownError, fmt.Sprintf("the command's output is not Java properties: %v", err))
	}
	st.Data = rest
	return st
}

// failed ends st in ERROR with code and msg.
func (e *Executor) failed(st actions.Status, code, msg string) actions.Status {
	st.Done, st.Outcome, st.ExternalStatus = true, workflow.OutcomeError, statusError
	st.ErrorCode, st.ErrorMessage = code, msg
	return st
}

// Kill kills the run's command; a run that ended is left alone.
func (e *Executor) Kill(ctx context.Context, run *actions.Attempt) error {
	a, err := e.action(run)
	if err != nil {
		return err
	}
	c, err := e.dial(ctx, a.target)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := runRemote(ctx, c, killScript(a.dir), "", maxRemoteMessageBytes)
	if err != nil || res.status != 0 {
		return actions.Errorf(actions.Transient, codeFailedToKill, "Unable to kill process %s on %s: %v %s",
			run.ExternalID, a.target, err, strings.TrimSpace(res.stderr))
	}
	e.cfg.Logger.Info("killed the ssh command", "action_id", run.ActionID, "host", a.target.String())
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
