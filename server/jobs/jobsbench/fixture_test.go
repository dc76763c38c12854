package jobsbench

import (
	"context"
	"database/sql"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// smallSpec is a fixture small enough to seed in a test.
var smallSpec = Spec{Coordinators: 12, ActionsPerCoordinator: 60, WorkflowsPerCoordinator: 20, Users: 3}

func TestSpecValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec Spec
		ok   bool
	}{
		{DefaultSpec(), true},
		{smallSpec, true},
		{Spec{Coordinators: 1, ActionsPerCoordinator: 1, WorkflowsPerCoordinator: 1, Users: 1}, true},
		{Spec{Coordinators: 0, ActionsPerCoordinator: 1, Users: 1}, false},
		{Spec{Coordinators: 1, ActionsPerCoordinator: 0, Users: 1}, false},
		{Spec{Coordinators: 1, ActionsPerCoordinator: 1, Users: 0}, false},
		{Spec{Coordinators: 1, ActionsPerCoordinator: 5, WorkflowsPerCoordinator: 6, Users: 1}, false},
		{Spec{Coordinators: 1, ActionsPerCoordinator: 5, WorkflowsPerCoordinator: -1, Users: 1}, false},
		{Spec{Coordinators: 10_000, ActionsPerCoordinator: 1_000, Users: 1}, false},
	}
	for _, tt := range tests {
		if err := tt.spec.Validate(); (err == nil) != tt.ok {
			t.Errorf("Validate(%+v) = %v, want ok %v", tt.spec, err, tt.ok)
		}
	}
}

func TestTemplateNameFollowsSpec(t *testing.T) {
	t.Parallel()
	a, err := TemplateName(DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	b, err := TemplateName(smallSpec)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := TemplateName(DefaultSpec())
	if a == b || a != again || len(a) > 63 || !strings.HasPrefix(a, specPrefix(DefaultSpec())) {
		t.Errorf("template names %q (again %q) and %q: want stable, distinct, with the spec prefix, at most 63 bytes", a, again, b)
	}
}

// TestFixture seeds a small fixture and checks it both in the tables and through the
// REST stack, with the benchmark's own queries and checks.
func TestFixture(t *testing.T) {
	t.Parallel()
	dsn := Database(t, smallSpec)
	other := Database(t, smallSpec) // from the cached template
	if dsn == other {
		t.Fatalf("two callers got the same database %s", dsn)
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var actions, statuses, minXML, maxXML, workflows, running int
	err = db.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT status), MIN(length(action_xml)), MAX(length(action_xml))
		FROM coord_actions`).Scan(&actions, &statuses, &minXML, &maxXML)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(*) FILTER (WHERE status = 'RUNNING') FROM wf_jobs`).
		Scan(&workflows, &running); err != nil {
		t.Fatal(err)
	}
	if actions != smallSpec.Actions() || workflows != smallSpec.Workflows() || running == 0 || statuses < 8 {
		t.Errorf("%d actions in %d statuses, %d workflows (%d running); want %d actions in at least 8 statuses, %d workflows",
			actions, statuses, workflows, running, smallSpec.Actions(), smallSpec.Workflows())
	}
	if minXML < 1000 || maxXML > 2048 {
		t.Errorf("action XML of %d to %d bytes, want 1-2 KB", minXML, maxXML)
	}

	// Each caller's copy is its own.
	if _, err := db.ExecContext(ctx, `DELETE FROM wf_jobs`); err != nil {
		t.Fatal(err)
	}
	odb, err := sql.Open("postgres", other)
	if err != nil {
		t.Fatal(err)
	}
	defer odb.Close()
	if err := odb.QueryRowContext(ctx, `SELECT COUNT(*) FROM wf_jobs`).Scan(&workflows); err != nil {
		t.Fatal(err)
	}
	if workflows != smallSpec.Workflows() {
		t.Errorf("the other copy holds %d workflows after the first lost its own, want %d", workflows, smallSpec.Workflows())
	}

	srv := Serve(t, other)
	client := NewClient(4)
	defer client.CloseIdleConnections()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, q := range restQueries(smallSpec, srv.URL) {
		for range 20 {
			u, check := q.draw(rng)
			resp, err := client.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: GET %s: %s: %s", q.name, u, resp.Status, body)
			}
			if err := check(body); err != nil {
				t.Fatalf("%s: GET %s: %v", q.name, u, err)
			}
		}
	}
}
