package miniyarn_test

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
	"google.golang.org/protobuf/proto"
)

// TestAMRMKeyRoll: after a roll both master keys authenticate AMs, and
// every allocate from a connection authenticated with the old key carries
// the attempt's token of the new one (empty service); once the new key is
// activated, the old key's tokens are refused at the next connection
// (InvalidToken), while open connections keep working.
func TestAMRMKeyRoll(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{})
	id, out := submitWaitingAM(t, c)
	old, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	sched := c.rm.SchedulerAddr()
	am := mustDialRawAM(t, sched, old)
	if err := am.register(); err != nil {
		t.Fatal(err)
	}
	resp, err := am.allocate(0)
	if err != nil || resp.GetAmRmToken() != nil {
		t.Fatalf("allocate before a roll: token %v, %v; want none", resp.GetAmRmToken(), err)
	}
	if !c.rm.AMRMTokenCurrent(id) {
		t.Error("before a roll, the launch token is not current")
	}
	if err := c.rm.ActivateAMRMKey(); err == nil {
		t.Error("activating without a roll succeeded")
	}

	if err := c.rm.RollAMRMKey(); err != nil {
		t.Fatal(err)
	}
	if err := c.rm.RollAMRMKey(); err == nil {
		t.Error("rolling twice before an activation succeeded")
	}
	if c.rm.AMRMTokenCurrent(id) {
		t.Error("after a roll, the launch token counts as current")
	}
	resp, err = am.allocate(1)
	if err != nil {
		t.Fatal(err)
	}
	tp := resp.GetAmRmToken()
	if tp == nil || tp.GetKind() != hadoop.KindAMRMToken || tp.GetService() != "" || len(tp.GetPassword()) == 0 ||
		string(tp.GetIdentifier()) == string(old.Identifier) {
		t.Fatalf("allocate after a roll carries %v, want a new %s token with an empty service", tp, hadoop.KindAMRMToken)
	}
	var ident yarnpb.AMRMTokenIdentifierProto
	if err := proto.Unmarshal(tp.GetIdentifier(), &ident); err != nil || ident.GetKeyId() == 0 {
		t.Fatalf("the new token's identifier: %v, %v", &ident, err)
	}
	rolled := hadoop.Token{Identifier: tp.GetIdentifier(), Password: tp.GetPassword(), Kind: tp.GetKind()}
	// Every later answer on the old key's connection carries it again.
	resp, err = am.allocate(2)
	if err != nil || string(resp.GetAmRmToken().GetIdentifier()) != string(rolled.Identifier) {
		t.Fatalf("the next allocate: %v, %v; want the same new token", resp.GetAmRmToken(), err)
	}
	if !c.rm.AMRMTokenCurrent(id) {
		t.Error("the AM acknowledged the new token, which does not count as current")
	}
	// Both keys authenticate new connections until the activation.
	mustDialRawAM(t, sched, old)
	fresh := mustDialRawAM(t, sched, rolled)
	if resp, err := fresh.allocate(3); err != nil || resp.GetAmRmToken() != nil {
		t.Errorf("allocate on a connection of the new key: token %v, %v; want none", resp.GetAmRmToken(), err)
	}

	if err := c.rm.ActivateAMRMKey(); err != nil {
		t.Fatal(err)
	}
	if _, err := am.allocate(4); err != nil {
		t.Errorf("the old key's open connection after the activation: %v", err)
	}
	_, err = dialRawAM(t, sched, old)
	if remoteClass(err) != ipc.InvalidTokenException || !strings.Contains(err.Error(), "Invalid AMRMToken from appattempt_") {
		t.Errorf("connecting with the old token after the activation: %v, want InvalidToken", err)
	}
	if _, err := mustDialRawAM(t, sched, rolled).allocate(5); err != nil {
		t.Errorf("the new token after the activation: %v", err)
	}
}
