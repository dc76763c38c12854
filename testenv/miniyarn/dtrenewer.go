package miniyarn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
	"google.golang.org/protobuf/encoding/protowire"
)

// DefaultTokenRemovalDelay is how long after an application ends a
// Kerberized RM with log aggregation waits before it lets go of the
// application's tokens (yarn.nm.liveness-monitor.expiry-interval-ms, the
// delay of DelegationTokenRenewer's keep-alive removal).
const DefaultTokenRemovalDelay = 10 * time.Minute

// dtRenewer is the part of the RM's DelegationTokenRenewer that decides
// what happens to a submission's delegation tokens when the application
// ends. Tokens are tracked only on a Kerberized RM (RMAppManager hands
// them over only with security on), and only the kinds whose renewer the
// RM knows (Token.isManaged): HDFS_DELEGATION_TOKEN and
// RM_DELEGATION_TOKEN; a token whose renewer is empty is skipped
// (skipTokenRenewal). A token first submitted while no running
// application holds it takes that submission's cancel-tokens-when-complete
// (default true); later submissions of the same token only join its
// referring applications, whatever they asked. When the last referring
// application ends, the token is cancelled if its flag says so, by the
// RM's own principal, one at a time in the order the applications ended
// (DelegationTokenCancelThread). All fields are guarded by RM.mu.
type dtRenewer struct {
	all  map[string]*tokenToRenew               // by tokenKey
	apps map[yarn.ApplicationID][]*tokenToRenew // the tokens each application refers to
	// queue holds the tokens to cancel; wake (buffer 1) tells the
	// canceller there is work.
	queue []hadoop.Token
	wake  chan struct{}
	// delayed are the pending keep-alive removals (log aggregation on).
	delayed map[yarn.ApplicationID]*time.Timer
}

// tokenToRenew is DelegationTokenToRenew: one token and the running
// applications that refer to it.
type tokenToRenew struct {
	token       hadoop.Token
	apps        map[yarn.ApplicationID]bool
	cancelAtEnd bool
}

func newDTRenewer() *dtRenewer {
	return &dtRenewer{all: map[string]*tokenToRenew{}, apps: map[yarn.ApplicationID][]*tokenToRenew{},
		wake: make(chan struct{}, 1), delayed: map[yarn.ApplicationID]*time.Timer{}}
}

// tokenKey is a token's identity as Token.equals sees it: identifier,
// password, kind and service.
func tokenKey(t hadoop.Token) string {
	return t.Kind + "\x00" + t.Service + "\x00" + string(t.Identifier) + "\x00" + string(t.Password)
}

// managed reports whether the RM tracks t: a kind whose TokenRenewer
// manages it, with a renewer named in its identifier.
func managed(t hadoop.Token) bool {
	switch t.Kind {
	case hadoop.KindHDFSDelegationToken:
		id, err := delegation.Parse(t.Identifier)
		return err == nil && id.Renewer != ""
	case hadoop.KindRMDelegationToken:
		id, err := parseRMIdentifier(t.Identifier)
		return err == nil && id.renewer != ""
	}
	return false
}

// cancelAtEnd is the submission's cancel-tokens-when-complete, true
// unless it said false (ApplicationSubmissionContextProto's default).
func cancelAtEnd(sc yarn.ApplicationSubmissionContext) bool {
	return sc.CancelTokensWhenComplete == nil || *sc.CancelTokensWhenComplete
}

// renewNewTokens renews, as the RM's login user, each managed token of a
// submission that no application holds yet (DelegationTokenRenewer
// handleAppSubmitEvent): HDFS tokens at their NameNode through
// KerberosOptions.RenewHDFSToken, RM tokens in the RM's own secret
// manager, where the RM's short name must be the token's renewer. A
// Kerberized RM holds a new application in NEW until this is done; the
// first token that does not renew rejects it, and its message is the
// application's diagnostics ("Failed to renew token: Kind: …"), while the
// cause goes to the log only, as the RM's IOException carries it. It
// returns "" when every token renewed.
func (rm *RM) renewNewTokens(ctx context.Context, sub validSubmission) string {
	k := rm.opts.Kerberos
	if k == nil {
		return ""
	}
	for _, st := range sub.tokens {
		t := st.token
		if !managed(t) {
			continue
		}
		rm.mu.Lock()
		_, held := rm.renewer.all[tokenKey(t)]
		rm.mu.Unlock()
		if held {
			continue // renewed when its first application was submitted
		}
		var err error
		switch t.Kind {
		case hadoop.KindRMDelegationToken:
			_, err = rm.dtokens.renew(t, ugi.ShortName(k.RMPrincipal), rm.opts.Now(), k)
		case hadoop.KindHDFSDelegationToken:
			if k.RenewHDFSToken == nil {
				continue // no way to the NameNode: left unrenewed, as documented
			}
			_, err = k.RenewHDFSToken(ctx, t)
		}
		if err != nil {
			msg := "Failed to renew token: " + tokenString(t)
			rm.log.Warn("miniyarn: rejecting the application because failed to add it to the delegation token renewer",
				"yarn_app_id", sub.sc.ApplicationID.String(), "token", tokenString(t), "error", err)
			return msg
		}
	}
	return ""
}

