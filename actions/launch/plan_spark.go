package launch

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// Spark names of Oozie's mapping (SparkArgsExtractor, SparkMain).
const (
	sparkYarnTags       = "spark.yarn.tags"
	sparkWaitCompletion = "spark.yarn.submit.waitAppCompletion"
	sparkExecutorCP     = "spark.executor.extraClassPath="
	sparkDriverCP       = "spark.driver.extraClassPath="
	// sparkCPDir is the container's working directory on the class paths,
	// where YARN localizes the --files.
	sparkCPDir = "$PWD/*"
	// ApplicationTypeSpark is the YARN application type of a Spark
	// application, which a spark run follows once spark-submit started it.
	ApplicationTypeSpark = "SPARK"
)

// sparkSecurityConfs are the token providers Oozie turns off unless the
// action's spark-opts name them: the launcher's container already holds
// the user's delegation tokens, which spark-submit passes on.
var sparkSecurityConfs = []string{
	"spark.yarn.security.tokens.hadoopfs.enabled",
	"spark.yarn.security.tokens.hive.enabled",
	"spark.yarn.security.tokens.hbase.enabled",
	"spark.yarn.security.credentials.hadoopfs.enabled",
	"spark.yarn.security.credentials.hive.enabled",
	"spark.yarn.security.credentials.hbase.enabled",
}

// oozieSparkConf matches the action configuration's properties Oozie hands
// to Spark as spark.<name> (appendOoziePropertiesToSparkConf:
// ^oozie\.(?!launcher|spark).+, written without the lookahead).
var oozieSparkConf = regexp.MustCompile(`^oozie\.(.+)$`)

// sparkPlan is a spark run's spark-submit arguments before the cache files
// are known: head (options up to the token settings), whether the master
// is YARN (then --files and --archives follow), the files and archives the
// spark-opts named, the application and its arguments.
type sparkPlan struct {
	head         []string
	yarn         bool
	userFiles    []string
	userArchives []string
	// execCP and driverCP are the class path entries the spark-opts gave.
	execCP, driverCP []string
	jar              string
	args             []string
}

// planSpark works out a spark action's spark-submit arguments as Oozie's
// SparkArgsExtractor does: --master, --deploy-mode (when <mode> is given),
// --name, --class, the action configuration's oozie.* properties as
// spark.oozie.*, the spark-opts (split as Oozie's SparkOptionsSplitter
// splits them; on YARN their class paths merged into one
// spark.executor.extraClassPath and spark.driver.extraClassPath with the
// working directory, their --files and --archives merged into the cache's),
// spark.yarn.tags (the child tag and ChildCommonTag, so that Kill and
// CheckAll find the application), and the token providers turned off
// unless named. gozie adds spark.yarn.submit.waitAppCompletion=false in
// cluster mode (unless the spark-opts set it), so that the launcher ends
// once the application is submitted and the server follows it, as it
// follows a map-reduce job. What Oozie adds for its own sharelib
// (spark-log4j.properties, hive-site.xml, spark.yarn.jars, a
// spark-defaults.conf beside the launcher) has no counterpart: gozie runs
// the cluster's installed spark-submit, which has its own.
func planSpark(p *plan, props map[string]string) error {
	s := p.spark
	master, mode := strings.TrimSpace(s.Master), strings.TrimSpace(s.Mode)
	if master == "" {
		return actions.Errorf(actions.ActionError, codeBadXML, "spark action: <master> is empty")
	}
	yarnCluster := master == "yarn-cluster" || master == "yarn" && mode == "cluster"
	yarnClient := master == "yarn-client" || master == "yarn" && mode == "client"
	sp := &sparkPlan{yarn: yarnCluster || yarnClient, jar: strings.TrimSpace(s.Jar), args: s.Args}
	setSparkConf(props, s)
	head := []string{"--master", master}
	if mode != "" {
		head = append(head, "--deploy-mode", mode)
	}
	head = append(head, "--name", strings.TrimSpace(s.Name))
	if class := strings.TrimSpace(s.Class); class != "" {
		head = append(head, "--class", class)
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		m := oozieSparkConf.FindStringSubmatch(k)
		if m == nil || strings.HasPrefix(m[1], "launcher") || strings.HasPrefix(m[1], "spark") {
			continue
		}
		head = append(head, "--conf", "spark."+k+"="+props[k])
	}
	opts, named := sp.sparkOpts(SplitSparkOpts(strings.TrimSpace(s.SparkOpts)))
	head = append(head, opts...)
	if sp.yarn {
		exec, driver := sp.classPaths()
		head = append(head, "--conf", sparkExecutorCP+exec, "--conf", sparkDriverCP+driver)
	}
	head = append(head, "--conf", sparkYarnTags+"="+p.spec.ChildTag+","+ChildCommonTag)
	if yarnCluster && !named[sparkWaitCompletion] {
		head = append(head, "--conf", sparkWaitCompletion+"=false")
	}
	for _, c := range sparkSecurityConfs {
		if !named[c] {
			head = append(head, "--conf", c+"=false")
		}
	}
	sp.head = head
	p.sparkPlan = sp
	p.spec.Spark = &launcher.SparkSpec{Args: sp.finish(nil, nil, p.root)}
	return nil
}

