package clustertools

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// Spark names of the stand-in.
const (
	// ApplicationTypeSpark is the YARN application type of a submitted
	// Spark application.
	ApplicationTypeSpark = "SPARK"
	// sparkAppFile is the application's description in the AM container.
	sparkAppFile = "__spark_app__.json"
	// sparkAMFlag makes spark-submit the stand-in's ApplicationMaster.
	sparkAMFlag = "--gozie-appmaster"
	// sparkStagingDir is below the user's home, as Spark's default
	// spark.yarn.stagingDir puts it.
	sparkStagingDir = ".sparkStaging"
	// sparkReportInterval is spark.yarn.report.interval's default.
	sparkReportInterval = time.Second
	// defaultSparkAMMemoryMB is the AM container's size: the driver's
	// (cluster mode) or the AM's (client mode) 1 GB and 512 MB defaults
	// with the 384 MB overhead, rounded to the larger.
	defaultSparkAMMemoryMB = 1408
)

// sparkValueOptions are spark-submit's options that take a value
// (SparkSubmitOptionParser); sparkFlagOptions take none.
var (
	sparkValueOptions = map[string]bool{
		"--master": true, "--deploy-mode": true, "--class": true, "--name": true, "--jars": true,
		"--packages": true, "--exclude-packages": true, "--repositories": true, "--py-files": true,
		"--files": true, "--archives": true, "--conf": true, "-c": true, "--properties-file": true,
		"--driver-memory": true, "--driver-java-options": true, "--driver-library-path": true,
		"--driver-class-path": true, "--executor-memory": true, "--driver-cores": true,
		"--executor-cores": true, "--num-executors": true, "--queue": true, "--total-executor-cores": true,
		"--principal": true, "--keytab": true, "--proxy-user": true,
	}
	sparkFlagOptions = map[string]bool{"--verbose": true, "-v": true, "--supervise": true}
	// localMaster is local, local[N], local[*] or local[N,F].
	localMaster = regexp.MustCompile(`^local(\[(\*|[0-9]+)(,[0-9]+)?\])?$`)
)

// sparkSubmit is one parsed spark-submit command line.
type sparkSubmit struct {
	master, deployMode, class, name string
	files, pyFiles, archives        []string
	conf                            map[string]string
	verbose                         bool
	primary                         string
	args                            []string
}

// sparkApp is what the AM runs, written as sparkAppFile: the application's
// link name in the container, its main class (a jar) or none (a Python
// file), its arguments and the Python files for PYTHONPATH.
type sparkApp struct {
	Primary string   `json:"primary"`
	Class   string   `json:"class,omitempty"`
	Args    []string `json:"args,omitempty"`
	PyFiles []string `json:"pyFiles,omitempty"`
}

func (a *sparkApp) python() bool { return strings.HasSuffix(a.Primary, ".py") }

// sparkUsageError is spark-submit's refusal of its arguments: "Error: ..."
// and exit code 1.
type sparkUsageError struct{ msg string }

func (e *sparkUsageError) Error() string { return e.msg }

func usageErr(format string, args ...any) error {
	return &sparkUsageError{msg: fmt.Sprintf(format, args...)}
}

// sparkSubmitMain is `spark-submit [options] <app jar | python file>
// [app arguments]`, and the stand-in's AM (`spark-submit
// --gozie-appmaster FILE`).
func (t *tool) sparkSubmitMain(ctx context.Context, args []string) int {
	if len(args) == 2 && args[0] == sparkAMFlag {
		return t.sparkAM(ctx, args[1])
	}
	s, err := parseSparkSubmit(args)
	if err == nil {
		err = s.validate()
	}
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "Error: %v\nRun with --help for usage help or --verbose for debug output\n", err)
		return exitFail
	}
	if s.verbose {
		fmt.Fprintf(t.env.Stderr, "Parsed arguments:\n  master %s\n  deployMode %s\n  name %s\n  mainClass %s\n  primaryResource %s\n",
			s.master, s.deployMode, s.name, s.class, s.primary)
	}
	if localMaster.MatchString(s.master) {
		return t.sparkLocal(ctx, s)
	}
	return t.sparkYarn(ctx, s)
}

// parseSparkSubmit reads the options up to the primary resource; what
// follows it are the application's arguments.
func parseSparkSubmit(args []string) (*sparkSubmit, error) {
	s := &sparkSubmit{conf: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			s.primary, s.args = a, args[i+1:]
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case sparkFlagOptions[a]:
			s.verbose = s.verbose || a == "--verbose" || a == "-v"
			continue
		case !sparkValueOptions[name]:
			return nil, usageErr("Unrecognized option '%s'.", a)
		case !hasValue:
			if i+1 >= len(args) {
				return nil, usageErr("Missing argument for option '%s'.", a)
			}
			i++
			value = args[i]
		}
		s.set(name, value)
	}
	return s, nil
}

