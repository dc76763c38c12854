package rmroute

import (
	"context"
	"reflect"
	"testing"

	"github.com/gozie/gozie/actions"
)

type fake struct {
	addrs []string
	seen  []string
}

func (f *fake) Start(ctx context.Context, run *actions.Run) (actions.Status, error) {
	f.seen = append(f.seen, run.ActionID)
	return actions.Status{ExternalID: f.addrs[0]}, nil
}
func (f *fake) Check(ctx context.Context, run *actions.Run) (actions.Status, error) {
	return actions.Status{}, nil
}
func (f *fake) Kill(ctx context.Context, run *actions.Run) error { return nil }
func (f *fake) CheckAll(ctx context.Context, runs []*actions.Run) (map[string]actions.Status, error) {
	out := map[string]actions.Status{}
	for _, r := range runs {
		if r.Tag == f.addrs[0] {
			out[r.ActionID] = actions.Status{Done: true}
		}
	}
	return out, nil
}

func TestRouterPicksTheNamedCluster(t *testing.T) {
	built := map[string]*fake{}
	r := NewRouter(
		ResolveWith([]string{"rm1:8032", "rm2:8032"}, []string{"http://rm1:8088", "http://rm2:8088"}),
		func(web []string) (actions.Executor, error) {
			f := &fake{addrs: web}
			built[web[0]] = f
			return f, nil
		})
	ctx := context.Background()
	for _, c := range []struct{ rm, want string }{
		{"rm2:8032", "http://rm1:8088"}, // an HA pair is one cluster
		{"", "http://rm1:8088"},         // the configured default
		{"127.0.0.1:4000", "127.0.0.1:4000"},
	} {
		st, err := r.Start(ctx, &actions.Run{ActionID: "W@a", ResourceManager: c.rm})
		if err != nil || st.ExternalID != c.want {
			t.Errorf("%q: went to %q (%v), want %q", c.rm, st.ExternalID, err, c.want)
		}
	}
	if len(built) != 2 {
		t.Fatalf("built %d executors, want one per cluster", len(built))
	}
	got, err := r.CheckAll(ctx, []*actions.Run{{ActionID: "W@x", Tag: "127.0.0.1:4000"}, {ActionID: "W@y", Tag: "none"}})
	if err != nil || !reflect.DeepEqual(got, map[string]actions.Status{"W@x": {Done: true}}) {
		t.Fatalf("CheckAll: %v %v", got, err)
	}
}
