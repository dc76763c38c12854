package oozie

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestBlobRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "<configuration/>", "nul\x00 é ✓ 😀 end"} {
		for _, gz := range []bool{false, true} {
			raw := EncodeBlob([]byte(s), gz)
			if gz != bytes.HasPrefix(raw, []byte("OBJ")) {
				t.Errorf("compress=%v: header %q", gz, raw[:min(3, len(raw))])
			}
			got, err := DecodeBlob(raw)
			if err != nil || string(got) != s {
				t.Errorf("compress=%v: %q, %v; want %q", gz, got, err, s)
			}
		}
	}
}

func TestDecodeBlobRefuses(t *testing.T) {
	t.Parallel()
	good := EncodeBlob([]byte("x"), true)
	snappy := bytes.Replace(good, []byte("\x00\x02gz"), []byte("\x00\x02sn"), 1)
	for name, raw := range map[string][]byte{
		"truncated header": []byte("OBJ\x00\x00"),
		"bad version":      []byte("OBJ\x00\x00\x00\x07\x00\x00\x00\x01"),
		"unknown codec":    snappy,
		"not gzip":         append(append([]byte(nil), good[:22]...), "not gzip at all"...),
	} {
		if _, err := DecodeBlob(raw); !errors.Is(err, ErrBlob) {
			t.Errorf("%s: %v, want ErrBlob", name, err)
		}
	}
}

func TestModifiedUTF8(t *testing.T) {
	t.Parallel()
	// Java writes NUL as C0 80 and a character outside the BMP as two
	// three-byte surrogates.
	enc := encodeModifiedUTF8("a\x00😀")
	if want := []byte{'a', 0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}; !bytes.Equal(enc, want) {
		t.Errorf("encoded % x, want % x", enc, want)
	}
	if s, err := decodeModifiedUTF8(enc); err != nil || s != "a\x00😀" {
		t.Errorf("decoded %q, %v", s, err)
	}
	if _, err := decodeModifiedUTF8([]byte{0xFF}); err == nil {
		t.Error("malformed input decoded")
	}
}

func TestWorkflowDefinitionFromInstance(t *testing.T) {
	t.Parallel()
	long := "<workflow-app>" + strings.Repeat("é", 45000) + "</workflow-app>" // three chunks
	inst := EncodeWorkflowInstance("0000001-260101000000000-oozie-oozi-W", "<configuration/>", "wf", long)
	got, err := WorkflowDefinition(inst)
	if err != nil || got != long {
		t.Fatalf("definition of %d chars: %d chars, %v", len(long), len(got), err)
	}
	if _, err := WorkflowDefinition(inst[:40]); !errors.Is(err, ErrBlob) {
		t.Errorf("truncated instance: %v", err)
	}
}