// setSparkConf puts the action's elements into its configuration under
// Oozie's names (SparkActionExecutor.setupActionConf: oozie.spark.master,
// .mode, .name, .class, .jar, .spark-opts), which the launcher writes into
// the action configuration file; the --conf mapping leaves them out.
func setSparkConf(props map[string]string, s *workflow.Spark) {
	for k, v := range map[string]string{
		"master": s.Master, "mode": s.Mode, "name": s.Name, "class": s.Class, "jar": s.Jar, "spark-opts": s.SparkOpts,
	} {
		if v = strings.TrimSpace(v); v != "" {
			props["oozie.spark."+k] = v
		}
	}
}

// sparkOpts filters the split spark-opts as SparkArgsExtractor does: on
// YARN the class path settings are taken out (classPaths merges them), and
// --files and --archives always are (finish merges them with the cache's);
// a --conf left without its value goes too. named lists the property names
// the options set, so that defaults do not override them.
func (sp *sparkPlan) sparkOpts(opts []string) (out []string, named map[string]bool) {
	named = map[string]bool{}
	sp.userFiles, sp.userArchives = nil, nil
	sp.execCP, sp.driverCP = nil, nil
	for i := 0; i < len(opts); i++ {
		opt := opts[i]
		keep := true
		if sp.yarn {
			switch {
			case strings.HasPrefix(opt, sparkExecutorCP):
				sp.execCP, keep = append(sp.execCP, opt[len(sparkExecutorCP):]), false
			case strings.HasPrefix(opt, sparkDriverCP):
				sp.driverCP, keep = append(sp.driverCP, opt[len(sparkDriverCP):]), false
			case opt == "--driver-class-path" && i+1 < len(opts):
				sp.driverCP, keep = append(sp.driverCP, opts[i+1]), false
				i++
			}
		}
		if k, _, ok := strings.Cut(opt, "="); ok {
			named[k] = true
		}
		for _, list := range []struct {
			flag string
			to   *[]string
		}{{"--files", &sp.userFiles}, {"--archives", &sp.userArchives}} {
			if !strings.HasPrefix(opt, list.flag) {
				continue
			}
			if _, v, ok := strings.Cut(opt, "="); ok {
				*list.to = append(*list.to, v)
			} else if i+1 < len(opts) {
				*list.to = append(*list.to, opts[i+1])
				i++
			}
			keep = false
		}
		switch {
		case keep:
			out = append(out, opt)
		case len(out) > 0 && out[len(out)-1] == "--conf":
			out = out[:len(out)-1]
		}
	}
	return out, named
}

// classPaths are the executor's and the driver's class paths on YARN: the
// spark-opts' own, then the working directory.
func (sp *sparkPlan) classPaths() (executor, driver string) {
	execCP := append(slices.Clone(sp.execCP), sparkCPDir)
	driverCP := append(slices.Clone(sp.driverCP), sparkCPDir)
	return strings.Join(execCP, ":"), strings.Join(driverCP, ":")
}

// finish completes the arguments once the run's cache is known (files and
// archives: full URIs with "#link" when the link is not the file's name):
// on YARN, --files and --archives list the cache's entries and the
// spark-opts' by name (a later one of the same name replacing an earlier
// one, in first-seen order), with the application's own file taken out of
// --files and named by its cache URI instead (Oozie's JarFilter); then
// --verbose unless the spark-opts have it, the application and its
// arguments. On YARN, root qualifies an absolute application path; with a
// local master the path stays as written (a file of the launcher's node).
func (sp *sparkPlan) finish(files, archives []string, root string) []string {
	args := slices.Clone(sp.head)
	jar := sp.jar
	if sp.yarn {
		if strings.HasPrefix(jar, "/") {
			jar = root + jar
		}
		cache := byName(append(slices.Clone(files), sp.userFiles...))
		jar, cache = takeJar(jar, cache)
		if len(cache) > 0 {
			args = append(args, "--files", strings.Join(cache, ","))
		}
		if arch := byName(append(slices.Clone(archives), sp.userArchives...)); len(arch) > 0 {
			args = append(args, "--archives", strings.Join(arch, ","))
		}
	}
	if !slices.Contains(args, "--verbose") {
		args = append(args, "--verbose")
	}
	args = append(args, jar)
	return append(args, sp.args...)
}

