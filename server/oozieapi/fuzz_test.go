package oozieapi

import (
	"encoding/json"
	"testing"
)

// FuzzParseDate checks that any text either is refused or reads as an instant that
// survives a round trip through the JSON form.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"Thu, 01 Jan 2009 00:00:00 GMT", "Wed, 31 Dec 2008 23:00:05 GMT-09:30",
		"Thu, 01 Jan 2009 00:30:05 PST", "", "GMT", "Mon, 32 Jan 2025 00:00:00 UTC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at, err := ParseDate(s)
		if err != nil {
			return
		}
		b, err := json.Marshal(NewDate(at, GMT))
		if err != nil {
			t.Fatalf("marshal %v: %v", at, err)
		}
		var back Date
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(at) {
			t.Fatalf("ParseDate(%q) = %v; round trip %s gave %v, %v", s, at, b, back.Time, err)
		}
	})
}
