package launcher

import (
	"errors"
	"testing"
)

// FuzzParseSpec checks that any bytes give a valid spec or ErrBadSpec, and
// that an accepted spec survives an encode/parse round trip.
func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(`{"version":1,"type":"shell","actionDir":"hdfs://nn/x","shell":{"exec":"run.sh","envVars":["A=1"]}}`))
	f.Add([]byte(`{"version":1,"type":"java","actionDir":"file:///tmp/x","heartbeat":100,"java":{"mainClass":"a.B","opts":["-Xmx1g"]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSpec(b)
		if err != nil {
			if !errors.Is(err, ErrBadSpec) {
				t.Fatalf("error %v is not ErrBadSpec", err)
			}
			return
		}
		enc, err := s.Encode()
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		if _, err := ParseSpec(enc); err != nil {
			t.Fatalf("re-parsing an accepted spec: %v\n%s", err, enc)
		}
	})
}

// FuzzParseResult checks that any bytes give a result or ErrBadResult.
func FuzzParseResult(f *testing.F) {
	f.Add([]byte(`{"version":1,"finalStatus":"SUCCEEDED","output":"a=1\n"}`))
	f.Add([]byte(`{"version":1,"finalStatus":"FAILED","exitCode":1,"errorCode":"1","started":"2024-01-01T00:00:00Z"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseResult(b)
		if err != nil {
			if !errors.Is(err, ErrBadResult) {
				t.Fatalf("error %v is not ErrBadResult", err)
			}
			return
		}
		if r.FinalStatus != StatusSucceeded && r.FinalStatus != StatusFailed {
			t.Fatalf("accepted final status %q", r.FinalStatus)
		}
	})
}
