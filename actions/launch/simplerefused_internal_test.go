package launch

import (
	"errors"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
)

// TestFsErrorSimpleRefused: a Kerberized NameNode's refusal of the
// server's SIMPLE authentication is a configuration error: the action
// needs a person (NON_TRANSIENT, JA002, as Oozie's AccessControlException),
// not a retry, and its message is the NameNode's with the hint.
func TestFsErrorSimpleRefused(t *testing.T) {
	t.Parallel()
	refusal := &hadoop.SimpleRefusedError{NameNode: "nn:8020", Hint: "set hadoop.security.authentication=kerberos",
		Refusal: &hadoop.RemoteException{Class: "org.apache.hadoop.security.AccessControlException",
			Message: "SIMPLE authentication is not enabled.  Available:[TOKEN, KERBEROS]"}}
	err := fsError(refusal, "staging the launcher")
	var ee *actions.ExecError
	if !errors.As(err, &ee) || ee.Kind != actions.NonTransient || ee.Code != codeAccess {
		t.Fatalf("fsError = %#v, want NON_TRANSIENT %s", err, codeAccess)
	}
	if msg := err.Error(); !strings.Contains(msg, "SIMPLE authentication is not enabled") || !strings.Contains(msg, "hadoop.security.authentication=kerberos") {
		t.Errorf("message %q, want the NameNode's answer and the hint", msg)
	}
}
