package yarn

import (
	"errors"
	"testing"
)

func TestApplicationIDRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want ApplicationID
		text string
	}{
		{"application_1700000000000_0001", ApplicationID{1700000000000, 1}, "application_1700000000000_0001"},
		{"application_1700000000000_12345", ApplicationID{1700000000000, 12345}, "application_1700000000000_12345"},
		{"application_1_1", ApplicationID{1, 1}, "application_1_0001"},
	}
	for _, tc := range tests {
		got, err := ParseApplicationID(tc.in)
		if err != nil {
			t.Fatalf("ParseApplicationID(%q): %v", tc.in, err)
		}
		if got != tc.want || got.String() != tc.text {
			t.Errorf("ParseApplicationID(%q) = %+v %q, want %+v %q", tc.in, got, got.String(), tc.want, tc.text)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	bad := []string{
		"", "application_", "application_1", "application_1_", "application__1", "application_1_2_3",
		"application_-1_1", "application_+1_1", "application_1_x", "app_1_1", "application_99999999999999999999_1",
		"appattempt_1_1", "appattempt_1_1_1_1", "container_1_1_1", "container_e_1_1_1_1", "container_ex_1_1_1_1",
	}
	for _, s := range bad {
		var err error
		switch {
		case len(s) >= 10 && s[:10] == "appattempt":
			_, err = ParseAttemptID(s)
		case len(s) >= 9 && s[:9] == "container":
			_, err = ParseContainerID(s)
		default:
			_, err = ParseApplicationID(s)
		}
		if !errors.Is(err, ErrInvalidID) {
			t.Errorf("parsing %q: err = %v, want ErrInvalidID", s, err)
		}
	}
}

func TestAttemptAndContainerIDs(t *testing.T) {
	t.Parallel()
	app := ApplicationID{1700000000000, 7}
	at := AttemptID{App: app, Attempt: 2}
	if got := at.String(); got != "appattempt_1700000000000_0007_000002" {
		t.Errorf("attempt = %q", got)
	}
	tests := []struct {
		id   ContainerID
		text string
	}{
		{ContainerID{Attempt: at, Container: 1}, "container_1700000000000_0007_02_000001"},
		{ContainerID{Attempt: at, Epoch: 3, Container: 1234567}, "container_e03_1700000000000_0007_02_1234567"},
		{ContainerID{Attempt: AttemptID{App: app, Attempt: 123}, Epoch: 17, Container: 5}, "container_e17_1700000000000_0007_123_000005"},
	}
	for _, tc := range tests {
		if got := tc.id.String(); got != tc.text {
			t.Errorf("String() = %q, want %q", got, tc.text)
		}
		back, err := ParseContainerID(tc.text)
		if err != nil || back != tc.id {
			t.Errorf("ParseContainerID(%q) = %+v, %v; want %+v", tc.text, back, err, tc.id)
		}
	}
	back, err := ParseAttemptID(at.String())
	if err != nil || back != at {
		t.Errorf("ParseAttemptID round trip: %+v, %v", back, err)
	}
}

func TestIDText(t *testing.T) {
	t.Parallel()
	var id ApplicationID
	if err := id.UnmarshalText([]byte("application_5_0006")); err != nil || id != (ApplicationID{5, 6}) {
		t.Fatalf("UnmarshalText: %+v %v", id, err)
	}
	if err := id.UnmarshalText(nil); err != nil || !id.IsZero() {
		t.Fatalf("empty UnmarshalText: %+v %v", id, err)
	}
	b, _ := id.MarshalText()
	if len(b) != 0 {
		t.Errorf("zero id marshals to %q", b)
	}
	if err := id.UnmarshalText([]byte("nope")); err == nil {
		t.Error("UnmarshalText accepted garbage")
	}
}

func FuzzParseContainerID(f *testing.F) {
	for _, s := range []string{"container_1700000000000_0007_02_000001", "container_e17_1_1_1_1", "container_", "container_e_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseContainerID(s)
		if err != nil {
			return
		}
		back, err := ParseContainerID(id.String())
		if err != nil || back != id {
			t.Fatalf("%q parsed to %+v, whose text %q parses to %+v, %v", s, id, id.String(), back, err)
		}
	})
}

func FuzzParseApplicationID(f *testing.F) {
	for _, s := range []string{"application_1700000000000_0001", "application_1_1", "application__", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseApplicationID(s)
		if err != nil {
			return
		}
		back, err := ParseApplicationID(id.String())
		if err != nil || back != id {
			t.Fatalf("%q parsed to %+v, whose text parses to %+v, %v", s, id, back, err)
		}
	})
}
