package minijhs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
)

// Configuration keys and defaults of job history (mapred-default.xml,
// JHAdminConfig, MRJobConfig), read by the AM that writes history and by
// the server that reads it.
const (
	// IntermediateDoneDirKey is where an AM leaves an ended job's history
	// for the server: <dir>/<user>/.
	IntermediateDoneDirKey = "mapreduce.jobhistory.intermediate-done-dir"
	// StagingDirKey is yarn.app.mapreduce.am.staging-dir, below which the
	// intermediate directory lies by default.
	StagingDirKey = "yarn.app.mapreduce.am.staging-dir"
	// DefaultStagingDir is StagingDirKey's default.
	DefaultStagingDir = "/tmp/hadoop-yarn/staging"
	// WebAppAddressKey is the server's REST address.
	WebAppAddressKey = "mapreduce.jobhistory.webapp.address"
	// ACLsEnabledKey turns job ACLs on (mapreduce.cluster.acls.enabled,
	// false by default): only then does an AM record the job's ACLs and
	// the server apply them.
	ACLsEnabledKey = "mapreduce.cluster.acls.enabled"
	// AdminsKey is the ACL of MapReduce administrators, who see every job
	// (mapreduce.cluster.administrators; default: nobody).
	AdminsKey = "mapreduce.cluster.administrators"
	// ViewACLKey and ModifyACLKey are a job's ACLs ("users groups", "*"
	// for all; a blank means nobody but the owner and the administrators).
	ViewACLKey   = "mapreduce.job.acl-view-job"
	ModifyACLKey = "mapreduce.job.acl-modify-job"
)

// Permissions of the intermediate done directory and what is in it
// (JobHistoryUtils): the directory is world-writable with the sticky bit,
// a user's directory and files are the user's (and its group's) only. The
// bits are Hadoop's, as HDFS clients send them (0o1000 is the sticky bit).
const (
	IntermediateDoneDirPerm fs.FileMode = 0o1777
	IntermediateUserDirPerm fs.FileMode = 0o770
	IntermediateFilePerm    fs.FileMode = 0o770
)

// IntermediateDoneDir is the intermediate done directory of a
// configuration (get returns "" for an unset key): IntermediateDoneDirKey,
// else <staging dir>/history/done_intermediate.
func IntermediateDoneDir(get func(key string) string) string {
	if d := strings.TrimSpace(get(IntermediateDoneDirKey)); d != "" {
		return d
	}
	staging := strings.TrimSpace(get(StagingDirKey))
	if staging == "" {
		staging = DefaultStagingDir
	}
	return strings.TrimSuffix(staging, "/") + "/history/done_intermediate"
}

// Suffixes of the files an AM leaves for each job (JobHistoryUtils).
const (
	HistorySuffix = ".jhist"
	ConfSuffix    = "_conf.xml"
	SummarySuffix = ".summary"
	// TmpSuffix marks a file still being written; the server skips it.
	TmpSuffix = "_tmp"
	// jobNameLimit is mapreduce.jobhistory.jobname.limit's default: the
	// job name is cut to it in the file name.
	jobNameLimit = 50
)

// IndexInfo is what a history file's name says of its job
// (FileNameIndexUtils.getDoneFileName).
type IndexInfo struct {
	JobID                              string
	SubmitTime, FinishTime, LaunchTime int64
	User, JobName, Queue, Status       string
	Maps, Reduces                      int
}

// DoneFileName is the history file's name: the fields joined with "-",
// each user-given one URL-encoded with "-" as %2D, ending in .jhist.
func DoneFileName(i IndexInfo) string {
	name := i.JobName
	if len(name) > jobNameLimit {
		name = name[:jobNameLimit]
	}
	fields := []string{i.JobID, strconv.FormatInt(i.SubmitTime, 10), escapeName(i.User), escapeName(name),
		strconv.FormatInt(i.FinishTime, 10), strconv.Itoa(i.Maps), strconv.Itoa(i.Reduces), i.Status,
		escapeName(i.Queue), strconv.FormatInt(i.LaunchTime, 10)}
	return strings.Join(fields, "-") + HistorySuffix
}