// tokenString is Token.toString: "Kind: <kind>, Service: <service>,
// Ident: (<identifier>)".
func tokenString(t hadoop.Token) string {
	ident := fmt.Sprintf("%x", t.Identifier)
	switch t.Kind {
	case hadoop.KindHDFSDelegationToken:
		if id, err := delegation.Parse(t.Identifier); err == nil {
			ident = "(" + id.HDFSString(t.Kind, ugi.ShortName(id.Owner)) + ")"
		}
	case hadoop.KindRMDelegationToken:
		if id, err := parseRMIdentifier(t.Identifier); err == nil {
			ident = fmt.Sprintf("(%s owner=%s, renewer=%s, sequenceNumber=%d, masterKeyId=%d)", t.Kind, id.owner, id.renewer, id.seq, id.keyID)
		}
	}
	return "Kind: " + t.Kind + ", Service: " + t.Service + ", Ident: " + ident
}

// registerTokens records a new application's managed tokens
// (handleAppSubmitEvent). Callers hold RM.mu.
func (rm *RM) registerTokens(a *app) {
	if rm.opts.Kerberos == nil {
		return
	}
	d := rm.renewer
	for _, st := range a.tokens {
		if !managed(st.token) {
			continue
		}
		k := tokenKey(st.token)
		t, ok := d.all[k]
		if !ok {
			t = &tokenToRenew{token: st.token, apps: map[yarn.ApplicationID]bool{}, cancelAtEnd: cancelAtEnd(a.sc)}
			d.all[k] = t
		}
		if !t.apps[a.id] {
			t.apps[a.id] = true
			d.apps[a.id] = append(d.apps[a.id], t)
		}
	}
}

// applicationEnded lets go of an ended application's tokens
// (applicationFinished): at once, or after the keep-alive delay when log
// aggregation is on. Callers hold RM.mu.
func (rm *RM) applicationEnded(a *app) {
	d := rm.renewer
	if len(d.apps[a.id]) == 0 || rm.closing {
		return // a stopping RM drops its tokens without cancelling them (serviceStop)
	}
	if !rm.opts.LogAggregation {
		rm.removeFromRenewal(a.id)
		return
	}
	if _, ok := d.delayed[a.id]; ok {
		return
	}
	id := a.id
	d.delayed[id] = time.AfterFunc(rm.opts.Kerberos.TokenRemovalDelay, func() {
		rm.mu.Lock()
		defer rm.mu.Unlock()
		if _, ok := d.delayed[id]; ok && !rm.closing {
			delete(d.delayed, id)
			rm.removeFromRenewal(id)
		}
	})
}

// removeFromRenewal drops id from its tokens' referring applications and
// queues the cancellation of each token no running application refers
// to any more, if its flag says so (removeApplicationFromRenewal,
// cancelToken). Callers hold RM.mu.
func (rm *RM) removeFromRenewal(id yarn.ApplicationID) {
	d := rm.renewer
	toks := d.apps[id]
	delete(d.apps, id)
	queued := false
	for _, t := range toks {
		delete(t.apps, id)
		if len(t.apps) > 0 {
			continue
		}
		delete(d.all, tokenKey(t.token))
		if !t.cancelAtEnd {
			rm.log.Info("miniyarn: did not cancel a token of an ended application", "yarn_app_id", id.String(), "kind", t.token.Kind)
			continue
		}
		d.queue = append(d.queue, t.token)
		queued = true
	}
	if queued {
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
}

// runCanceller cancels queued tokens one at a time until ctx ends; a
// failure is logged, as the RM's canceller does.
func (rm *RM) runCanceller(ctx context.Context) {
	d := rm.renewer
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.wake:
		}
		for ctx.Err() == nil {
			rm.mu.Lock()
			if len(d.queue) == 0 {
				rm.mu.Unlock()
				break
			}
			t := d.queue[0]
			d.queue = d.queue[1:]
			rm.mu.Unlock()
			if err := rm.cancelToken(ctx, t); err != nil {
				rm.log.Warn("miniyarn: failed to cancel token", "kind", t.Kind, "error", err)
			}
		}
	}
}

// cancelToken is Token.cancel as the RM's login user: RM delegation
// tokens in the RM's own secret manager, HDFS tokens at their NameNode
// through KerberosOptions.CancelHDFSToken.
func (rm *RM) cancelToken(ctx context.Context, t hadoop.Token) error {
	k := rm.opts.Kerberos
	switch t.Kind {
	case hadoop.KindRMDelegationToken:
		return rm.dtokens.cancel(t, k.RMPrincipal)
	case hadoop.KindHDFSDelegationToken:
		if k.CancelHDFSToken == nil {
			return errors.New("no way to the NameNode (KerberosOptions.CancelHDFSToken is nil)")
		}
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		return k.CancelHDFSToken(ctx, t)
	}
	return nil
}

// rmIdentifier is the part of a YARNDelegationTokenIdentifierProto the
// RM checks.
type rmIdentifier struct {
	owner, renewer string
	maxDate        int64 // milliseconds since the epoch
	seq, keyID     int32
}

// parseRMIdentifier reads a YARNDelegationTokenIdentifierProto (owner 1,
// renewer 2, maxDate 5, sequenceNumber 6, masterKeyId 7; the others are
// skipped).
func parseRMIdentifier(b []byte) (rmIdentifier, error) {
	var id rmIdentifier
	bad := errors.New("malformed RM delegation token identifier")
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return id, bad
		}
		b = b[n:]
		switch {
		case (num == 1 || num == 2) && typ == protowire.BytesType:
			v, n := protowire.ConsumeString(b)
			if n < 0 {
				return id, bad
			}
			if num == 1 {
				id.owner = v
			} else {
				id.renewer = v
			}
			b = b[n:]
		case (num == 5 || num == 6 || num == 7) && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return id, bad
			}
			switch num {
			case 5:
				id.maxDate = int64(v)
			case 6:
				id.seq = int32(v)
			default:
				id.keyID = int32(v)
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return id, bad
			}
			b = b[n:]
		}
	}
	return id, nil
}
