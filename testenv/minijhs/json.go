package minijhs

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// CounterInfo is one counter of a group (CounterInfo): the job's total and
// what map and reduce tasks counted.
type CounterInfo struct {
	Name   string `json:"name"`
	Total  int64  `json:"totalCounterValue"`
	Map    int64  `json:"mapCounterValue"`
	Reduce int64  `json:"reduceCounterValue"`
}

// CounterGroupInfo is one group of a job's counters (CounterGroupInfo).
type CounterGroupInfo struct {
	Name     string        `json:"counterGroupName"`
	Counters []CounterInfo `json:"counter"`
}

// JobCounterInfo is the counters resource (JobCounterInfo): the job's id
// and its groups, in the order of the job's total counters.
type JobCounterInfo struct {
	ID     string             `json:"id"`
	Groups []CounterGroupInfo `json:"counterGroup,omitempty"`
}

// countersEnvelope is the answer's root element, jobCounters.
type countersEnvelope struct {
	JobCounters JobCounterInfo `json:"jobCounters"`
}

// jobCounterInfo builds the resource from a job's history: every counter
// of the total, with the map and reduce tasks' parts (0 where they counted
// none). A job that did not succeed recorded no counters.
func jobCounterInfo(jobID string, h *History) JobCounterInfo {
	info := JobCounterInfo{ID: jobID}
	f := h.Finished
	if f == nil {
		return info
	}
	for _, g := range f.TotalCounters.Groups {
		gi := CounterGroupInfo{Name: g.Name, Counters: []CounterInfo{}}
		for _, c := range g.Counts {
			gi.Counters = append(gi.Counters, CounterInfo{Name: c.Name, Total: c.Value,
				Map: f.MapCounters.Value(g.Name, c.Name), Reduce: f.ReduceCounters.Value(g.Name, c.Name)})
		}
		info.Groups = append(info.Groups, gi)
	}
	return info
}

// remoteError is an error answer in the RemoteException JSON Hadoop's web
// services write (GenericExceptionHandler, RemoteExceptionData).
type remoteError struct {
	status                    int
	exception, class, message string
}

func (e *remoteError) Error() string { return e.exception + ": " + e.message }

// notFound is a NotFoundException (org.apache.hadoop.yarn.webapp), whose
// message Hadoop 3.3's handler writes as its cause's toString.
func notFound(format string, args ...any) *remoteError {
	return &remoteError{status: http.StatusNotFound, exception: "NotFoundException",
		class: "org.apache.hadoop.yarn.webapp.NotFoundException", message: fmt.Sprintf(format, args...)}
}

// writeRemote writes e as {"RemoteException":{exception, message,
// javaClassName}}; an exception without a message has none.
func writeRemote(w http.ResponseWriter, e *remoteError) {
	body := map[string]any{"exception": e.exception, "javaClassName": e.class}
	if e.message != "" {
		body["message"] = e.message
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(e.status)
	json.NewEncoder(w).Encode(map[string]any{"RemoteException": body})
}
