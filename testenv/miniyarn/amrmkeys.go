package miniyarn

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"errors"
	"fmt"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/yarn"
	"google.golang.org/protobuf/proto"
)

// amrmKeys is the state of the RM's AMRMTokenSecretManager: the current
// master key and, between a roll and its activation, the next one. It is
// part of the state store: it survives restarts and failovers, so the AMRM
// tokens of running attempts stay valid. Guarded by RM.mu.
type amrmKeys struct {
	serial  int32 // the id of the next key made
	current masterKey
	next    *masterKey
}

// masterKey is one AMRM token master key.
type masterKey struct {
	id     int32
	secret []byte
}

func newAMRMKeys() (*amrmKeys, error) {
	k := &amrmKeys{serial: 1}
	cur, err := k.make()
	if err != nil {
		return nil, err
	}
	k.current = cur
	return k, nil
}

// make creates the next master key (AMRMTokenSecretManager.createNewMasterKey).
func (k *amrmKeys) make() (masterKey, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return masterKey{}, fmt.Errorf("miniyarn: making an AMRM master key: %w", err)
	}
	m := masterKey{id: k.serial, secret: secret}
	k.serial++
	return m, nil
}

// newest is the key new tokens are made with: the next key once rolled,
// else the current one (AMRMTokenSecretManager.getMasterKey).
func (k *amrmKeys) newest() masterKey {
	if k.next != nil {
		return *k.next
	}
	return k.current
}

// secret returns the secret of key id when it is the current or the next
// key; an activated roll has dropped the key before.
func (k *amrmKeys) secret(id int32) ([]byte, bool) {
	switch {
	case id == k.current.id:
		return k.current.secret, true
	case k.next != nil && id == k.next.id:
		return k.next.secret, true
	}
	return nil, false
}

// password is the HMAC-SHA1 of an identifier under a secret, as
// SecretManager.createPassword computes it.
func password(secret, ident []byte) []byte {
	m := hmac.New(sha1.New, secret)
	m.Write(ident)
	return m.Sum(nil)
}

// RollAMRMKey creates the next AMRM token master key, as the RM's
// AMRMTokenSecretManager.rollMasterKey does every
// yarn.resourcemanager.am-rm-tokens.master-key-rolling-interval-secs: from
// then on both keys authenticate AMs, and every allocate from a connection
// authenticated with a token of another key answers with the attempt's
// token of the new key (AllocateResponseProto.am_rm_token, empty service),
// as ApplicationMasterService.allocate does. [RM.ActivateAMRMKey] ends the
// roll. Rolling again before that is an error.
func (rm *RM) RollAMRMKey() error {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.keys.next != nil {
		return fmt.Errorf("miniyarn: AMRM master key %d waits for activation already", rm.keys.next.id)
	}
	next, err := rm.keys.make()
	if err != nil {
		return err
	}
	rm.keys.next = &next
	rm.log.Info("miniyarn: rolled the AMRM master key", "key_id", next.id)
	return nil
}

// ActivateAMRMKey makes the key of the last [RM.RollAMRMKey] the current one
// and drops the old key (AMRMTokenSecretManager.activateNextMasterKey, which
// the RM runs 1.5 AM expiry intervals after the roll): a connection
// authenticated with a token of the old key keeps working, but a new one is
// refused (InvalidToken). Without a roll it is an error.
func (rm *RM) ActivateAMRMKey() error {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.keys.next == nil {
		return errors.New("miniyarn: no rolled AMRM master key to activate")
	}
	rm.keys.current, rm.keys.next = *rm.keys.next, nil
	rm.log.Info("miniyarn: activated the AMRM master key", "key_id", rm.keys.current.id)
	return nil
}

// AMRMTokenCurrent reports whether the AM of the application's current
// attempt holds an AMRM token of the RM's newest master key: it
// authenticated with one, or an allocate answer carried one and the AM's
// next allocate acknowledged that answer. After [RM.RollAMRMKey], tests
// wait for it before [RM.ActivateAMRMKey] drops the old key.
func (rm *RM) AMRMTokenCurrent(id yarn.ApplicationID) bool {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, ok := rm.apps[id]
	if !ok || a.current() == nil {
		return false
	}
	return a.current().heldKey == rm.keys.newest().id
}

