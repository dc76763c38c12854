package hadoop

import (
	"errors"
	"fmt"

	"github.com/gozie/gozie/hadoop/ipc"
)

// DefaultSimpleRefusedHint is what SimpleRefusedError advises when
// ResolverConfig.SimpleRefusedHint is empty: the setting that makes a
// Hadoop client authenticate with Kerberos.
const DefaultSimpleRefusedHint = "set hadoop.security.authentication=kerberos in the client's core-site.xml"

// SimpleRefusedError reports a NameNode that refused a connection made
// with SIMPLE authentication: the cluster is Kerberized and the client's
// Hadoop configuration is not (hadoop.security.authentication is simple,
// the default). A NameNode answers such a connection before any call with
// a FATAL AccessControlException ("SIMPLE authentication is not enabled.
// Available:[TOKEN, KERBEROS]", ipc/Server.java initializeAuthContext),
// which colinmarc/hdfs reports only as "unexpected sequence number".
//
// It matches fs.ErrPermission, as the NameNode's AccessControlException
// does: retrying cannot help, the configuration must change.
type SimpleRefusedError struct {
	// NameNode is the host:port of the NameNode that refused.
	NameNode string
	// Refusal is the NameNode's answer.
	Refusal *RemoteException
	// Hint says what to configure (ResolverConfig.SimpleRefusedHint).
	Hint string
}

// Error implements error.
func (e *SimpleRefusedError) Error() string {
	hint := e.Hint
	if hint == "" {
		hint = DefaultSimpleRefusedHint
	}
	return fmt.Sprintf("the NameNode %s refuses SIMPLE authentication (%v): the cluster requires Kerberos; %s",
		e.NameNode, e.Refusal, hint)
}

// Unwrap returns the NameNode's refusal.
func (e *SimpleRefusedError) Unwrap() error { return e.Refusal }

// refusesSimple reports whether a NameNode's fatal answer to a SIMPLE
// connection before any call refuses SIMPLE itself: Server.doSaslReply
// answers FATAL_UNAUTHORIZED with an AccessControlException there only
// when SIMPLE is not enabled (a refused proxy is an AuthorizationException).
func refusesSimple(class string, code ipc.ErrorCode) bool {
	return class == accessControlException && code == ipc.CodeUnauthorized
}

// simpleRefused turns the failure of a call gozie's IPC client made with
// opts into a *SimpleRefusedError when the NameNode at addr refused SIMPLE
// authentication, and returns err unchanged otherwise.
func (r *Resolver) simpleRefused(addr string, opts ipc.ClientOptions, err error) error {
	var re *ipc.RemoteError
	if opts.Kerberos != nil || opts.Token != nil || !errors.As(err, &re) || !re.Fatal || !refusesSimple(re.Class, re.Code) {
		return err
	}
	return &SimpleRefusedError{NameNode: addr, Refusal: &RemoteException{Class: re.Class, Message: firstLine(re.Message)},
		Hint: r.cfg.SimpleRefusedHint}
}
