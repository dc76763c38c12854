package rmroute

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
)

// fake is one cluster's executor: Start reports the cluster's first web
// address, CheckAll says that the runs whose tag is that address ended.
type fake struct {
	addrs []string
	mu    sync.Mutex
	asked [][]string // the action ids of each CheckAll
	fail  error
}

func (f *fake) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	return actions.Status{ExternalID: f.addrs[0]}, nil
}
func (f *fake) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	return actions.Status{}, nil
}
func (f *fake) Kill(ctx context.Context, run *actions.Attempt) error { return nil }
func (f *fake) CheckAll(ctx context.Context, runs []*actions.Attempt) (map[string]actions.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ActionID)
	}
	f.asked = append(f.asked, ids)
	if f.fail != nil {
		return nil, f.fail
	}
	out := map[string]actions.Status{}
	for _, r := range runs {
		if r.Tag == f.addrs[0] {
			out[r.ActionID] = actions.Status{Done: true}
		}
	}
	return out, nil
}

// builder records the executors a router builds, by first web address.
type builder struct {
	mu    sync.Mutex
	built map[string]*fake
	fail  map[string]error // CheckAll errors by first web address
}

func (b *builder) build(web []string) (actions.Executor, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := &fake{addrs: web, fail: b.fail[web[0]]}
	if b.built == nil {
		b.built = map[string]*fake{}
	}
	b.built[web[0]] = f
	return f, nil
}

// set is the ResourceManager cluster of a configuration made of kv pairs.
func set(kv ...string) conf.ResourceManagerSet {
	return conf.NewHadoop(conf.NewProperties(kv...), nil).ResourceManagers()
}

// haConf is an HA pair by hostnames only (default ports), with a cluster id.
var haConf = []string{
	"yarn.resourcemanager.ha.enabled", "true",
	"yarn.resourcemanager.ha.rm-ids", "rm1,rm2",
	"yarn.resourcemanager.cluster-id", "yarnRM",
	"yarn.resourcemanager.hostname.rm1", "rm1.example.com",
	"yarn.resourcemanager.hostname.rm2", "rm2.example.com",
}

var haWeb = []string{"http://rm1.example.com:8088", "http://rm2.example.com:8088"}

