package hadoop

import (
	"context"
	"fmt"
	"io/fs"
)

// userKey is the context key of the effective user.
type userKey struct{}

// AsUser returns a context whose filesystem and ResourceManager calls act
// for user: a Resolver then reaches HDFS as user through Hadoop's proxy-user
// mechanism (its own user is the real user, user the effective one), and
// yarn.Client sends doAs=user.
//
// Everything the server does for a job carries the job's user this way, so
// that nothing a job does runs as the server. An empty user makes the calls
// act for no one again: as the Resolver's own user (which a Resolver with
// RequireUser refuses).
func AsUser(ctx context.Context, user string) context.Context {
	if EffectiveUser(ctx) == user {
		return ctx
	}
	return context.WithValue(ctx, userKey{}, user)
}

// EffectiveUser returns the user ctx acts for (see AsUser), or "".
func EffectiveUser(ctx context.Context) string {
	u, _ := ctx.Value(userKey{}).(string)
	return u
}

// RemoteException is an exception a NameNode raised, as Hadoop's clients
// report it: the Java class and its message, e.g.
// "org.apache.hadoop.security.AccessControlException: Permission denied:
// user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x".
// colinmarc/hdfs keeps only the class (as an io/fs sentinel); the Resolver's
// clients put the message back on refusals (see nnConn).
type RemoteException struct {
	// Class is the Java exception class.
	Class string
	// Message is the exception's message.
	Message string
}

// Java exception classes of refusals.
const (
	accessControlException = "org.apache.hadoop.security.AccessControlException"
	authorizationException = "org.apache.hadoop.security.authorize.AuthorizationException"
)

// Error implements error.
func (e *RemoteException) Error() string { return e.Class + ": " + e.Message }

// Is makes refusals (AccessControlException and its subclass
// AuthorizationException) match fs.ErrPermission.
func (e *RemoteException) Is(target error) bool {
	return target == fs.ErrPermission && e.refusal()
}

func (e *RemoteException) refusal() bool {
	return e.Class == accessControlException || e.Class == authorizationException
}

// Chown implements Chowner: the policy first, then the wrapped filesystem's
// Chown.
func (r *Restricted) Chown(ctx context.Context, uri, owner, group string) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	c, ok := r.fsys.(Chowner)
	if !ok {
		return fmt.Errorf("hadoop: %s: changing owners is not supported", uri)
	}
	return c.Chown(ctx, uri, owner, group)
}
