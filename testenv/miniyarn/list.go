package miniyarn

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gozie/gozie/yarn"
)

// listFilter is a parsed list query.
type listFilter struct {
	states      map[yarn.AppState]bool
	finalStatus yarn.FinalStatus
	user, queue string
	types       map[string]bool
	tags        map[string]bool
	limit       int
	startBegin  int64
	startEnd    int64
	finishBegin int64
	finishEnd   int64
}

func parseListFilter(r *http.Request) (listFilter, *webError) {
	q := r.URL.Query()
	f := listFilter{user: q.Get("user"), queue: q.Get("queue"), startEnd: -1, finishEnd: -1}
	for _, key := range []string{"states", "state"} {
		for _, s := range splitList(q.Get(key)) {
			st, ok := yarn.ParseAppState(s)
			if !ok {
				return f, badRequest("Invalid application-state %s specified. It should be one of NEW, NEW_SAVING, SUBMITTED, ACCEPTED, RUNNING, FINISHED, FAILED, KILLED", s)
			}
			if f.states == nil {
				f.states = map[yarn.AppState]bool{}
			}
			f.states[st] = true
		}
	}
	if fs := q.Get("finalStatus"); fs != "" {
		f.finalStatus = yarn.FinalStatus(strings.ToUpper(fs))
		if !f.finalStatus.Valid() {
			return f, badRequest("Invalid final status %s specified", fs)
		}
	}
	for _, t := range splitList(q.Get("applicationTypes")) {
		if f.types == nil {
			f.types = map[string]bool{}
		}
		f.types[strings.ToLower(t)] = true
	}
	for _, t := range splitList(q.Get("applicationTags")) {
		if f.tags == nil {
			f.tags = map[string]bool{}
		}
		f.tags[strings.ToLower(t)] = true
	}
	var werr *webError
	num := func(key string, def int64) int64 {
		v := q.Get(key)
		if v == "" || werr != nil {
			return def
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			werr = badRequest("%s must be greater than 0", key)
			return def
		}
		return n
	}
	f.limit = int(num("limit", 0))
	f.startBegin = num("startedTimeBegin", 0)
	f.startEnd = num("startedTimeEnd", -1)
	f.finishBegin = num("finishedTimeBegin", 0)
	f.finishEnd = num("finishedTimeEnd", -1)
	if werr != nil {
		return f, werr
	}
	if f.startEnd >= 0 && f.startEnd < f.startBegin {
		return f, badRequest("startedTimeEnd must be greater than startTimeBegin")
	}
	if f.finishEnd >= 0 && f.finishEnd < f.finishBegin {
		return f, badRequest("finishedTimeEnd must be greater than finishedTimeBegin")
	}
	return f, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (f listFilter) match(a *app) bool {
	if f.states != nil && !f.states[a.state] {
		return false
	}
	if f.finalStatus != "" && a.final != f.finalStatus {
		return false
	}
	if f.user != "" && a.user != f.user {
		return false
	}
	if f.queue != "" && a.sc.Queue != f.queue {
		return false
	}
	if f.types != nil && !f.types[strings.ToLower(a.sc.ApplicationType)] {
		return false
	}
	if f.tags != nil {
		found := false
		for _, t := range a.sc.ApplicationTags {
			if f.tags[t] {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	started := a.started.UnixMilli()
	if started < f.startBegin || (f.startEnd >= 0 && started > f.startEnd) {
		return false
	}
	if f.finishBegin > 0 || f.finishEnd >= 0 {
		if a.finished.IsZero() {
			return false
		}
		fin := a.finished.UnixMilli()
		if fin < f.finishBegin || (f.finishEnd >= 0 && fin > f.finishEnd) {
			return false
		}
	}
	return true
}

func (rm *RM) handleList(w http.ResponseWriter, r *http.Request) {
	f, werr := parseListFilter(r)
	if werr != nil {
		writeError(w, werr)
		return
	}
	rm.mu.Lock()
	var list []yarn.AppReport
	for _, id := range rm.order {
		a := rm.apps[id]
		if !f.match(a) {
			continue
		}
		list = append(list, rm.report(a))
		if f.limit > 0 && len(list) >= f.limit {
			break
		}
	}
	rm.mu.Unlock()
	if len(list) == 0 {
		// Like Hadoop 2's RM: no wrapper object when nothing matches.
		writeJSON(w, http.StatusOK, yarn.AppListEnvelope{})
		return
	}
	writeJSON(w, http.StatusOK, yarn.AppListEnvelope{Apps: &yarn.AppList{App: list}})
}