// issueTokenLocked makes the attempt's AMRM token under the newest key
// (AMRMTokenSecretManager.createAndGetAMRMToken): the identifier is the
// encoded AMRMTokenIdentifierProto, the password its HMAC-SHA1, and the
// service empty (new Text()): the AM finds the scheduler in its
// HADOOP_CONF_DIR. Callers hold RM.mu.
func (rm *RM) issueTokenLocked(at *attempt) (hadoop.Token, error) {
	key := rm.keys.newest()
	ident, err := proto.Marshal(&yarnpb.AMRMTokenIdentifierProto{
		AppAttemptId: attemptProto(at.id),
		KeyId:        proto.Int32(key.id),
	})
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("encoding AMRM token identifier: %w", err)
	}
	at.token = hadoop.Token{Identifier: ident, Password: password(key.secret, ident), Kind: hadoop.KindAMRMToken}
	at.tokenKey = key.id
	return at.token, nil
}

// tokenProto is t as a TokenProto of an AllocateResponseProto.
func tokenProto(t hadoop.Token) *commonpb.TokenProto {
	return &commonpb.TokenProto{
		Identifier: t.Identifier, Password: t.Password,
		Kind: proto.String(t.Kind), Service: proto.String(t.Service),
	}
}

func attemptProto(id yarn.AttemptID) *yarnpb.ApplicationAttemptIdProto {
	return &yarnpb.ApplicationAttemptIdProto{
		ApplicationId: &yarnpb.ApplicationIdProto{
			Id:               proto.Int32(int32(id.App.Sequence)),
			ClusterTimestamp: proto.Int64(id.App.ClusterTimestamp),
		},
		AttemptId: proto.Int32(int32(id.Attempt)),
	}
}

// tokenIdentity is what an AMRM token identifier names.
type tokenIdentity struct {
	attempt yarn.AttemptID
	key     int32
}

// decodeIdentifier reads an AMRM token identifier (AMRMTokenIdentifierProto).
func decodeIdentifier(ident []byte) (tokenIdentity, error) {
	var p yarnpb.AMRMTokenIdentifierProto
	if err := proto.Unmarshal(ident, &p); err != nil {
		return tokenIdentity{}, fmt.Errorf("decoding AMRM token identifier: %w", err)
	}
	a := p.GetAppAttemptId()
	return tokenIdentity{
		attempt: yarn.AttemptID{
			App: yarn.ApplicationID{
				ClusterTimestamp: a.GetApplicationId().GetClusterTimestamp(),
				Sequence:         int64(a.GetApplicationId().GetId()),
			},
			Attempt: int64(a.GetAttemptId()),
		},
		key: p.GetKeyId(),
	}, nil
}

// lookupToken is the SASL secret lookup of the scheduler
// (AMRMTokenSecretManager.retrievePassword): the password of a token of a
// live attempt under the current or the next key, and the attempt id as the
// user (AMRMTokenIdentifier.getUser). The IPC server refuses the others
// with InvalidToken; the messages are Hadoop's.
func (rm *RM) lookupToken(ident []byte) ([]byte, string, error) {
	tid, err := decodeIdentifier(ident)
	if err != nil {
		return nil, "", err
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if _, _, err := rm.liveAttemptLocked(tid.attempt); err != nil {
		return nil, "", refusal(tid.attempt.String() + " not found in AMRMTokenSecretManager.")
	}
	secret, ok := rm.keys.secret(tid.key)
	if !ok {
		return nil, "", refusal("Invalid AMRMToken from " + tid.attempt.String())
	}
	return password(secret, ident), tid.attempt.String(), nil
}

// refusal is a message the RM sends as is (Hadoop's wording).
type refusal string

func (r refusal) Error() string { return string(r) }
