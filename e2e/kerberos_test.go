package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/yarn"
)

// krbEnv is a server on a Kerberized local cluster and the environment
// its Kerberos user runs the CLI with.
type krbEnv struct {
	*env
	cliEnv []string
}

// kerberizedServer starts `gozie server -local -kerberos` with extra
// flags; the user is the cluster's Kerberos user, whose keytab
// local-cluster.properties names.
func kerberizedServer(t *testing.T, flags ...string) *krbEnv {
	t.Helper()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	e := localServerWith(t, append([]string{"-kerberos"}, flags...)...)
	c := e.cluster
	return &krbEnv{env: e, cliEnv: append(os.Environ(), "OOZIE_URL="+e.url, "KRB5_CONFIG="+c["krb5Config"],
		"GOZIE_CLIENT_KEYTAB="+c["userKeytab"], "GOZIE_CLIENT_PRINCIPAL="+c["userPrincipal"])}
}

// krbCLI runs the CLI as the Kerberos user (-auth KERBEROS).
func (k *krbEnv) krbCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binary, append(args, "-auth", "KERBEROS")...)
	cmd.Env = k.cliEnv
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// krbRun submits and starts a job as the Kerberos user and returns its id.
func (k *krbEnv) krbRun(t *testing.T, jobProps string, extra ...string) string {
	t.Helper()
	args := []string{"job", "-config", jobProps,
		"-D", "nameNode=" + k.cluster["nameNode"], "-D", "resourceManager=" + k.cluster["resourceManager"],
		"-D", "jobTracker=" + k.cluster["jobTracker"]}
	for _, kv := range extra {
		args = append(args, "-D", kv)
	}
	out, err := k.krbCLI(t, append(args, "-run")...)
	if err != nil {
		t.Fatalf("gozie job -run -auth KERBEROS: %v\n%s", err, out)
	}
	m := jobIDLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no job id in %q", out)
	}
	return m[1]
}

// krbWait polls the job as the Kerberos user until it ends.
func (k *krbEnv) krbWait(t *testing.T, id string, timeout time.Duration) (string, string) {
	t.Helper()
	var status, out string
	// Polling the CLI as a script would.
	testwait.Poll{Timeout: timeout, Every: 200 * time.Millisecond}.WaitForLast(t, "job "+id+" to finish", func() (bool, string) {
		var err error
		out, err = k.krbCLI(t, "job", "-info", id)
		if m := statusLine.FindStringSubmatch(out); err == nil && m != nil {
			switch m[1] {
			case "SUCCEEDED", "KILLED", "FAILED":
				status = m[1]
				return true, ""
			}
		}
		return false, fmt.Sprintf("info:\n%s (%v)", out, err)
	})
	return status, out
}

