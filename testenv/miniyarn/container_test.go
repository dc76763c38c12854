package miniyarn_test

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// containerEnv runs `env` in a lenient container and returns the variables.
func containerEnv(t *testing.T, c *cluster, adjust func(*yarn.ApplicationSubmissionContext)) (yarn.AppReport, map[string]string) {
	t.Helper()
	id := c.submit(t, "env 1><LOG_DIR>/stdout; cat container_tokens > /dev/null", adjust)
	r := c.waitDone(t, id)
	if !r.Succeeded() {
		t.Fatalf("env container: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	_, _, body := httpDo(t, "GET", r.AMContainerLogs+"/stdout", "", "")
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	return r, env
}

func TestContainerEnvironment(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, Env: map[string]string{"HADOOP_CONF_DIR": "/etc/hadoop/conf", "GOZIE_FROM_NM": "nm"}})
	r, env := containerEnv(t, c, func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.Environment = yarn.EntryMap[string]{
			"CLASSPATH":       "{{PWD}}<CPS>{{PWD}}/lib/*<CPS>{{HADOOP_CONF_DIR}}",
			"GOZIE_LOG":       "<LOG_DIR>/gozie.log",
			"GOZIE_FROM_NM":   "app wins",
			"CONTAINER_ID":    "the NM overrides this",
			"QUOTED":          `say "hi" \ there`,
			"HADOOP_CONF_DIR": "the NM overrides this too",
		}
	})
	cid := yarn.ContainerID{Attempt: yarn.AttemptID{App: r.ID, Attempt: 1}, Container: 1}.String()
	pwd := env["PWD"]
	checks := map[string]string{
		"CONTAINER_ID":               cid,
		"USER":                       testUser,
		"LOGNAME":                    testUser,
		"HOME":                       miniyarn.DefaultUserHomeDir,
		"NM_HOST":                    "127.0.0.1",
		"APPLICATION_WEB_PROXY_BASE": "/proxy/" + r.ID.String(),
		"CLASSPATH":                  pwd + ":" + pwd + "/lib/*:/etc/hadoop/conf", // after the NM's own
		"GOZIE_LOG":                  env["LOG_DIRS"] + "/gozie.log",
		"GOZIE_FROM_NM":              "app wins",
		"HADOOP_CONF_DIR":            "/etc/hadoop/conf", // the NM's own, forced
		"QUOTED":                     `say "hi" \ there`,
		"HADOOP_TOKEN_FILE_LOCATION": filepath.Join(pwd, "container_tokens"),
	}
	for k, want := range checks {
		if env[k] != want {
			t.Errorf("%s = %q, want %q", k, env[k], want)
		}
	}
	if !strings.HasSuffix(pwd, "/"+cid) || !strings.HasSuffix(env["LOG_DIRS"], "/"+cid) {
		t.Errorf("PWD %q and LOG_DIRS %q should end in the container id", pwd, env["LOG_DIRS"])
	}
	if env["NM_PORT"] == "" || env["NM_HTTP_PORT"] == "" || env["LOCAL_DIRS"] == "" || env["APP_SUBMIT_TIME_ENV"] != itoa(r.StartedTime.UnixMilli()) {
		t.Errorf("NM variables: %v", env)
	}
	creds, err := hadoop.ReadTokenFile(env["HADOOP_TOKEN_FILE_LOCATION"])
	if err != nil {
		t.Fatalf("token file: %v", err)
	}
	tok, ok := creds.TokenOfKind(hadoop.KindAMRMToken)
	if !ok || tok.Service != "" || len(tok.Password) == 0 {
		t.Errorf("AMRM token %+v (ok %v), want an empty service", tok, ok)
	}
}