func escapeName(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "-", "%2D")
}

// Counter is one counter in a history event (JhCounter).
type Counter struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Value       int64  `json:"value"`
}

// CounterGroup is one group of counters (JhCounterGroup).
type CounterGroup struct {
	Name        string    `json:"name"`
	DisplayName string    `json:"displayName"`
	Counts      []Counter `json:"counts"`
}

// Counters is a set of counter groups (JhCounters).
type Counters struct {
	Name   string         `json:"name"`
	Groups []CounterGroup `json:"groups"`
}

// Value returns a counter's value, 0 when it is absent.
func (c Counters) Value(group, name string) int64 {
	for _, g := range c.Groups {
		if g.Name != group {
			continue
		}
		for _, n := range g.Counts {
			if n.Name == name {
				return n.Value
			}
		}
	}
	return 0
}

// JobSubmitted is the first event of a job's history: who submitted what,
// and the job's ACLs when ACLs are on.
type JobSubmitted struct {
	JobID        string            `json:"jobid"`
	JobName      string            `json:"jobName"`
	UserName     string            `json:"userName"`
	SubmitTime   int64             `json:"submitTime"`
	JobConfPath  string            `json:"jobConfPath"`
	ACLs         map[string]string `json:"acls"`
	JobQueueName string            `json:"jobQueueName"`
}

// JobFinished ends the history of a job that succeeded, with its counters
// in total and as map and reduce tasks counted them.
type JobFinished struct {
	JobID           string   `json:"jobid"`
	FinishTime      int64    `json:"finishTime"`
	FinishedMaps    int      `json:"finishedMaps"`
	FinishedReduces int      `json:"finishedReduces"`
	FailedMaps      int      `json:"failedMaps"`
	FailedReduces   int      `json:"failedReduces"`
	TotalCounters   Counters `json:"totalCounters"`
	MapCounters     Counters `json:"mapCounters"`
	ReduceCounters  Counters `json:"reduceCounters"`
}

// JobUnsuccessfulCompletion ends the history of a job that failed or was
// killed.
type JobUnsuccessfulCompletion struct {
	JobID           string `json:"jobid"`
	FinishTime      int64  `json:"finishTime"`
	FinishedMaps    int    `json:"finishedMaps"`
	FinishedReduces int    `json:"finishedReduces"`
	JobStatus       string `json:"jobStatus"`
	Diagnostics     string `json:"diagnostics"`
}

// Event types and the records they carry, as a history file names them.
const (
	eventJobSubmitted = "JOB_SUBMITTED"
	eventJobFinished  = "JOB_FINISHED"
	eventJobFailed    = "JOB_FAILED"
	eventJobKilled    = "JOB_KILLED"
	recordNamespace   = "org.apache.hadoop.mapreduce.jobhistory."
)

// historyMagic is the first line of a history file in JSON encoding
// (EventWriter's JSON format).
const historyMagic = "Avro-Json"

// historySchema declares the records this history holds, in Avro's JSON
// schema language: an Event is a type and a union of the event records.
const historySchema = `{"type":"record","name":"Event","namespace":"org.apache.hadoop.mapreduce.jobhistory","fields":[` +
	`{"name":"type","type":{"type":"enum","name":"EventType","symbols":["JOB_SUBMITTED","JOB_FINISHED","JOB_FAILED","JOB_KILLED"]}},` +
	`{"name":"event","type":[` +
	`{"type":"record","name":"JobSubmitted","fields":[{"name":"jobid","type":"string"},{"name":"jobName","type":"string"},` +
	`{"name":"userName","type":"string"},{"name":"submitTime","type":"long"},{"name":"jobConfPath","type":"string"},` +
	`{"name":"acls","type":{"type":"map","values":"string"}},{"name":"jobQueueName","type":"string"}]},` +
	`{"type":"record","name":"JobFinished","fields":[{"name":"jobid","type":"string"},{"name":"finishTime","type":"long"},` +
	`{"name":"finishedMaps","type":"int"},{"name":"finishedReduces","type":"int"},{"name":"failedMaps","type":"int"},` +
	`{"name":"failedReduces","type":"int"},` +
	`{"name":"totalCounters","type":{"type":"record","name":"JhCounters","fields":[{"name":"name","type":"string"},` +
	`{"name":"groups","type":{"type":"array","items":{"type":"record","name":"JhCounterGroup","fields":[` +
	`{"name":"name","type":"string"},{"name":"displayName","type":"string"},` +
	`{"name":"counts","type":{"type":"array","items":{"type":"record","name":"JhCounter","fields":[` +
	`{"name":"name","type":"string"},{"name":"displayName","type":"string"},{"name":"value","type":"long"}]}}}]}}}]}},` +
	`{"name":"mapCounters","type":"JhCounters"},{"name":"reduceCounters","type":"JhCounters"}]},` +
	`{"type":"record","name":"JobUnsuccessfulCompletion","fields":[{"name":"jobid","type":"string"},{"name":"finishTime","type":"long"},` +
	`{"name":"finishedMaps","type":"int"},{"name":"finishedReduces","type":"int"},{"name":"jobStatus","type":"string"},` +
	`{"name":"diagnostics","type":"string"}]}]}]}`