// yarnKerberos reaches the RM as the Kerberos user, by SPNEGO.
func (k *krbEnv) yarnKerberos(t *testing.T) *yarn.Client {
	t.Helper()
	krb, err := krblogin.Login(krblogin.Config{Principal: k.cluster["userPrincipal"], Keytab: k.cluster["userKeytab"],
		Krb5Conf: k.cluster["krb5Config"]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(krb.Destroy)
	auth, err := yarn.NewSPNEGOAuth(krb, "HTTP/_HOST@"+kdc.Realm)
	if err != nil {
		t.Fatal(err)
	}
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{k.cluster["resourceManagerWebapp"]}, Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	return yc
}

// TestKerberizedClusterRunsTheExamples submits gozie's examples as the
// cluster's Kerberos user through SPNEGO (gozie job -auth KERBEROS): the
// shell example, the nightly pipeline (hive2 with principal=, fs, shell),
// hive (beeline in the container with a HiveServer2 delegation token),
// map-reduce, sub-workflow, java-main, pyspark (spark-submit in the
// container with an RM delegation token), a workflow with a hive2
// <credential> and a coordinator waiting on its dataset's done-flags
// succeed on a cluster whose NameNodes, ResourceManagers
// and HiveServer2 take Kerberos and delegation tokens only (and, the
// strictest cluster, HA pairs with RPC privacy), with every YARN
// application the user's. A SIMPLE client of the server is refused.
func TestKerberizedClusterRunsTheExamples(t *testing.T) {
	t.Parallel()
	testreq.Program(t, "default-jdk-headless", "javac", "jar", "java") // the java-main example
	k := kerberizedServer(t, strictCluster...)
	apps := filepath.Join("..", "testdata", "apps")

	if out, err := k.cli(t, "job", "-config", filepath.Join(apps, "shell", "job.properties"), "-run"); err == nil ||
		!strings.Contains(out, "E0500") {
		t.Errorf("a SIMPLE client was served: %v\n%s", err, out)
	}

	var ids []string
	shell := k.copyApp(t, filepath.Join(apps, "shell"), "shell")
	ids = append(ids, k.krbRun(t, filepath.Join(shell, "job.properties")))
	nightly := k.copyApp(t, filepath.Join("..", "examples", "nightly-hive"), "nightly-hive")
	ids = append(ids, k.krbRun(t, filepath.Join(nightly, "job.properties"), "jdbcURL="+k.cluster["hive2JdbcUrl"]))
	src := filepath.Join(apps, "map-reduce")
	mr := k.copyApp(t, src, "map-reduce")
	k.stageInput(t, src, map[string]string{"text/data.txt": "To be or not to be\n"})
	ids = append(ids, k.krbRun(t, filepath.Join(mr, "job.properties")))
	hsrc := filepath.Join(apps, "hive")
	hive := k.copyApp(t, hsrc, "hive")
	k.stageInput(t, hsrc, map[string]string{"table/data.txt": "1\n2\n3\n"})
	ids = append(ids, k.krbRun(t, filepath.Join(hive, "job.properties")))
	subwf := k.copyApp(t, filepath.Join(apps, "subwf"), "subwf")
	ids = append(ids, k.krbRun(t, filepath.Join(subwf, "job.properties")))
	ids = append(ids, k.krbRun(t, k.writeApp(t, "with-cred", hive2CredentialApp(k.cluster["hive2JdbcUrl"]))))
	jsrc := filepath.Join(apps, "java-main")
	java := k.copyApp(t, jsrc, "java-main")
	javaExamples[testapps.Gozie].build(t, jsrc, java)
	ids = append(ids, k.krbRun(t, filepath.Join(java, "job.properties")))
	testreq.Program(t, "python3", "python3") // the pyspark example
	pyspark := k.copyApp(t, filepath.Join(apps, "pyspark"), "pyspark")
	ids = append(ids, k.krbRun(t, filepath.Join(pyspark, "job.properties")))

	// A coordinator whose actions wait for their dataset's done-flags,
	// which the server checks on HDFS as the user.
	appDir := filepath.Join("user", k.user, "examples", "apps", "after-restart")
	k.putData(t, filepath.ToSlash(filepath.Join(appDir, "coordinator.xml")), inputCoordinator)
	k.putData(t, filepath.ToSlash(filepath.Join(appDir, "workflow.xml")), restartWorkflow)
	k.putData(t, filepath.ToSlash(filepath.Join(appDir, "job.properties")),
		"oozie.coord.application.path=${nameNode}/user/${user.name}/examples/apps/after-restart\n")
	coord := k.krbRun(t, filepath.Join(k.dir, "dfs", appDir, "job.properties"), "start=2020-01-01T00:00Z", "end=2020-01-01T00:20Z")
	for _, instance := range []string{"202001010000", "202001010010"} {
		k.putData(t, "user/"+k.user+"/examples/input-data/restart/"+instance+"/_SUCCESS", "")
	}

	for _, id := range ids {
		status, info := k.krbWait(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Errorf("%s ended %s:\n%s", id, status, info)
		}
	}
	if status, info := k.krbWait(t, coord, 2*time.Minute); status != "SUCCEEDED" {
		t.Errorf("the coordinator ended %s:\n%s", status, info)
	}
	if got := k.readData(t, "user/"+k.user+"/examples/nightly-hive/output/2025-01-01"); !strings.Contains(got, "u001,1250") {
		t.Errorf("the nightly pipeline published %q", got)
	}
	// What the jobs wrote is the user's.
	krb, err := krblogin.Login(krblogin.Config{Principal: k.cluster["userPrincipal"], Keytab: k.cluster["userKeytab"],
		Krb5Conf: k.cluster["krb5Config"]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(krb.Destroy)
	h, err := conf.LoadHadoop(k.cluster["hadoopConfDir"])
	if err != nil {
		t.Fatal(err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{Conf: h.Map(), Kerberos: krb})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	for _, p := range []string{"examples/output-data/map-reduce/_SUCCESS", "examples/output-data/subwf/_SUCCESS",
		"examples/output-data/hive", "examples/output-data/pyspark/part-00000",
		"examples/nightly-hive/output/2025-01-01/_SUCCESS"} {
		fi, err := fs.Stat(t.Context(), k.cluster["nameNode"]+"/user/"+k.user+"/"+p)
		if err != nil || fi.Owner != k.user {
			t.Errorf("%s: owner %q (%v), want %s", p, fi.Owner, err, k.user)
		}
	}
	yc := k.yarnKerberos(t)
	reports, err := yc.Apps(t.Context(), yarn.AppsFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// The shell and report launchers, the map-reduce launcher and its job.
	if len(reports) < 4 {
		t.Fatalf("%d YARN applications, want at least 4: %+v", len(reports), reports)
	}
	for _, r := range reports {
		if r.User != k.user {
			t.Errorf("application %s (%s) belongs to %s, want %s", r.ID, r.ApplicationType, r.User, k.user)
		}
	}
}

// hive2CredentialApp is a workflow whose actions name a hive2 credential:
// a hive2 action whose jdbc-url has no principal=, as in Oozie's secure
// hive2 example, reaching the Kerberized HiveServer2 the credential names,
// then a shell action that succeeds only when its container's token file
// holds the HiveServer2 delegation token gozie fetched for the user.
func hive2CredentialApp(jdbcURL string) string {
	url, principal, _ := strings.Cut(jdbcURL, ";principal=")
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="with-cred">
<credentials><credential name="hs2" type="hive2">
<property><name>hive2.jdbc.url</name><value>` + url + `</value></property>
<property><name>hive2.server.principal</name><value>` + principal + `</value></property>
</credential></credentials>
<start to="query"/>
<action name="query" cred="hs2"><hive2 xmlns="uri:oozie:hive2-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<jdbc-url>` + url + `</jdbc-url><query>SELECT 1</query>
</hive2><ok to="check"/><error to="fail"/></action>
<action name="check" cred="hs2"><shell xmlns="uri:oozie:shell-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<exec>sh</exec><argument>-c</argument><argument>grep -qa HIVE_DELEGATION_TOKEN "$HADOOP_TOKEN_FILE_LOCATION"</argument>
</shell><ok to="end"/><error to="fail"/></action>
<kill name="fail"><message>no HiveServer2 token</message></kill><end name="end"/></workflow-app>`
}

// TestTicketAndTokensExpireDuringACoordinator runs a coordinator on a
// Kerberized cluster whose server ticket lives 8 seconds, not renewable,
// and whose delegation tokens live 10 seconds: its actions are released
// one by one, each only once the ticket and the tokens the previous one
// used have expired, so each launch needs a ticket gozie got again from
// its keytab and tokens fetched again. Every action succeeds.
func TestTicketAndTokensExpireDuringACoordinator(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	const ticketLife, tokenLife = 8 * time.Second, 10 * time.Second
	dir, configDir := t.TempDir(), t.TempDir()
	args := []string{"-local", "-kerberos", "-delegation-token-renew-interval", tokenLife.String(),
		"-data-dir", dir, "-config-dir", configDir}
	// A first start makes the realm; the ticket of gozie's principal is then
	// shortened before the start the test uses.
	first, addr := startServer(t, args...)
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-first.done
	_ = first.cmd.Wait()
	realm, err := kdc.Attach(filepath.Join(dir, "kdc"))
	if err != nil {
		t.Fatal(err)
	}
	if err := realm.Lifetimes("gozie/localhost", ticketLife, 0); err != nil {
		t.Fatal(err)
	}
	start(t, "gozie server started", append([]string{"server", "-addr", addr}, args...)...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	c := e.cluster
	k := &krbEnv{env: e, cliEnv: append(os.Environ(), "OOZIE_URL="+e.url, "KRB5_CONFIG="+c["krb5Config"],
		"GOZIE_CLIENT_KEYTAB="+c["userKeytab"], "GOZIE_CLIENT_PRINCIPAL="+c["userPrincipal"])}

	appDir := filepath.Join("user", k.user, "examples", "apps", "after-restart")
	k.putData(t, filepath.ToSlash(filepath.Join(appDir, "coordinator.xml")), inputCoordinator)
	k.putData(t, filepath.ToSlash(filepath.Join(appDir, "workflow.xml")), restartWorkflow)
	k.putData(t, filepath.ToSlash(filepath.Join(appDir, "job.properties")),
		"oozie.coord.application.path=${nameNode}/user/${user.name}/examples/apps/after-restart\n")
	id := k.krbRun(t, filepath.Join(dir, "dfs", appDir, "job.properties"), "start=2020-01-01T00:00Z", "end=2020-01-01T00:30Z")
	for i, instance := range []string{"202001010000", "202001010010", "202001010020"} {
		released := time.Now()
		k.putData(t, "user/"+k.user+"/examples/input-data/restart/"+instance+"/_SUCCESS", "")
		k.waitKrbCoord(t, id, func(acts []coordAction) bool { return len(acts) == 3 && acts[i].Status == "SUCCEEDED" })
		// The condition the next action is released on: what this one
		// used (the server's ticket, the job's tokens) has expired.
		time.Sleep(time.Until(released.Add(tokenLife + time.Second)))
	}
	status, info := k.krbWait(t, id, time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("the coordinator ended %s:\n%s", status, info)
	}
}

// waitKrbCoord polls the coordinator's actions as the Kerberos user until
// cond holds.
func (k *krbEnv) waitKrbCoord(t *testing.T, id string, cond func([]coordAction) bool) {
	t.Helper()
	// Polling the CLI as a script would.
	testwait.Poll{Timeout: 2 * time.Minute, Every: 200 * time.Millisecond}.WaitForLast(t, "coordinator "+id, func() (bool, string) {
		out, err := k.krbCLI(t, "job", "-info", id, "-verbose")
		var acts []coordAction
		for _, line := range strings.Split(out, "\n") {
			f := strings.Split(line, "\t")
			if len(f) == 13 && strings.HasPrefix(f[0], id+"@") {
				if sm := actionStatuses.FindStringSubmatch(f[10]); sm != nil {
					acts = append(acts, coordAction{ID: f[0], Status: sm[2]})
				}
			}
		}
		if err == nil && cond(acts) {
			return true, ""
		}
		if strings.Contains(out, "FAILED") || strings.Contains(out, "KILLED") {
			t.Fatalf("coordinator %s: %v\n%s", id, err, out)
		}
		return false, fmt.Sprintf("%v\n%s", err, out)
	})
}
