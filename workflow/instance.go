package workflow

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// instanceVersion is the format version of Instance written by this code.
const instanceVersion = 1

// Instance is the state of one run of a workflow job that the action rows
// do not hold. It is stored as small versioned JSON in
// store.WorkflowJob.Instance.
//
// Every node entered in a run is on an execution path: "" at the top level,
// "<fork>.<i>/" on the i-th path of a fork, nested forks appending their own
// segment ("f1.0/f2.1/"). A fork activation is named by the path it was
// entered on plus its name ("f1.0/f2"); Forks counts its paths, Joined lists
// those that reached the join.
type Instance struct {
	V             int                  `json:"v"`
	Paths         map[string]string    `json:"paths,omitempty"`  // node → execution path it was entered on
	Forks         map[string]int       `json:"forks,omitempty"`  // fork activation → number of paths
	Joined        map[string][]int     `json:"joined,omitempty"` // fork activation → paths that reached its join
	JoinOf        map[string]string    `json:"joinOf,omitempty"` // fork activation → the join its paths reach
	LastErrorNode string               `json:"lastErrorNode,omitempty"`
	Skip          []string             `json:"skip,omitempty"`    // rerun: nodes whose recorded transition is replayed
	Pending       map[string]Outcome   `json:"pending,omitempty"` // outcomes received while the job was suspended
	RetryAt       map[string]time.Time `json:"retryAt,omitempty"` // user retries: when the action starts again
}

// DecodeInstance reads a job's Instance; empty data is a fresh instance.
func DecodeInstance(data []byte) (*Instance, error) {
	in := &Instance{V: instanceVersion}
	if len(data) > 0 {
		if err := json.Unmarshal(data, in); err != nil {
			return nil, fmt.Errorf("decoding workflow instance: %w", err)
		}
		if in.V != instanceVersion {
			return nil, fmt.Errorf("decoding workflow instance: unknown format version %d", in.V)
		}
	}
	in.init()
	return in, nil
}

// init makes the maps usable.
func (in *Instance) init() {
	if in.Paths == nil {
		in.Paths = map[string]string{}
	}
	if in.Forks == nil {
		in.Forks = map[string]int{}
	}
	if in.Joined == nil {
		in.Joined = map[string][]int{}
	}
	if in.JoinOf == nil {
		in.JoinOf = map[string]string{}
	}
	if in.Pending == nil {
		in.Pending = map[string]Outcome{}
	}
	if in.RetryAt == nil {
		in.RetryAt = map[string]time.Time{}
	}
}

// Encode returns the JSON form of in (map keys sorted, so equal states
// encode equally).
func (in *Instance) Encode() []byte {
	sort.Strings(in.Skip)
	b, err := json.Marshal(in)
	if err != nil {
		// Only maps of strings, ints and times: marshalling cannot fail.
		return nil
	}
	return b
}

// skips reports whether the rerun replays node's recorded transition.
func (in *Instance) skips(node string) bool {
	for _, s := range in.Skip {
		if s == node {
			return true
		}
	}
	return false
}

// branchPath returns the path of the i-th path of fork entered on path.
func branchPath(path, fork string, i int) string {
	return path + fork + "." + strconv.Itoa(i) + "/"
}

// splitBranch undoes branchPath: the parent path, the fork and the index.
// ok is false for the top-level path.
func splitBranch(path string) (parent, fork string, i int, ok bool) {
	if path == "" {
		return "", "", 0, false
	}
	trimmed := strings.TrimSuffix(path, "/")
	seg := trimmed
	if cut := strings.LastIndexByte(trimmed, '/'); cut >= 0 {
		parent, seg = trimmed[:cut+1], trimmed[cut+1:]
	}
	dot := strings.LastIndexByte(seg, '.')
	if dot < 0 {
		return "", "", 0, false
	}
	i, err := strconv.Atoi(seg[dot+1:])
	if err != nil {
		return "", "", 0, false
	}
	return parent, seg[:dot], i, true
}