// eventLine is one event of a history file: its type and its record,
// under the record's full name (Avro's JSON encoding of a union).
type eventLine struct {
	Type  string                     `json:"type"`
	Event map[string]json.RawMessage `json:"event"`
}

// History is a job's history: how it was submitted and how it ended.
type History struct {
	Submitted JobSubmitted
	// Finished is set when the job succeeded, Unsuccessful when it failed
	// or was killed; neither while it runs.
	Finished     *JobFinished
	Unsuccessful *JobUnsuccessfulCompletion
}

// Encode writes h as a history file: the magic line, the schema, then one
// event per line.
func (h *History) Encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(historyMagic + "\n" + historySchema + "\n")
	write := func(typ, record string, v any) error {
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		line, err := json.Marshal(eventLine{Type: typ, Event: map[string]json.RawMessage{recordNamespace + record: raw}})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
		return nil
	}
	if err := write(eventJobSubmitted, "JobSubmitted", h.Submitted); err != nil {
		return nil, fmt.Errorf("writing the history of %s: %w", h.Submitted.JobID, err)
	}
	var err error
	switch {
	case h.Finished != nil:
		err = write(eventJobFinished, "JobFinished", h.Finished)
	case h.Unsuccessful != nil:
		typ := eventJobFailed
		if h.Unsuccessful.JobStatus == "KILLED" {
			typ = eventJobKilled
		}
		err = write(typ, "JobUnsuccessfulCompletion", h.Unsuccessful)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the history of %s: %w", h.Submitted.JobID, err)
	}
	return b.Bytes(), nil
}

// ParseHistory reads a history file written by Encode (or by anything
// writing the same events); events of other types are skipped, as
// JobHistoryParser skips the events it does not handle.
func ParseHistory(data []byte) (*History, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	if !sc.Scan() || sc.Text() != historyMagic {
		return nil, errors.New("not a history file: no " + historyMagic + " line")
	}
	if !sc.Scan() {
		return nil, errors.New("history file without a schema")
	}
	h := &History{}
	seen := false
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var ev eventLine
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return nil, fmt.Errorf("reading a history event: %w", err)
		}
		var err error
		switch ev.Type {
		case eventJobSubmitted:
			err = decodeRecord(ev, "JobSubmitted", &h.Submitted)
			seen = true
		case eventJobFinished:
			h.Finished = &JobFinished{}
			err = decodeRecord(ev, "JobFinished", h.Finished)
		case eventJobFailed, eventJobKilled:
			h.Unsuccessful = &JobUnsuccessfulCompletion{}
			err = decodeRecord(ev, "JobUnsuccessfulCompletion", h.Unsuccessful)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !seen {
		return nil, errors.New("history file without a " + eventJobSubmitted + " event")
	}
	return h, nil
}

func decodeRecord(ev eventLine, record string, v any) error {
	raw, ok := ev.Event[recordNamespace+record]
	if !ok {
		return fmt.Errorf("%s event without its %s record", ev.Type, record)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("reading the %s record: %w", record, err)
	}
	return nil
}
