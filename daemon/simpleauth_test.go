package daemon_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// nnRefusesSimple is a Kerberized NameNode's answer to a SIMPLE client
// (ipc/Server.java initializeAuthContext).
const nnRefusesSimple = "org.apache.hadoop.security.AccessControlException: SIMPLE authentication is not enabled.  Available:[TOKEN, KERBEROS]"

// TestSimpleServerOnKerberizedNameNode: a server whose Hadoop configuration
// lacks hadoop.security.authentication=kerberos, on a Kerberos-only
// NameNode, says so where users look: at start, an error in its log (the
// edit stream of the default filesystem is refused); a submission from
// HDFS is refused with the NameNode's answer and the settings to change
// (not colinmarc's "unexpected sequence number"); an fs action on HDFS
// ends in ERROR (FS014, a refusal, not retried as transient) with the same
// message in its errorMessage, its error transition taken; a coordinator
// action waiting for a dataset on HDFS shows it as the reason (E1021).
func TestSimpleServerOnKerberizedNameNode(t *testing.T) {
	k := kdc.Start(t)
	k.AddService(t, "nn/localhost")
	nnKT, err := keytab.Load(k.Keytab(t, "nn.keytab", "nn/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs",
		Kerberos:      &ipc.KerberosOptions{Keytab: nnKT, Service: "nn", Host: "localhost"},
		NameNodeAddrs: []string{"localhost:0"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	hadoopDir := filepath.Join(t.TempDir(), "hadoop-conf")
	if err := os.Mkdir(hadoopDir, 0o755); err != nil {
		t.Fatal(err)
	}
	site, err := os.Create(filepath.Join(hadoopDir, "core-site.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := conf.WriteConfigurationXML(site, conf.NewProperties("fs.defaultFS", m.URI())); err != nil {
		t.Fatal(err)
	}
	site.Close()
	logs := &lockedBuffer{}
	s := serveWith(t, map[string]string{"gozie.hadoop.conf.dir": hadoopDir},
		daemon.Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	wantHint := "set hadoop.security.authentication=kerberos in core-site.xml of the directory of gozie.hadoop.conf.dir (or HADOOP_CONF_DIR), " +
		hadoopDir + ", and gozie.kerberos.principal and gozie.kerberos.keytab"
	check := func(what, msg string) {
		t.Helper()
		if !strings.Contains(msg, nnRefusesSimple) || !strings.Contains(msg, wantHint) || !strings.Contains(msg, m.Addr()) {
			t.Errorf("%s: %q\nwant the NameNode %s, its answer %q and %q", what, msg, m.Addr(), nnRefusesSimple, wantHint)
		}
	}

	status, code, out := s.call(t, http.MethodPost, "/v2/jobs", "alice",
		confXML(t, "user.name", "alice", "oozie.wf.application.path", m.URI()+"/user/alice/app"))
	var e struct{ ErrorMessage string }
	_ = json.Unmarshal([]byte(out), &e)
	if status != http.StatusBadRequest {
		t.Errorf("submission from HDFS: %d %s %s, want 400", status, code, out)
	}
	check("submission from HDFS ("+code+")", e.ErrorMessage)

	s.write(t, "fs/workflow.xml", mkdirWorkflow("fs-kerberized", m.URI()+"/user/alice/made"))
	id := s.submit(t, "alice", "oozie.wf.application.path", "file://"+s.apps+"/fs")
	info := s.runWorkflow(t, id, "alice", 30*time.Second)
	a := info.action("fs")
	if info.Status != "KILLED" || a.Status != "ERROR" || a.Transition != "failed" || a.ErrorCode != "FS014" {
		t.Errorf("workflow %s, fs action %s → %s %s; want KILLED after an ERROR with FS014", info.Status, a.Status, a.Transition, a.ErrorCode)
	}
	check("fs action's errorMessage", a.ErrorMessage)

	// A coordinator from the server's disk waiting for a dataset on HDFS:
	// its action waits, the refusal the reason (E1021).
	s.write(t, "noop/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
	s.write(t, "coord/coordinator.xml", strings.ReplaceAll(foreignCoordApp("file://"+s.apps+"/noop", 10), "foo://x/y", m.URI()+"/data"))
	cid := s.submit(t, "alice", "oozie.coord.application.path", "file://"+s.apps+"/coord")
	ca := s.waitCoordAction(t, cid, func(i coordActionInfo) bool { return i.Actions[0].ErrorCode != "" }, nil).Actions[0]
	if ca.Status != "WAITING" || ca.ErrorCode != "E1021" {
		t.Errorf("coordinator action %s %s, want WAITING with E1021", ca.Status, ca.ErrorCode)
	}
	check("coordinator action's errorMessage", ca.ErrorMessage)

	const logged = "level=ERROR msg=\"the NameNode refuses the server's SIMPLE authentication"
	testwait.WaitFor(t, testwait.Timeout, "the refusal in the server's log", func() bool { return strings.Contains(logs.String(), logged) })
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, logged) && !strings.Contains(line, "hadoop.security.authentication=kerberos") {
			t.Errorf("log line %q does not name hadoop.security.authentication=kerberos", line)
		}
	}
}

// lockedBuffer is a log sink the server's goroutines share.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
