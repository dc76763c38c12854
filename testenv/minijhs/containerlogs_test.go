package minijhs_test

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/internal/nmlogs"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minijhs"
	"github.com/gozie/gozie/yarn"
)

// logsEnv is a JobHistory server serving one aggregated container of
// alice's, whose stdout is "hello from the launcher\n".
type logsEnv struct {
	jhs *minijhs.Server
	cid yarn.ContainerID
}

func setupLogs(t *testing.T, conf map[string]string) *logsEnv {
	t.Helper()
	core := minidfs.ProxyUserConf(superuser, proxyUser)
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: superuser, Conf: core})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: superuser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	cid, err := yarn.ParseContainerID("container_1700000000000_0007_01_000001")
	if err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	if err := os.WriteFile(filepath.Join(local, "stdout"), []byte("hello from the launcher\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := &nmlogs.Store{Root: t.TempDir()}
	if err := store.Add(cid.Attempt.App, nmlogs.Aggregated{Owner: owner, Node: "127.0.0.1:8042"}, map[string]string{cid.String(): local}); err != nil {
		t.Fatal(err)
	}
	all := maps.Clone(core)
	maps.Copy(all, conf)
	jhs, err := minijhs.Start(ctxT(t), minijhs.Options{FS: fs, DefaultFS: dfs.URI(), Conf: all, Logs: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jhs.Close() })
	return &logsEnv{jhs: jhs, cid: cid}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestLogServerServesAggregatedLogs(t *testing.T) {
	t.Parallel()
	e := setupLogs(t, nil)
	base := e.jhs.LogServerURL()
	status, body := get(t, base+"/containers/"+e.cid.String()+"/logs?user.name="+owner)
	var env yarn.ContainerLogsEnvelope
	if err := json.Unmarshal([]byte(body), &env); status != 200 || err != nil || len(env.ContainerLogsInfo) != 1 {
		t.Fatalf("listing: %d %q (%v)", status, body, err)
	}
	in := env.ContainerLogsInfo[0]
	if in.AggregationType != yarn.LogsAggregated || in.NodeID != "127.0.0.1:8042" || len(in.Files) != 1 || in.Files[0].FileName != "stdout" || in.Files[0].FileSize != "24" {
		t.Errorf("listing = %+v", in)
	}
	for _, p := range []string{"/containers/" + e.cid.String() + "/logs/stdout", "/containerlogs/" + e.cid.String() + "/stdout"} {
		status, body = get(t, base+p+"?user.name="+owner)
		if status != 200 || !strings.Contains(body, "LogAggregationType: AGGREGATED\n") || !strings.Contains(body, "LogContents:\nhello from the launcher\nEnd of LogType:stdout.\n") {
			t.Errorf("%s: %d %q", p, status, body)
		}
	}
	// The client asks the log server itself when the NodeManager is gone.
	c, err := yarn.NewClient(yarn.Config{Addresses: []string{"127.0.0.1:1"}, Auth: yarn.PseudoAuth{User: proxyUser}})
	if err != nil {
		t.Fatal(err)
	}
	at := yarn.LogPlace{Node: "127.0.0.1:1", LogServer: base}
	ctx := hadoop.AsUser(ctxT(t), owner)
	lf, err := c.ContainerLogFile(ctx, at, e.cid, "stdout", -5)
	if err != nil || string(lf.Data) != "cher\n" || lf.Length != 24 || !lf.Truncated() || lf.AggregationType != yarn.LogsAggregated {
		t.Errorf("last 5 bytes through the client: %+v, %v", lf, err)
	}
	infos, err := c.ContainerLogs(ctx, at, e.cid)
	if err != nil || len(infos) != 1 || infos[0].AggregationType != yarn.LogsAggregated {
		t.Errorf("listing through the client: %+v, %v", infos, err)
	}
}

func TestLogServerRefusesUnknownContainersAndOtherUsers(t *testing.T) {
	t.Parallel()
	e := setupLogs(t, map[string]string{minijhs.YarnACLEnableKey: "true", minijhs.YarnAdminACLKey: " "})
	base := e.jhs.LogServerURL()
	status, body := get(t, base+"/containers/container_1700000000000_0008_01_000001/logs?user.name="+owner)
	if status != http.StatusNotFound || !strings.Contains(body, `"exception":"NotFoundException"`) {
		t.Errorf("unknown container: %d %q", status, body)
	}
	status, _ = get(t, base+"/containers/bogus/logs?user.name="+owner)
	if status != http.StatusBadRequest {
		t.Errorf("malformed container id: %d", status)
	}
	file := base + "/containerlogs/" + e.cid.String() + "/stdout?user.name="
	if status, body = get(t, file+"bob"); status != http.StatusForbidden || !strings.Contains(body, "User [bob] is not authorized") {
		t.Errorf("bob: %d %q", status, body)
	}
	if status, _ = get(t, file+owner); status != http.StatusOK {
		t.Errorf("the owner: %d", status)
	}
	if status, _ = get(t, file+proxyUser+"&doAs="+owner); status != http.StatusOK {
		t.Errorf("the owner through the proxy user: %d", status)
	}
	if status, _ = get(t, file+"bob&doAs="+owner); status != http.StatusForbidden {
		t.Errorf("a doAs the proxy-user rules refuse: %d", status)
	}
}
