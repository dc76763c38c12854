package launch_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// submissionLog keeps the bodies of the application submissions on their
// way to the RM.
type submissionLog struct {
	mu     sync.Mutex
	bodies []string
}

func (s *submissionLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/ws/v1/cluster/apps") && r.Body != nil {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		s.mu.Lock()
		s.bodies = append(s.bodies, string(b))
		s.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (s *submissionLog) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.bodies, "\n")
}

// TestHiveRunCarriesAHiveServerToken: on a Kerberized cluster a hive run's
// launch carries a HiveServer2 delegation token, from its <credential>s or
// else from Config.HiveToken for a principal= URL, and beeline is given
// the URL with auth=delegationToken instead of principal=; without
// Kerberos (no principal=, no token) nothing changes; a token that cannot
// be had submits nothing.
func TestHiveRunCarriesAHiveServerToken(t *testing.T) {
	t.Parallel()
	const (
		krbURL   = "jdbc:hive2://localhost:1/default;principal=hive/_HOST@TEST.LOCAL?hive.exec.parallel=true"
		tokenURL = "jdbc:hive2://localhost:1/default;auth=delegationToken?hive.exec.parallel=true"
		plainURL = "jdbc:hive2://localhost:1/default"
	)
	hiveTok := hadoop.Token{Identifier: []byte("hive-id"), Password: []byte("pw"), Kind: "HIVE_DELEGATION_TOKEN", Service: "hiveserver2ClientToken"}
	hdfsTok := hadoop.Token{Identifier: []byte("hdfs-id"), Password: []byte("pw"), Kind: hadoop.KindHDFSDelegationToken, Service: "ha-hdfs:ns1"}
	for _, tt := range []struct {
		name      string
		url       string
		creds     []hadoop.Token
		fetchErr  error
		wantURL   string
		wantFetch bool
		wantToken bool
		wantErr   string
	}{
		{name: "fetched for a Kerberos URL", url: krbURL, creds: []hadoop.Token{hdfsTok}, wantURL: tokenURL, wantFetch: true, wantToken: true},
		{name: "from the action's credential", url: krbURL, creds: []hadoop.Token{hdfsTok, hiveTok}, wantURL: tokenURL, wantToken: true},
		{name: "no Kerberos", url: plainURL, wantURL: plainURL},
		{name: "HiveServer2 refuses", url: krbURL, fetchErr: errors.New("Failed to validate proxy privilege"), wantFetch: true, wantErr: "JA009"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := setup(t)
			c.put(t, "/user/alice/apps/hive/script.q", "SELECT 1;\n")
			subs := &submissionLog{}
			client, err := yarn.NewClient(yarn.Config{Addresses: []string{c.rm.WebURL()}, Auth: yarn.PseudoAuth{User: testUser},
				HTTPClient: &http.Client{Transport: subs, Timeout: 30 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			var fetched []string
			e := c.executor(t, "hive", func(cfg *launch.Config) {
				cfg.YARN = client
				cfg.Credentials = func(context.Context, *actions.Attempt) ([]hadoop.Token, error) { return tt.creds, nil }
				cfg.HiveToken = func(_ context.Context, run *actions.Attempt, jdbcURL string) (hadoop.Token, error) {
					fetched = append(fetched, run.User+" "+jdbcURL)
					return hiveTok, tt.fetchErr
				}
			})
			run := c.run(t, "hive", "hive-node", "/user/alice/apps/hive",
				hiveAction(c, `<property><name>oozie.hive2.jdbc.url</name><value>`+tt.url+`</value></property>`))
			_, err = e.Start(ctxT(t), run)
			if tt.wantErr != "" {
				var ee *actions.ExecError
				if !errors.As(err, &ee) || ee.Code != tt.wantErr {
					t.Fatalf("Start: %v, want %s", err, tt.wantErr)
				}
				if apps := c.rm.Apps(); len(apps) != 0 {
					t.Errorf("applications submitted: %v", apps)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{testUser + " " + tt.url}; tt.wantFetch != (len(fetched) == 1) || tt.wantFetch && fetched[0] != want[0] {
				t.Errorf("HiveToken asked %q, want %q: %v", fetched, want, tt.wantFetch)
			}
			b, err := c.fs.ReadFile(ctxT(t), run.ActionDir+"/"+launcher.SpecFile)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := launcher.ParseSpec(b)
			if err != nil {
				t.Fatal(err)
			}
			if spec.Hive.JDBCURL != tt.wantURL {
				t.Errorf("beeline's URL %q, want %q", spec.Hive.JDBCURL, tt.wantURL)
			}
			if got := strings.Contains(subs.all(), `"hiveserver2ClientToken"`); got != tt.wantToken {
				t.Errorf("the submission carries the hive token: %v, want %v\n%s", got, tt.wantToken, subs.all())
			}
		})
	}
}
