// Package delegation holds Hadoop's delegation token identifiers (the
// Writable layout of AbstractDelegationTokenIdentifier, which HDFS, YARN
// and Hive tokens share) and their passwords, for the clients that read a
// token's dates and for the stand-ins that issue tokens.
package delegation

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"fmt"
	"time"

	"github.com/gozie/gozie/hadoop/internal/writable"
)

// identifierVersion is the version byte AbstractDelegationTokenIdentifier
// writes first.
const identifierVersion = 0

// maxTextLen is Text.DEFAULT_MAX_LEN, the longest owner, renewer or real
// user a reader accepts.
const maxTextLen = 1024 * 1024

// Identifier is the identifier of a delegation token
// (AbstractDelegationTokenIdentifier): whose it is, who may renew it, who
// obtained it for the owner, when it was issued, when it dies whatever
// renewals happen, and which issue and master key it came from.
type Identifier struct {
	// Owner is the user the token authenticates as (the effective user
	// of the call that obtained it).
	Owner string
	// Renewer is the short name of the user that may renew the token.
	Renewer string
	// RealUser is the authenticated user that obtained the token for
	// Owner by proxy; empty when Owner obtained it.
	RealUser string
	// IssueDate and MaxDate are milliseconds since the epoch, as Hadoop
	// writes them.
	IssueDate, MaxDate int64
	// SequenceNumber numbers the issuer's tokens; MasterKeyID names the
	// key of the password.
	SequenceNumber, MasterKeyID int32
}

// Marshal returns the identifier's bytes: the version byte, owner, renewer
// and real user as Text, issue and max dates as vlongs, sequence number
// and master key id as vints (AbstractDelegationTokenIdentifier.write).
func (id Identifier) Marshal() []byte {
	b := []byte{identifierVersion}
	b = writable.AppendText(b, id.Owner)
	b = writable.AppendText(b, id.Renewer)
	b = writable.AppendText(b, id.RealUser)
	b = writable.AppendVLong(b, id.IssueDate)
	b = writable.AppendVLong(b, id.MaxDate)
	b = writable.AppendVLong(b, int64(id.SequenceNumber))
	return writable.AppendVLong(b, int64(id.MasterKeyID))
}

// Parse decodes an identifier written by Marshal (or by Hadoop).
func Parse(b []byte) (Identifier, error) {
	r := bytes.NewReader(b)
	var id Identifier
	v, err := r.ReadByte()
	if err != nil {
		return id, fmt.Errorf("delegation: empty token identifier")
	}
	if v != identifierVersion {
		return id, fmt.Errorf("delegation: Unknown version of delegation token %d", int8(v))
	}
	for _, f := range []*string{&id.Owner, &id.Renewer, &id.RealUser} {
		if *f, err = writable.ReadText(r, maxTextLen); err != nil {
			return id, fmt.Errorf("delegation: token identifier: %w", err)
		}
	}
	for _, f := range []*int64{&id.IssueDate, &id.MaxDate} {
		if *f, err = writable.ReadVLong(r); err != nil {
			return id, fmt.Errorf("delegation: token identifier: %w", writable.UnexpectedEOF(err))
		}
	}
	for _, f := range []*int32{&id.SequenceNumber, &id.MasterKeyID} {
		if *f, err = writable.ReadVInt(r); err != nil {
			return id, fmt.Errorf("delegation: token identifier: %w", writable.UnexpectedEOF(err))
		}
	}
	return id, nil
}

// Issued is IssueDate as a time.
func (id Identifier) Issued() time.Time { return time.UnixMilli(id.IssueDate) }

// Max is MaxDate as a time: after it no renewal keeps the token alive.
func (id Identifier) Max() time.Time { return time.UnixMilli(id.MaxDate) }

// HDFSString is how an HDFS delegation token identifier prints in the
// NameNode's messages (DelegationTokenIdentifier.toString over
// AbstractDelegationTokenIdentifier.toString): "token for bob:
// HDFS_DELEGATION_TOKEN owner=bob, renewer=rm, realUser=gozie@REALM,
// issueDate=…, maxDate=…, sequenceNumber=1, masterKeyId=1". short is the
// owner's short name.
func (id Identifier) HDFSString(kind, short string) string {
	return fmt.Sprintf("token for %s: %s owner=%s, renewer=%s, realUser=%s, issueDate=%d, maxDate=%d, sequenceNumber=%d, masterKeyId=%d",
		short, kind, id.Owner, id.Renewer, id.RealUser, id.IssueDate, id.MaxDate, id.SequenceNumber, id.MasterKeyID)
}

// Password is a token's password: the HMAC-SHA1 of its identifier bytes
// under the issuer's master key (SecretManager.createPassword).
func Password(identifier, key []byte) []byte {
	m := hmac.New(sha1.New, key)
	m.Write(identifier)
	return m.Sum(nil)
}

// FormatTime renders t as Hadoop's Time.formatTime does in token
// messages: "yyyy-MM-dd HH:mm:ss,SSSZ".
func FormatTime(t time.Time) string { return t.Format("2006-01-02 15:04:05,000-0700") }
