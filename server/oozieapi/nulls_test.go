package oozieapi

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// nullingByMap is the obvious form of marshalNullingEmpty: encode, decode into a map, null
// the empty strings, encode again. The one-pass encoder must give the same bytes.
func nullingByMap(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := encodeRaw(v)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		t.Fatal(err)
	}
	for k, m := range members {
		if bytes.Equal(m, []byte(`""`)) {
			members[k] = json.RawMessage("null")
		}
	}
	out, err := encodeRaw(members)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMarshalNullingEmptyMatchesTheMapForm(t *testing.T) {
	at := time.Date(2026, 3, 8, 9, 30, 0, 0, time.UTC)
	action := WorkflowAction{ID: "0000001-x-W@a", Name: "a<b>&c", Type: "shell", Conf: "<configuration/>", Status: "OK",
		StartTime: NewDate(at, time.UTC), ErrorMessage: "", Retries: 2, ToString: "Action name[a] status[OK]"}
	type plainAction WorkflowAction
	type plainJob WorkflowJob
	type plainCoord CoordinatorJob
	type plainCoordAction CoordinatorAction
	for name, v := range map[string]any{
		"empty action": plainAction(WorkflowAction{}),
		"action":       plainAction(action),
		"job": plainJob(WorkflowJob{ID: "0000001-x-W", AppName: "héllo \"wf\"", Status: "RUNNING", Run: 1,
			CreatedTime: NewDate(at, time.UTC), Actions: []WorkflowAction{action, {}}}),
		"coordinator":        plainCoord(CoordinatorJob{ID: "0000002-x-C", Frequency: "60", Concurrency: 1}),
		"coordinator action": plainCoordAction(CoordinatorAction{ID: "0000002-x-C@1", ActionNumber: 1, MissingDependencies: "a#b"}),
	} {
		got, err := marshalNullingEmpty(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := nullingByMap(t, v); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

func BenchmarkMarshalWorkflowJob(b *testing.B) {
	acts := make([]WorkflowAction, 50)
	for i := range acts {
		acts[i] = WorkflowAction{ID: "0000001-x-W@a", Name: "a", Type: "shell", Conf: "<configuration><property><name>x</name></property></configuration>",
			Status: "OK", ToString: "Action name[a] status[OK]"}
	}
	job := WorkflowJob{ID: "0000001-x-W", AppName: "wf", Status: "RUNNING", Actions: acts}
	for b.Loop() {
		if _, err := json.Marshal(job); err != nil {
			b.Fatal(err)
		}
	}
}