// set records one option; --conf spark.* settings stand for their options
// as in Spark (spark.master, spark.submit.deployMode, spark.app.name).
func (s *sparkSubmit) set(name, value string) {
	switch name {
	case "--master":
		s.master = value
	case "--deploy-mode":
		s.deployMode = value
	case "--class":
		s.class = value
	case "--name":
		s.name = value
	case "--files":
		s.files = append(s.files, splitComma(value)...)
	case "--py-files":
		s.pyFiles = append(s.pyFiles, splitComma(value)...)
	case "--archives":
		s.archives = append(s.archives, splitComma(value)...)
	case "--queue":
		s.conf["spark.yarn.queue"] = value
	case "--conf", "-c":
		// Spark ignores a --conf that is not key=value, with a warning.
		if k, v, ok := strings.Cut(value, "="); ok {
			s.conf[strings.TrimSpace(k)] = v
		}
	}
}

// validate makes SparkSubmitArguments' and SparkSubmit's checks: a primary
// resource, a main class for a jar, a master the stand-in can run and a
// deploy mode it fits.
func (s *sparkSubmit) validate() error {
	if s.master == "" {
		s.master = s.conf["spark.master"]
	}
	if s.master == "" {
		s.master = "local[*]"
	}
	if s.deployMode == "" {
		s.deployMode = s.conf["spark.submit.deployMode"]
	}
	switch s.master {
	case "yarn-cluster", "yarn-client":
		mode := strings.TrimPrefix(s.master, "yarn-")
		if s.deployMode != "" && s.deployMode != mode {
			return usageErr("%s deploy mode is not compatible with master \"%s\"", capitalize(s.deployMode), s.master)
		}
		s.master, s.deployMode = "yarn", mode
	}
	if s.deployMode == "" {
		s.deployMode = "client"
	}
	if s.deployMode != "client" && s.deployMode != "cluster" {
		return usageErr("Deploy mode must be either client or cluster")
	}
	switch {
	case s.master == "yarn":
	case localMaster.MatchString(s.master):
		if s.deployMode == "cluster" {
			return usageErr("Cluster deploy mode is not compatible with master \"%s\"", s.master)
		}
	case strings.HasPrefix(s.master, "spark://"), strings.HasPrefix(s.master, "mesos://"), strings.HasPrefix(s.master, "k8s://"):
		return usageErr("master %s: the local cluster's spark-submit runs on yarn and local masters only", s.master)
	default:
		return usageErr("Master must either be yarn or start with spark, mesos, k8s, or local")
	}
	if s.primary == "" {
		return usageErr("Must specify a primary resource (JAR or Python or R file)")
	}
	if s.name == "" {
		s.name = s.conf["spark.app.name"]
	}
	if s.name == "" {
		s.name = path.Base(s.primary)
		if s.class != "" {
			s.name = s.class
		}
	}
	return nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// isPython reports whether the application is a Python file.
func (s *sparkSubmit) isPython() bool { return strings.HasSuffix(s.primary, ".py") }

// mainClass is --class, else the jar manifest's Main-Class, as SparkSubmit
// reads it; a jar with neither is refused.
func mainClass(s *sparkSubmit, jar string) (string, error) {
	if s.class != "" || s.isPython() {
		return s.class, nil
	}
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return "", usageErr("Cannot load main class from JAR %s: %v", s.primary, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "META-INF/MANIFEST.MF" {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return "", err
		}
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Main-Class:"); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v), nil
			}
		}
	}
	return "", usageErr("No main class set in JAR; please specify one with --class.")
}

// sparkLocal runs the application with a local master: the driver and its
// executors in this process's place, as SparkSubmit does; a remote
// application file is downloaded first.
func (t *tool) sparkLocal(ctx context.Context, s *sparkSubmit) int {
	dir, err := os.MkdirTemp(t.env.Dir, "spark-local-")
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	defer os.RemoveAll(dir)
	primary, err := t.fetchLocal(ctx, s.primary, dir)
	if err != nil {
		return t.sparkException(err)
	}
	var py []string
	for _, f := range s.pyFiles {
		p, err := t.fetchLocal(ctx, f, dir)
		if err != nil {
			return t.sparkException(err)
		}
		py = append(py, p)
	}
	class, err := mainClass(s, primary)
	if err != nil {
		return t.sparkException(err)
	}
	app := &sparkApp{Primary: primary, Class: class, Args: s.args, PyFiles: py}
	code, _ := t.runSparkApp(ctx, app, t.env.Dir)
	return code
}