// A real RM writes the AMRM token with an empty service under an empty
// alias, and the NodeManager exports its own HADOOP_CONF_DIR, whose
// yarn-site.xml names the scheduler: an AM finds the scheduler only there.
func TestAMRMTokenHasNoServiceAndConfDirNamesScheduler(t *testing.T) {
	t.Setenv("HADOOP_CONF_DIR", "/the/test/process/conf")     // must not leak into containers
	t.Setenv("GOZIE_NOT_A_NM_VARIABLE", "the test process's") // nor any variable off the NM's whitelist
	storage := &miniyarn.HDFSStorage{DefaultFS: "hdfs://mycluster"}
	t.Cleanup(func() { storage.Close() })
	c := setup(t, miniyarn.Options{Lenient: true, Storage: storage,
		Conf:     map[string]string{"hadoop.proxyuser.gozie.hosts": "*"},
		HDFSConf: map[string]string{"dfs.nameservices": "mycluster"}})
	_, env := containerEnv(t, c, nil)
	if v, ok := env["GOZIE_NOT_A_NM_VARIABLE"]; ok {
		t.Errorf("the container sees the test process's GOZIE_NOT_A_NM_VARIABLE=%q: only the application's, the whitelisted and the NM's own variables reach it", v)
	}
	dir := env["HADOOP_CONF_DIR"]
	if dir == "" || dir == "/the/test/process/conf" || dir != c.rm.HadoopConfDir() {
		t.Fatalf("HADOOP_CONF_DIR = %q, want the generated %q", dir, c.rm.HadoopConfDir())
	}
	h, err := conf.LoadHadoop(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.SchedulerAddresses(); len(got) != 1 || got[0] != c.rm.SchedulerAddr() {
		t.Errorf("scheduler addresses %v, want [%s]", got, c.rm.SchedulerAddr())
	}
	for k, want := range map[string]string{"fs.defaultFS": "hdfs://mycluster", "dfs.nameservices": "mycluster",
		"hadoop.proxyuser.gozie.hosts": "*"} {
		if got, _ := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	creds, err := hadoop.ReadTokenFile(env["HADOOP_TOKEN_FILE_LOCATION"])
	if err != nil {
		t.Fatal(err)
	}
	tok, ok := creds.Tokens[""]
	if !ok || tok.Kind != hadoop.KindAMRMToken || tok.Service != "" {
		t.Errorf("tokens %v: want the AMRM token under the empty alias with an empty service", creds.Tokens)
	}
}

func TestSubmittedCredentialsReachTheTokenFile(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	hdfsTok := hadoop.Token{Identifier: []byte("id-bytes"), Password: []byte("pw"), Kind: hadoop.KindHDFSDelegationToken, Service: "127.0.0.1:8020"}
	_, env := containerEnv(t, c, func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.Credentials = &yarn.Credentials{
			Tokens:  yarn.EntryMap[string]{"127.0.0.1:8020": tokenURLString(hdfsTok)},
			Secrets: yarn.EntryMap[string]{"db.password": "c2VjcmV0"}, // "secret"
		}
	})
	creds, err := hadoop.ReadTokenFile(env["HADOOP_TOKEN_FILE_LOCATION"])
	if err != nil {
		t.Fatal(err)
	}
	got := creds.Tokens["127.0.0.1:8020"]
	if string(got.Identifier) != "id-bytes" || string(got.Password) != "pw" || got.Kind != hadoop.KindHDFSDelegationToken {
		t.Errorf("HDFS token in file: %+v", got)
	}
	if string(creds.Secrets["db.password"]) != "secret" {
		t.Errorf("secret: %q", creds.Secrets["db.password"])
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestLocalization(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	script := writeFile(t, filepath.Join(src, "run.sh"), "echo script-ran\n")
	zipPath := filepath.Join(src, "lib.zip")
	writeZip(t, zipPath, map[string]string{"conf/app.properties": "k=zip\n"})
	tgzPath := filepath.Join(src, "data.tar.gz")
	writeTarGz(t, tgzPath, map[string]string{"dir/data.txt": "from-tgz\n"})

	c := setup(t, miniyarn.Options{Lenient: true})
	res := func(p string, typ yarn.LocalResourceType) yarn.LocalResource {
		size, mtime := statMillis(t, p)
		return yarn.LocalResource{Resource: "file://" + p, Type: typ, Visibility: yarn.VisibilityApplication, Size: size, Timestamp: mtime}
	}
	id := c.submit(t, "bash ./run.sh > <LOG_DIR>/stdout && cat lib/conf/app.properties data/dir/data.txt sub/dir/copy.sh >> <LOG_DIR>/stdout", func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.LocalResources = yarn.EntryMap[yarn.LocalResource]{
			"run.sh":          res(script, yarn.ResourceFile),
			"lib":             res(zipPath, yarn.ResourceArchive),
			"data":            res(tgzPath, yarn.ResourceArchive),
			"sub/dir/copy.sh": res(script, yarn.ResourceFile),
		}
	})
	r := c.waitDone(t, id)
	if !r.Succeeded() {
		t.Fatalf("got %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	_, _, out := httpDo(t, "GET", r.AMContainerLogs+"/stdout", "", "")
	if want := "script-ran\nk=zip\nfrom-tgz\necho script-ran\n"; out != want {
		t.Errorf("container output %q, want %q", out, want)
	}
}

func TestLocalizationTimestampMismatchFailsTheAttempt(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	script := writeFile(t, filepath.Join(src, "run.sh"), "true\n")
	size, mtime := statMillis(t, script)
	c := setup(t, miniyarn.Options{Lenient: true})
	stale := mtime - 1000
	id := c.submit(t, "bash ./run.sh", func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.LocalResources = yarn.EntryMap[yarn.LocalResource]{
			"run.sh": {Resource: "file://" + script, Type: yarn.ResourceFile, Visibility: yarn.VisibilityApplication, Size: size, Timestamp: stale},
		}
	})
	r := c.waitDone(t, id)
	if r.State != yarn.StateFailed || r.FinalStatus != yarn.FinalFailed {
		t.Fatalf("got %s/%s", r.State, r.FinalStatus)
	}
	want := "java.io.IOException: Resource file://" + script + " changed on src filesystem (expected " + itoa(stale) + ", was " + itoa(mtime)
	for _, w := range []string{want, "exited with  exitCode: -1000", "Failed to download resource"} {
		if !strings.Contains(r.Diagnostics, w) {
			t.Errorf("diagnostics %q lack %q", r.Diagnostics, w)
		}
	}
}

func TestMissingResourceFailsTheAttempt(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	missing := filepath.Join(t.TempDir(), "nope.sh")
	id := c.submit(t, "true", func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.LocalResources = yarn.EntryMap[yarn.LocalResource]{
			"nope.sh": {Resource: "file://" + missing, Type: yarn.ResourceFile, Visibility: yarn.VisibilityApplication, Timestamp: 1},
		}
	})
	r := c.waitDone(t, id)
	if r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, "FileNotFoundException") {
		t.Fatalf("got %s %q", r.State, r.Diagnostics)
	}
}

func writeFile(t *testing.T, p, content string) string {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	// A whole-second mtime in the past keeps the millisecond value stable.
	mt := time.Unix(1700000000, 123*int64(time.Millisecond))
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return p
}

func statMillis(t *testing.T, p string) (int64, int64) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size(), fi.ModTime().UnixMilli()
}

func writeZip(t *testing.T, p string, files map[string]string) {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, b.String())
}

func writeTarGz(t *testing.T, p string, files map[string]string) {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for name, content := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, b.String())
}

func tokenURLString(t hadoop.Token) string { return yarn.EncodeTokenURLString(t) }
