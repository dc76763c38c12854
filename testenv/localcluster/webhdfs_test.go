package localcluster_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/localcluster"
)

// TestWebHDFS: the cluster's NameNode serves WebHDFS at the address its
// hdfs-site.xml names (dfs.namenode.http-address) and local-cluster.
// properties gives (webhdfs), over the one namespace, and keeps its HTTP
// ports across a restart on the same directory.
func TestWebHDFS(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Properties()
	f, err := os.Open(filepath.Join(c.ConfDir, "hdfs-site.xml"))
	if err != nil {
		t.Fatal(err)
	}
	site, err := conf.ReadConfigurationXML(f, "hdfs-site.xml")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := site.Get("dfs.namenode.http-address")
	if addr == "" || p["webhdfs"] != "http://"+addr+"/webhdfs/v1" {
		t.Fatalf("hdfs-site.xml's dfs.namenode.http-address %q, webhdfs property %q", addr, p["webhdfs"])
	}
	// A directory made over WebHDFS is the HDFS client's, and the user's.
	req, _ := http.NewRequest("PUT", p["webhdfs"]+"/user/alice/web?op=MKDIRS&user.name=alice", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("MKDIRS = %d", resp.StatusCode)
	}
	fi, err := c.FS.Stat(ctx, p["nameNode"]+"/user/alice/web")
	if err != nil || !fi.IsDir {
		t.Fatalf("the HDFS client's view: %v %v", fi, err)
	}
	resp, err = http.Get(p["webhdfs"] + "/user/alice/web?op=GETFILESTATUS&user.name=alice")
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ FileStatus struct{ Owner, Type string } }
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || st.FileStatus.Owner != "alice" || st.FileStatus.Type != "DIRECTORY" {
		t.Errorf("GETFILESTATUS = %+v, %v", st, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	ports, err := os.ReadFile(filepath.Join(dir, localcluster.PortsFile))
	if err != nil || !strings.Contains(string(ports), "namenode.http.nn1="+addr) || !strings.Contains(string(ports), "datanode.http=") {
		t.Fatalf("%s does not record the HTTP ports:\n%s (%v)", localcluster.PortsFile, ports, err)
	}
	again, err := localcluster.Start(ctx, localcluster.Options{Dir: dir})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	defer again.Close()
	if got := again.Properties()["webhdfs"]; got != p["webhdfs"] {
		t.Errorf("after a restart WebHDFS moved from %s to %s", p["webhdfs"], got)
	}
	u, _ := url.Parse(p["webhdfs"])
	if resp, err := http.Get(u.String() + "/user/alice/web?op=GETFILESTATUS&user.name=alice"); err != nil || resp.StatusCode != 200 {
		t.Errorf("WebHDFS after a restart: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}