func TestResolveWith(t *testing.T) {
	t.Parallel()
	explicit := []string{
		"yarn.resourcemanager.ha.enabled", "true",
		"yarn.resourcemanager.ha.rm-ids", "a,b",
		"yarn.resourcemanager.address", "rma:8050", // Ambari's plain key beside the per-id ones
		"yarn.resourcemanager.address.a", "10.0.0.1:8032",
		"yarn.resourcemanager.address.b", "10.0.0.2:8032",
		"yarn.resourcemanager.webapp.address.a", "10.0.0.1:18088",
		"yarn.resourcemanager.webapp.address.b", "10.0.0.2:18088",
	}
	explicitWeb := []string{"http://10.0.0.1:18088", "http://10.0.0.2:18088"}
	single := []string{"yarn.resourcemanager.hostname", "rmhost"}
	singleWeb := []string{"http://rmhost:8088"}
	https := []string{"yarn.http.policy", "HTTPS_ONLY", "yarn.resourcemanager.hostname", "secure"}
	local := []string{"yarn.resourcemanager.webapp.address", "127.0.0.1:41000",
		"yarn.resourcemanager.scheduler.address", "127.0.0.1:41001"}
	tests := []struct {
		name  string
		conf  []string
		value string
		want  []string // nil: a JA006 error
	}{
		{"HA: the default", haConf, "", haWeb},
		{"HA: the cluster id", haConf, "yarnRM", haWeb},
		{"HA: the cluster id in another case", haConf, " yarnrm ", haWeb},
		{"HA: an rm-id", haConf, "rm2", haWeb},
		{"HA: a hostname", haConf, "rm2.example.com", haWeb},
		{"HA: a hostname in another case", haConf, "RM1.example.com", haWeb},
		{"HA: hostname with the default RPC port", haConf, "rm1.example.com:8032", haWeb},
		{"HA: hostname with Ambari's RPC port", haConf, "rm1.example.com:8050", haWeb},
		{"HA: the RM's web address", haConf, "http://rm2.example.com:8088/", haWeb},
		{"HA: yarn, as Oozie under HA", haConf, "yarn", haWeb},
		{"HA: local, as Oozie under HA", haConf, "local", haWeb},
		{"HA: an unknown RPC address, as Oozie under HA", haConf, "10.9.9.9:8032", haWeb},
		{"HA: another cluster's web address", haConf, "other:8088", []string{"http://other:8088"}},
		{"HA: a known host on another port is another RM", haConf, "rm1.example.com:9999", []string{"http://rm1.example.com:9999"}},
		{"explicit: an rm-id's RPC address", explicit, "10.0.0.2:8032", explicitWeb},
		{"explicit: the plain address key", explicit, "rma:8050", explicitWeb},
		{"explicit: host of an address", explicit, "10.0.0.1", explicitWeb},
		{"explicit: a web port", explicit, "10.0.0.2:18088", explicitWeb},
		{"single: hostname", single, "rmhost", singleWeb},
		{"single: derived RPC address", single, "rmhost:8032", singleWeb},
		{"single: Ambari's port", single, "RMHOST:8050", singleWeb},
		{"single: another web address", single, "127.0.0.1:4000", []string{"http://127.0.0.1:4000"}},
		{"single: a URL kept", single, "https://other:8090", []string{"https://other:8090"}},
		{"single: an unknown name", single, "yarnRM", nil},
		{"single: yarn is no name without HA", single, "yarn", nil},
		{"single: local is no name without HA", single, "local", nil},
		{"single: an unknown RPC address", single, "elsewhere:8032", nil},
		{"single: a name with a path", single, "rmhost/x", nil},
		{"https only", https, "secure:8032", []string{"https://secure:8090"}},
		{"https only: its web port", https, "secure:8090", []string{"https://secure:8090"}},
		{"local cluster: its web address", local, "127.0.0.1:41000", []string{"http://127.0.0.1:41000"}},
		{"local cluster: another on the same host", local, "127.0.0.1:42000", []string{"http://127.0.0.1:42000"}},
		{"defaults only: the wildcard is no name", nil, "0.0.0.0", nil},
		{"defaults only: a web address", nil, "127.0.0.1:41000", []string{"http://127.0.0.1:41000"}},
	}
	for _, tt := range tests {
		got, err := ResolveWith(set(tt.conf...))(tt.value)
		if tt.want == nil {
			var ee *actions.ExecError
			if !errors.As(err, &ee) || ee.Code != "JA006" || actions.KindOf(err) != actions.ActionFailed {
				t.Errorf("%s: %q resolved to %q, %v; want a JA006 error", tt.name, tt.value, got, err)
				continue
			}
			for _, want := range []string{"[" + tt.value + "]", "yarn.resourcemanager.cluster-id", "yarn.resourcemanager.hostname"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %q does not name %s", tt.name, err, want)
				}
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q resolved to %q, %v; want %q", tt.name, tt.value, got, err, tt.want)
		}
	}
}

// TestUnknownNameIsNeverDialled: a run naming what the configuration cannot
// place fails with JA006 before any executor is built.
func TestUnknownNameIsNeverDialled(t *testing.T) {
	t.Parallel()
	b := &builder{}
	r := NewRouter(ResolveWith(set("yarn.resourcemanager.hostname", "rmhost")), b.build)
	_, err := r.Start(context.Background(), &actions.Attempt{ActionID: "W@a", ResourceManager: "yarnRM"})
	if actions.KindOf(err) != actions.ActionFailed || !strings.Contains(err.Error(), "JA006") {
		t.Fatalf("Start: %v, want JA006", err)
	}
	if len(b.built) != 0 {
		t.Fatalf("built executors for %v", b.built)
	}
}

