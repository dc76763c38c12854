// Package enginetest holds what tests of the engines (workflow runner,
// coordinator and bundle engines) share: a scripted action executor that
// stands for an external system, and Settle, which waits until the engine
// has nothing left to do at a fake clock's time, through the store seam
// (store.Triggers.BusyTriggers) rather than around it.
package enginetest

import (
	"context"
	"sync"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
)

// Scripted is an actions.Executor that records each attempt (its
// configuration and resolved XML) and ends it when the test says so (End,
// or Kill), as an external system would; with Auto it ends every attempt
// at once, successfully.
type Scripted struct {
	// Auto ends each attempt at its start with OK.
	Auto bool

	mu     sync.Mutex
	runs   []actions.Attempt
	ended  map[string]actions.Status // tag → final status
	killed map[string]bool           // tag → killed
}

// NewScripted returns a Scripted executor; auto sets Auto.
func NewScripted(auto bool) *Scripted {
	return &Scripted{Auto: auto, ended: map[string]actions.Status{}, killed: map[string]bool{}}
}

// Start implements actions.Executor.
func (e *Scripted) Start(_ context.Context, run *actions.Attempt) (actions.Status, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.runs = append(e.runs, *run)
	if e.Auto {
		return actions.Status{Done: true, Outcome: workflow.OutcomeOK, ExternalID: "ext-" + run.Tag, ExternalStatus: "SUCCEEDED"}, nil
	}
	if st, ok := e.ended[run.Tag]; ok {
		return st, nil
	}
	return actions.Status{ExternalID: "ext-" + run.Tag, ExternalStatus: "RUNNING"}, nil
}

// Check implements actions.Executor: an attempt runs until ended.
func (e *Scripted) Check(_ context.Context, run *actions.Attempt) (actions.Status, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st, ok := e.ended[run.Tag]; ok {
		return st, nil
	}
	return actions.Status{ExternalStatus: "RUNNING"}, nil
}

// Kill implements actions.Executor: the attempt ends KILLED, in error.
func (e *Scripted) Kill(_ context.Context, run *actions.Attempt) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.killed[run.Tag] = true
	e.ended[run.Tag] = actions.Status{Done: true, Outcome: workflow.OutcomeError, ExternalStatus: "KILLED"}
	return nil
}

// End sets the final status the attempt tagged tag reports from now on.
func (e *Scripted) End(tag string, st actions.Status) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended[tag] = st
}

// Started returns the attempts so far, in start order.
func (e *Scripted) Started() []actions.Attempt {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]actions.Attempt(nil), e.runs...)
}

// StartCount returns how many attempts have started, without copying them.
func (e *Scripted) StartCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.runs)
}

// RunOf returns the latest attempt of an action of workflow job jobID.
func (e *Scripted) RunOf(jobID string) (actions.Attempt, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := len(e.runs) - 1; i >= 0; i-- {
		if e.runs[i].JobID == jobID {
			return e.runs[i], true
		}
	}
	return actions.Attempt{}, false
}

// WasKilled reports whether the attempt tagged tag was killed.
func (e *Scripted) WasKilled(tag string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.killed[tag]
}