// fetchLocal returns a local path of the file p names: a local file as it
// is (relative to the working directory, or file:), a cluster file
// downloaded into dir.
func (t *tool) fetchLocal(ctx context.Context, p, dir string) (string, error) {
	if local, ok := localFile(p); ok {
		local = t.localPath(local)
		if _, err := os.Stat(local); err != nil {
			return "", fmt.Errorf("java.io.FileNotFoundException: File %s does not exist", p)
		}
		return local, nil
	}
	c, err := t.cluster()
	if err != nil {
		return "", err
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		return "", err
	}
	defer fsys.Close()
	b, err := fsys.ReadFile(ctx, p)
	if err != nil {
		return "", fileNotFound(p, err)
	}
	out := filepath.Join(dir, path.Base(p))
	return out, os.WriteFile(out, b, 0o644)
}

// localFile reports whether p names a local file (no scheme, or file:).
func localFile(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(p, "file:"); ok {
		return rest, true
	}
	return p, !strings.Contains(p, "://")
}

func fileNotFound(p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("java.io.FileNotFoundException: File does not exist: %s", p)
	}
	return err
}

// sparkException prints what SparkSubmit prints for an exception and
// returns its exit code; a usage error is "Error: ...".
func (t *tool) sparkException(err error) int {
	var ue *sparkUsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(t.env.Stderr, "Error: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(t.env.Stderr, "Exception in thread \"main\" %v\n", err)
	return exitFail
}