func TestRouterPicksTheNamedCluster(t *testing.T) {
	t.Parallel()
	b := &builder{}
	r := NewRouter(ResolveWith(set(haConf...)), b.build)
	ctx := context.Background()
	for _, c := range []struct{ rm, want string }{
		{"rm2.example.com:8032", haWeb[0]}, // an HA pair is one cluster
		{"yarnRM", haWeb[0]},
		{"", haWeb[0]}, // the configured default
		{"127.0.0.1:4000", "http://127.0.0.1:4000"},
	} {
		st, err := r.Start(ctx, &actions.Attempt{ActionID: "W@a", ResourceManager: c.rm})
		if err != nil || st.ExternalID != c.want {
			t.Errorf("%q: went to %q (%v), want %q", c.rm, st.ExternalID, err, c.want)
		}
	}
	if len(b.built) != 2 {
		t.Fatalf("built %d executors, want one per cluster", len(b.built))
	}
}

// TestCheckAllAsksEveryClusterOfTheRuns: a fresh router (a restarted
// server, no Start or Check yet) asks each cluster that the runs name about
// its own runs, building the executors it needs.
func TestCheckAllAsksEveryClusterOfTheRuns(t *testing.T) {
	t.Parallel()
	b := &builder{}
	r := NewRouter(ResolveWith(set(haConf...)), b.build)
	runs := []*actions.Attempt{
		{ActionID: "W@ha-ended", ResourceManager: "yarnRM", Tag: haWeb[0]},
		{ActionID: "W@ha-running", ResourceManager: "rm1.example.com:8032", Tag: "running"},
		{ActionID: "W@other-ended", ResourceManager: "127.0.0.1:4000", Tag: "http://127.0.0.1:4000"},
		{ActionID: "W@default-ended", ResourceManager: "", Tag: haWeb[0]},
	}
	got, err := r.CheckAll(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]actions.Status{"W@ha-ended": {Done: true}, "W@other-ended": {Done: true}, "W@default-ended": {Done: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CheckAll = %v, want %v", got, want)
	}
	if len(b.built) != 2 {
		t.Fatalf("built %d executors, want the two clusters of the runs", len(b.built))
	}
	if asked := b.built[haWeb[0]].asked; len(asked) != 1 || !slices.Equal(asked[0], []string{"W@ha-ended", "W@ha-running", "W@default-ended"}) {
		t.Errorf("the HA cluster was asked %v", asked)
	}
	if asked := b.built["http://127.0.0.1:4000"].asked; len(asked) != 1 || !slices.Equal(asked[0], []string{"W@other-ended"}) {
		t.Errorf("the other cluster was asked %v", asked)
	}
}

// TestCheckAllKeepsAnswersOfClustersThatAnswered: one cluster failing
// neither hides what the others found nor goes unreported; a run whose
// ResourceManager does not resolve is left to its own Check.
func TestCheckAllKeepsAnswersOfClustersThatAnswered(t *testing.T) {
	t.Parallel()
	down := errors.New("connection refused")
	b := &builder{fail: map[string]error{"http://down:8088": down}}
	r := NewRouter(ResolveWith(set("yarn.resourcemanager.hostname", "rmhost")), b.build)
	got, err := r.CheckAll(context.Background(), []*actions.Attempt{
		{ActionID: "W@down", ResourceManager: "down:8088"},
		{ActionID: "W@up", ResourceManager: "rmhost", Tag: "http://rmhost:8088"},
		{ActionID: "W@unknown", ResourceManager: "nowhere"},
	})
	if !errors.Is(err, down) || !strings.Contains(err.Error(), "http://down:8088") {
		t.Errorf("error %v, want the down cluster's", err)
	}
	if !reflect.DeepEqual(got, map[string]actions.Status{"W@up": {Done: true}}) {
		t.Errorf("CheckAll = %v", got)
	}
	if len(b.built) != 2 {
		t.Errorf("built %d executors, want 2 (none for the unknown name)", len(b.built))
	}
}
