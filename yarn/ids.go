package yarn

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidID is wrapped by every error from parsing an application, attempt or
// container id.
var ErrInvalidID = errors.New("invalid YARN id")

// ApplicationID identifies one YARN application. Its text form is
// application_<clusterTimestamp>_<sequence>, the sequence zero-padded to at least
// four digits (it grows past 9999).
type ApplicationID struct {
	// ClusterTimestamp is the ResourceManager's start time in milliseconds since
	// the epoch; it is the same for every application of one RM run.
	ClusterTimestamp int64
	// Sequence numbers the applications of one RM run, starting at 1.
	Sequence int64
}

// AttemptID identifies one attempt of an application:
// appattempt_<clusterTimestamp>_<sequence>_<attempt>, the attempt zero-padded to
// six digits.
type AttemptID struct {
	// App is the application the attempt belongs to.
	App ApplicationID
	// Attempt numbers the attempts of the application, starting at 1.
	Attempt int64
}

// ContainerID identifies one container:
// container_[e<epoch>_]<clusterTimestamp>_<sequence>_<attempt>_<container>, the
// attempt zero-padded to two digits and the container number to six. The epoch
// part appears after an RM restart with work-preserving recovery.
type ContainerID struct {
	// Attempt is the application attempt that owns the container.
	Attempt AttemptID
	// Epoch is the RM epoch; zero omits the e<epoch> part.
	Epoch int64
	// Container numbers the containers of the attempt; the AM container is 1.
	Container int64
}

const (
	appPrefix       = "application_"
	attemptPrefix   = "appattempt_"
	containerPrefix = "container_"
)

// String returns the id in YARN's text form.
func (id ApplicationID) String() string {
	return fmt.Sprintf("application_%d_%04d", id.ClusterTimestamp, id.Sequence)
}

// IsZero reports whether id is the zero value (no id).
func (id ApplicationID) IsZero() bool { return id == ApplicationID{} }

// MarshalText implements encoding.TextMarshaler; the zero id encodes as "".
func (id ApplicationID) MarshalText() ([]byte, error) {
	if id.IsZero() {
		return []byte{}, nil
	}
	return []byte(id.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler; "" decodes to the zero id.
func (id *ApplicationID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = ApplicationID{}
		return nil
	}
	v, err := ParseApplicationID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// ParseApplicationID parses application_<ts>_<seq>. It accepts any number of
// sequence digits, as YARN does.
func ParseApplicationID(s string) (ApplicationID, error) {
	rest, ok := strings.CutPrefix(s, appPrefix)
	if !ok {
		return ApplicationID{}, fmt.Errorf("%w: %q does not start with %q", ErrInvalidID, s, appPrefix)
	}
	nums, err := splitNumbers(s, rest, 2)
	if err != nil {
		return ApplicationID{}, err
	}
	return ApplicationID{ClusterTimestamp: nums[0], Sequence: nums[1]}, nil
}

// String returns the id in YARN's text form.
func (id AttemptID) String() string {
	return fmt.Sprintf("appattempt_%d_%04d_%06d", id.App.ClusterTimestamp, id.App.Sequence, id.Attempt)
}

// MarshalText implements encoding.TextMarshaler.
func (id AttemptID) MarshalText() ([]byte, error) {
	if id == (AttemptID{}) {
		return []byte{}, nil
	}
	return []byte(id.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler; "" decodes to the zero id.
func (id *AttemptID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = AttemptID{}
		return nil
	}
	v, err := ParseAttemptID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// ParseAttemptID parses appattempt_<ts>_<seq>_<attempt>.
func ParseAttemptID(s string) (AttemptID, error) {
	rest, ok := strings.CutPrefix(s, attemptPrefix)
	if !ok {
		return AttemptID{}, fmt.Errorf("%w: %q does not start with %q", ErrInvalidID, s, attemptPrefix)
	}
	nums, err := splitNumbers(s, rest, 3)
	if err != nil {
		return AttemptID{}, err
	}
	return AttemptID{App: ApplicationID{ClusterTimestamp: nums[0], Sequence: nums[1]}, Attempt: nums[2]}, nil
}

// String returns the id in YARN's text form.
func (id ContainerID) String() string {
	app := id.Attempt.App
	if id.Epoch > 0 {
		return fmt.Sprintf("container_e%02d_%d_%04d_%02d_%06d",
			id.Epoch, app.ClusterTimestamp, app.Sequence, id.Attempt.Attempt, id.Container)
	}
	return fmt.Sprintf("container_%d_%04d_%02d_%06d",
		app.ClusterTimestamp, app.Sequence, id.Attempt.Attempt, id.Container)
}

// MarshalText implements encoding.TextMarshaler.
func (id ContainerID) MarshalText() ([]byte, error) {
	if id == (ContainerID{}) {
		return []byte{}, nil
	}
	return []byte(id.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler; "" decodes to the zero id.
func (id *ContainerID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = ContainerID{}
		return nil
	}
	v, err := ParseContainerID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// ParseContainerID parses container_<ts>_<seq>_<attempt>_<container>, with an
// optional e<epoch>_ part after the prefix.
func ParseContainerID(s string) (ContainerID, error) {
	rest, ok := strings.CutPrefix(s, containerPrefix)
	if !ok {
		return ContainerID{}, fmt.Errorf("%w: %q does not start with %q", ErrInvalidID, s, containerPrefix)
	}
	var epoch int64
	if after, ok := strings.CutPrefix(rest, "e"); ok {
		head, tail, found := strings.Cut(after, "_")
		if !found {
			return ContainerID{}, fmt.Errorf("%w: %q has an epoch but no timestamp", ErrInvalidID, s)
		}
		n, err := parseDigits(head)
		if err != nil {
			return ContainerID{}, fmt.Errorf("%w: epoch of %q: %v", ErrInvalidID, s, err)
		}
		epoch, rest = n, tail
	}
	nums, err := splitNumbers(s, rest, 4)
	if err != nil {
		return ContainerID{}, err
	}
	return ContainerID{
		Attempt:   AttemptID{App: ApplicationID{ClusterTimestamp: nums[0], Sequence: nums[1]}, Attempt: nums[2]},
		Epoch:     epoch,
		Container: nums[3],
	}, nil
}

// splitNumbers splits rest on '_' into exactly n unsigned decimal numbers; whole is
// the full id, for messages.
func splitNumbers(whole, rest string, n int) ([]int64, error) {
	parts := strings.Split(rest, "_")
	if len(parts) != n {
		return nil, fmt.Errorf("%w: %q has %d numeric parts, want %d", ErrInvalidID, whole, len(parts), n)
	}
	out := make([]int64, n)
	for i, p := range parts {
		v, err := parseDigits(p)
		if err != nil {
			return nil, fmt.Errorf("%w: %q part %d: %v", ErrInvalidID, whole, i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

// parseDigits parses a non-empty run of ASCII digits (no sign) into an int64.
func parseDigits(s string) (int64, error) {
	if s == "" {
		return 0, errors.New("empty number")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%q is not a decimal number", s)
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	return v, nil
}
