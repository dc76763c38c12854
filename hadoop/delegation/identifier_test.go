package delegation

import (
	"bytes"
	"strings"
	"testing"
)

// TestIdentifierLayout: the bytes AbstractDelegationTokenIdentifier.write
// produces (version 0, Text owner, renewer, real user, vlong dates, vint
// sequence number and key id), both ways.
func TestIdentifierLayout(t *testing.T) {
	t.Parallel()
	id := Identifier{Owner: "a", Renewer: "b", IssueDate: 1000, MaxDate: 200, SequenceNumber: 1, MasterKeyID: 2}
	want := []byte{0, 1, 'a', 1, 'b', 0, 0x8e, 0x03, 0xe8, 0x8f, 0xc8, 1, 2}
	if got := id.Marshal(); !bytes.Equal(got, want) {
		t.Errorf("Marshal = % x, want % x", got, want)
	}
	back, err := Parse(want)
	if err != nil || back != id {
		t.Errorf("Parse = %+v, %v; want %+v", back, err, id)
	}
	if _, err := Parse(append([]byte{1}, want[1:]...)); err == nil || !strings.Contains(err.Error(), "Unknown version of delegation token 1") {
		t.Errorf("Parse of version 1: %v", err)
	}
	if _, err := Parse(want[:8]); err == nil {
		t.Error("Parse of a cut identifier succeeded")
	}
}
