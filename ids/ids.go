// Package ids generates and parses Oozie-format job and action ids.
//
// A job id is <seq>-<start>-<systemID>-<kind>:
//
//	0000012-250127091857123-oozie-oozi-W
//
// seq is a per-generator counter zero-padded to seven digits (it grows wider
// past 9,999,999), start is the generator's start time as yyMMddHHmmssSSS in
// UTC, systemID is the server's system id cut to ten characters, and kind is W
// (workflow), C (coordinator) or B (bundle). A workflow action id is
// <jobID>@<nodeName>, a coordinator action id <jobID>@<actionNumber>.
//
// The start time keeps the ids of two runs of one server apart; servers that
// share a database must use distinct system ids.
package ids

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Job kinds, the last character of a job id.
const (
	Workflow    byte = 'W'
	Coordinator byte = 'C'
	Bundle      byte = 'B'
)

const (
	// MaxJobIDLength is the longest job id Oozie accepts.
	MaxJobIDLength = 40
	// MaxChildIDLength is the longest action id Oozie accepts.
	MaxChildIDLength = 255
	// maxSystemIDLength is how much of the system id goes into a job id.
	maxSystemIDLength = 10
	// seqWidth is the minimum number of digits of the sequence.
	seqWidth = 7
	// startLayout formats the generator start (yyMMddHHmmssSSS).
	startLayout = "060102150405.000"
	startDigits = 15
)

// ErrInvalidID is wrapped by every error of Parse.
var ErrInvalidID = errors.New("invalid job id")

// Generator hands out job ids. It is safe for concurrent use.
type Generator struct {
	prefix string // "-<start>-<systemID>-"
	seq    atomic.Int64
}

// NewGenerator returns a generator for systemID (cut to ten characters) whose
// ids carry start, normally the server's start time. The first id has
// sequence 0, as Oozie's counter does.
func NewGenerator(systemID string, start time.Time) *Generator {
	if len(systemID) > maxSystemIDLength {
		systemID = systemID[:maxSystemIDLength]
	}
	return &Generator{prefix: "-" + formatStart(start) + "-" + systemID + "-"}
}

// Next returns the next id of the given kind (Workflow, Coordinator or Bundle).
func (g *Generator) Next(kind byte) string {
	n := g.seq.Add(1) - 1
	s := strconv.FormatInt(n, 10)
	if len(s) < seqWidth {
		s = strings.Repeat("0", seqWidth-len(s)) + s
	}
	return s + g.prefix + string(kind)
}

// formatStart renders t as yyMMddHHmmssSSS in UTC.
func formatStart(t time.Time) string {
	return strings.Replace(t.UTC().Format(startLayout), ".", "", 1)
}

// ActionID returns the id of a child of jobID: a workflow node name or a
// coordinator action number.
func ActionID(jobID, child string) string {
	return jobID + "@" + child
}

// ID is a parsed job or action id.
type ID struct {
	Seq      int64     // the generator's sequence number
	Start    time.Time // the generator's start, UTC, millisecond precision
	SystemID string    // the (cut) system id
	Kind     byte      // Workflow, Coordinator or Bundle
	Child    string    // the part after '@' of an action id; empty for a job id
}

// JobID returns the job part of the id in its text form.
func (id ID) JobID() string {
	s := strconv.FormatInt(id.Seq, 10)
	if len(s) < seqWidth {
		s = strings.Repeat("0", seqWidth-len(s)) + s
	}
	return s + "-" + formatStart(id.Start) + "-" + id.SystemID + "-" + string(id.Kind)
}

// String returns the id in its text form.
func (id ID) String() string {
	if id.Child == "" {
		return id.JobID()
	}
	return ActionID(id.JobID(), id.Child)
}

// Parse reads a job id or an action id (<jobID>@<child>). Errors wrap
// ErrInvalidID.
func Parse(s string) (ID, error) {
	job, child, isAction := strings.Cut(s, "@")
	if isAction && child == "" {
		return ID{}, fmt.Errorf("%w %q: empty action part", ErrInvalidID, s)
	}
	if len(job) > MaxJobIDLength {
		return ID{}, fmt.Errorf("%w %q: longer than %d characters", ErrInvalidID, s, MaxJobIDLength)
	}
	if len(s) > MaxChildIDLength {
		return ID{}, fmt.Errorf("%w %q: longer than %d characters", ErrInvalidID, s, MaxChildIDLength)
	}
	seqText, rest, ok := strings.Cut(job, "-")
	if !ok || len(seqText) < seqWidth || !allDigits(seqText) {
		return ID{}, fmt.Errorf("%w %q: sequence must be at least %d digits", ErrInvalidID, s, seqWidth)
	}
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if err != nil {
		return ID{}, fmt.Errorf("%w %q: sequence: %w", ErrInvalidID, s, err)
	}
	if len(rest) < startDigits+1 || !allDigits(rest[:startDigits]) || rest[startDigits] != '-' {
		return ID{}, fmt.Errorf("%w %q: start must be %d digits", ErrInvalidID, s, startDigits)
	}
	start, err := time.ParseInLocation(startLayout, rest[:12]+"."+rest[12:startDigits], time.UTC)
	if err != nil {
		return ID{}, fmt.Errorf("%w %q: start: %w", ErrInvalidID, s, err)
	}
	rest = rest[startDigits+1:]
	if len(rest) < 2 || rest[len(rest)-2] != '-' {
		return ID{}, fmt.Errorf("%w %q: missing kind", ErrInvalidID, s)
	}
	kind := rest[len(rest)-1]
	switch kind {
	case Workflow, Coordinator, Bundle:
	default:
		return ID{}, fmt.Errorf("%w %q: kind %q is not W, C or B", ErrInvalidID, s, kind)
	}
	system := rest[:len(rest)-2]
	if len(system) > maxSystemIDLength {
		return ID{}, fmt.Errorf("%w %q: system id longer than %d characters", ErrInvalidID, s, maxSystemIDLength)
	}
	return ID{Seq: seq, Start: start, SystemID: system, Kind: kind, Child: child}, nil
}

// allDigits reports whether s is non-empty and only ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
