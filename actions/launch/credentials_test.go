package launch_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// tokensScript reports which tokens the command's token file holds.
const tokensScript = `#!/bin/bash
f="$HADOOP_TOKEN_FILE_LOCATION"
echo "hdfs=$(grep -ac HDFS_DELEGATION_TOKEN "$f")"
echo "hdfsservice=$(grep -ac 'ha-hdfs:ns1' "$f")"
echo "rm=$(grep -ac RM_DELEGATION_TOKEN "$f")"
echo "amrm=$(grep -ac YARN_AM_RM_TOKEN "$f")"
`

// TestCredentialsReachTheContainer: the tokens of Config.Credentials go
// into the submission's credentials, so the container's token file holds
// them (the command's copy without the AMRM token).
func TestCredentialsReachTheContainer(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/user/alice/app/tokens.sh", tokensScript)
	var asked string
	e := c.executor(t, "shell", func(cfg *launch.Config) {
		cfg.Credentials = func(_ context.Context, run *actions.Attempt) ([]hadoop.Token, error) {
			asked = run.ActionID
			return []hadoop.Token{
				{Identifier: []byte("hdfs-id"), Password: []byte("pw"), Kind: hadoop.KindHDFSDelegationToken, Service: "ha-hdfs:ns1"},
				{Identifier: []byte("rm-id"), Password: []byte("pw"), Kind: hadoop.KindRMDelegationToken, Service: "127.0.0.1:8032"},
			}, nil
		}
	})
	run := c.run(t, "shell", "tokens", "/user/alice/app", shellBody(`<exec>tokens.sh</exec><file>tokens.sh</file><capture-output/>`))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeOK {
		t.Fatalf("status %+v", st)
	}
	if asked != run.ActionID {
		t.Errorf("Credentials asked for %q, want %q", asked, run.ActionID)
	}
	props, err := conf.ReadProperties(strings.NewReader(st.Data), "data")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"hdfs": "1", "hdfsservice": "1", "rm": "1", "amrm": "0"} {
		if got := props.Value(k); got != want {
			t.Errorf("%s = %q, want %q (all: %q)", k, got, want, st.Data)
		}
	}
}

// TestCredentialsFailureSubmitsNothing: a failing token source is a
// transient error (JA009) and no application is submitted; an
// *actions.ExecError keeps its kind and code.
func TestCredentialsFailureSubmitsNothing(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/user/alice/app/tokens.sh", tokensScript)
	for _, tt := range []struct {
		err        error
		kind       actions.ErrorKind
		code       string
		substrings string
	}{
		{errors.New("NameNode unreachable"), actions.Transient, "JA009", "NameNode unreachable"},
		{actions.Errorf(actions.ActionFailed, "CRED", "unknown credential type x"), actions.ActionFailed, "CRED", "unknown credential type x"},
	} {
		e := c.executor(t, "shell", func(cfg *launch.Config) {
			cfg.Credentials = func(context.Context, *actions.Attempt) ([]hadoop.Token, error) { return nil, tt.err }
		})
		run := c.run(t, "shell", "tokens", "/user/alice/app", shellBody(`<exec>tokens.sh</exec><file>tokens.sh</file>`))
		_, err := e.Start(ctxT(t), run)
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind != tt.kind || ee.Code != tt.code || !strings.Contains(err.Error(), tt.substrings) {
			t.Errorf("Start: %v, want %s %s", err, tt.kind, tt.code)
		}
	}
	if apps := c.rm.Apps(); len(apps) != 0 {
		t.Errorf("applications submitted: %v", apps)
	}
}