// sparkYarn submits the application to YARN (Spark's yarn.Client): the
// local files staged under the user's .sparkStaging/<app>, the cluster's
// referenced where they are, an AM that runs the application, the tags of
// spark.yarn.tags; then, unless cluster mode with
// spark.yarn.submit.waitAppCompletion=false, it reports the application
// until it ends and fails when it did not succeed. A client-mode
// spark-submit stopped by SIGTERM kills its application (its driver is
// gone); a cluster-mode one leaves it running.
func (t *tool) sparkYarn(ctx context.Context, s *sparkSubmit) int {
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	defer fsys.Close()
	yc, err := t.yarnClient(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	na, err := yc.NewApplication(ctx)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	appID := na.ApplicationID
	sc, err := t.sparkSubmission(ctx, c, fsys, s, appID)
	if err != nil {
		return t.sparkException(err)
	}
	if err := yc.Submit(ctx, sc); err != nil {
		t.errorf("submitting %s: %v", appID, err)
		return exitFail
	}
	fmt.Fprintf(t.env.Stderr, "INFO yarn.Client: Submitted application %s\n", appID)
	if s.deployMode == "cluster" && strings.EqualFold(s.conf["spark.yarn.submit.waitAppCompletion"], "false") {
		fmt.Fprintf(t.env.Stderr, "INFO yarn.Client: Application report for %s (state: %s)\n", appID, yarn.StateAccepted)
		return exitOK
	}
	return t.sparkMonitor(ctx, yc, appID, s.deployMode == "client")
}

// sparkMonitor reports the application until it ends, as Client.monitor
// does, and fails unless it succeeded.
func (t *tool) sparkMonitor(ctx context.Context, yc *yarn.Client, appID yarn.ApplicationID, client bool) int {
	tick := time.NewTicker(sparkReportInterval)
	defer tick.Stop()
	var last yarn.AppState
	for {
		rep, err := yc.App(ctx, appID)
		if ctx.Err() != nil {
			if client {
				kctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				_ = yc.Kill(kctx, appID)
				cancel()
			}
			return exitTerminated
		}
		if err != nil {
			t.errorf("reporting %s: %v", appID, err)
			return exitFail
		}
		if rep.State != last {
			fmt.Fprintf(t.env.Stderr, "INFO yarn.Client: Application report for %s (state: %s)\n", appID, rep.State)
			last = rep.State
		}
		if rep.Done() {
			fmt.Fprintf(t.env.Stderr, "INFO yarn.Client:\n\t diagnostics: %s\n\t final status: %s\n\t user: %s\n",
				orNA(strings.TrimSpace(rep.Diagnostics)), rep.FinalStatus, rep.User)
			if !rep.Succeeded() {
				fmt.Fprintf(t.env.Stderr, "Exception in thread \"main\" org.apache.spark.SparkException: Application %s finished with failed status\n", appID)
				return exitFail
			}
			return exitOK
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
}

func orNA(s string) string {
	if s == "" {
		return "N/A"
	}
	return s
}

// sparkSubmission stages the application's files and describes its AM.
func (t *tool) sparkSubmission(ctx context.Context, c *cluster, fsys hadoop.FileSystem, s *sparkSubmit, appID yarn.ApplicationID) (yarn.ApplicationSubmissionContext, error) {
	var sc yarn.ApplicationSubmissionContext
	staging := t.qualify(c, sparkStagingDir+"/"+appID.String())
	res := yarn.EntryMap[yarn.LocalResource]{}
	add := func(p string, typ yarn.LocalResourceType) (string, error) {
		src, link, _ := strings.Cut(p, "#")
		if link == "" {
			link = path.Base(src)
		}
		uri, err := t.stageSparkFile(ctx, c, fsys, src, staging)
		if err != nil {
			return "", err
		}
		fi, err := fsys.Stat(ctx, uri)
		if err != nil {
			return "", fileNotFound(uri, err)
		}
		res[link] = yarn.LocalResource{Resource: uri, Type: typ, Visibility: yarn.VisibilityApplication,
			Size: fi.Size, Timestamp: fi.ModTime.UnixMilli()}
		return link, nil
	}
	primary, err := add(s.primary, yarn.ResourceFile)
	if err != nil {
		return sc, err
	}
	class, err := t.remoteMainClass(ctx, fsys, s, res[primary].Resource)
	if err != nil {
		return sc, err
	}
	app := &sparkApp{Primary: primary, Class: class, Args: s.args}
	for _, f := range s.files {
		if _, err := add(f, yarn.ResourceFile); err != nil {
			return sc, err
		}
	}
	for _, f := range s.pyFiles {
		link, err := add(f, yarn.ResourceFile)
		if err != nil {
			return sc, err
		}
		app.PyFiles = append(app.PyFiles, link)
	}
	for _, a := range s.archives {
		if _, err := add(a, yarn.ResourceArchive); err != nil {
			return sc, err
		}
	}
	b, err := json.Marshal(app)
	if err != nil {
		return sc, err
	}
	appURI := staging + "/" + sparkAppFile
	if err := fsys.WriteFile(ctx, appURI, b, 0o644); err != nil {
		return sc, fmt.Errorf("staging %s: %w", sparkAppFile, err)
	}
	if _, err := add(appURI, yarn.ResourceFile); err != nil {
		return sc, err
	}
	creds, err := t.jobCredentials()
	if err != nil {
		return sc, fmt.Errorf("reading the container's tokens: %w", err)
	}
	attempts, _ := strconv.Atoi(s.conf["spark.yarn.maxAppAttempts"])
	return yarn.ApplicationSubmissionContext{
		ApplicationID:   appID,
		ApplicationName: s.name,
		Queue:           orDefault(s.conf["spark.yarn.queue"], "default"),
		AMContainerSpec: yarn.ContainerLaunchContext{
			LocalResources: res,
			Commands:       yarn.Commands{"spark-submit " + sparkAMFlag + " " + sparkAppFile + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"},
			Credentials:    creds,
		},
		CancelTokensWhenComplete: noCancel(creds),
		MaxAppAttempts:           max(attempts, 1),
		Resource:                 &yarn.Resource{MemoryMB: defaultSparkAMMemoryMB, VCores: 1},
		ApplicationType:          ApplicationTypeSpark,
		ApplicationTags:          splitComma(s.conf["spark.yarn.tags"]),
	}, nil
}

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

// stageSparkFile returns the cluster URI of an application file: a local
// one uploaded into the staging directory (a missing one refused, as
// Client.distribute refuses it), a cluster one as it is.
func (t *tool) stageSparkFile(ctx context.Context, c *cluster, fsys hadoop.FileSystem, p, staging string) (string, error) {
	local, ok := localFile(p)
	if !ok {
		return t.qualify(c, p), nil
	}
	b, err := os.ReadFile(t.localPath(local))
	if err != nil {
		return "", fmt.Errorf("java.io.FileNotFoundException: File %s does not exist", p)
	}
	uri := staging + "/" + path.Base(local)
	if err := fsys.MkdirAll(ctx, staging, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", staging, err)
	}
	if err := fsys.WriteFile(ctx, uri, b, 0o644); err != nil {
		return "", fmt.Errorf("uploading %s: %w", p, err)
	}
	return uri, nil
}

// remoteMainClass is mainClass for an application staged at uri: a jar
// without --class is read for its manifest's Main-Class.
func (t *tool) remoteMainClass(ctx context.Context, fsys hadoop.FileSystem, s *sparkSubmit, uri string) (string, error) {
	if s.class != "" || s.isPython() {
		return s.class, nil
	}
	b, err := fsys.ReadFile(ctx, uri)
	if err != nil {
		return "", fileNotFound(uri, err)
	}
	f, err := os.CreateTemp(t.env.Dir, "spark-jar-*.jar")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return mainClass(s, f.Name())
}