// byName keeps one entry per file name (the last given), in the order the
// names were first seen, as Oozie's LinkedHashMap of cache URIs does.
func byName(uris []string) []string {
	var order []string
	last := map[string]string{}
	for _, u := range uris {
		for _, one := range strings.Split(u, ",") {
			if one = strings.TrimSpace(one); one == "" {
				continue
			}
			src, _, _ := strings.Cut(one, "#")
			name := path.Base(src)
			if _, seen := last[name]; !seen {
				order = append(order, name)
			}
			last[name] = one
		}
	}
	out := make([]string, 0, len(order))
	for _, n := range order {
		out = append(out, last[n])
	}
	return out
}

// takeJar finds the application among the cache files as Oozie's JarFilter
// does (same name, same URI, or the link it is localized as): the
// application is then that entry (its link name when it has one, else its
// URI), which leaves the list, so that it is not shipped twice.
func takeJar(jar string, cache []string) (string, []string) {
	out := cache[:0:0]
	base := path.Base(jar)
	for _, c := range cache {
		src, link, _ := strings.Cut(c, "#")
		name := path.Base(src)
		if name == jar || src == jar || base == name || (link != "" && link == jar) {
			if link != "" {
				jar = link
			} else {
				jar = src
			}
			continue
		}
		out = append(out, c)
	}
	return jar, out
}

// sparkResources completes a spark run's arguments with its cache (the
// local resources staged for the launcher, link names in order): files and
// archives by URI, with "#link" when the link is not the file's name.
func (p *plan) sparkResources(res yarn.EntryMap[yarn.LocalResource], links []string) {
	if p.sparkPlan == nil {
		return
	}
	var files, archives []string
	for _, link := range links {
		lr, ok := res[link]
		if !ok {
			continue
		}
		uri := lr.Resource
		if path.Base(uri) != link {
			uri += "#" + link
		}
		if lr.Type == yarn.ResourceArchive {
			archives = append(archives, uri)
		} else {
			files = append(files, uri)
		}
	}
	p.spec.Spark.Args = p.sparkPlan.finish(files, archives, p.root)
}

// sparkOptionKey matches an option's key in spark-opts (Oozie's
// SparkOptionsSplitter.OPTION_KEY_PREFIX).
var sparkOptionKey = regexp.MustCompile(`\s*--[a-zA-Z0-9.]+[\-a-zA-Z0-9.]*[=]?`)

// Quoted values (SparkOptionsSplitter): quotes around a whole value are
// dropped, quotes inside one are kept.
var (
	quotedAtEnds     = regexp.MustCompile(`^[a-zA-Z0-9.]+=".+"$`)
	quotedInsideOnes = regexp.MustCompile(`^[a-zA-Z0-9.]+=.*(\w\s+"\w+[\s+\w]*"|"\w+[\s+\w]*"\s+\w)+.*$`)
)

// SplitSparkOpts splits a spark action's <spark-opts> as Oozie's
// SparkOptionsSplitter does: an option starts at "--name" (a trailing "="
// dropped); the text up to the next option is its value, blanks included,
// with quotes around the whole value removed when there are none inside.
func SplitSparkOpts(opts string) []string {
	var out []string
	start := 0
	for _, m := range sparkOptionKey.FindAllStringIndex(opts, -1) {
		if start > 0 {
			if v := strings.TrimSpace(opts[start:m[0]]); v != "" {
				out = append(out, unquoteSparkValue(v))
			}
		}
		key := strings.TrimSpace(opts[m[0]:m[1]])
		if strings.HasSuffix(key, "=") {
			key = strings.ReplaceAll(key, "=", "")
		}
		out = append(out, key)
		start = m[1]
	}
	if v := strings.TrimSpace(opts[start:]); v != "" {
		out = append(out, unquoteSparkValue(v))
	}
	return out
}

func unquoteSparkValue(v string) string {
	if quotedAtEnds.MatchString(v) && !quotedInsideOnes.MatchString(v) {
		return strings.ReplaceAll(v, `"`, "")
	}
	return v
}

// childKind names the kind of application a run follows in messages: a
// Spark application, or (any other type) a MapReduce job.
func childKind(rep yarn.AppReport) string {
	if strings.EqualFold(rep.ApplicationType, ApplicationTypeSpark) {
		return "Spark application"
	}
	return "MapReduce job"
}
