package launcher

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
)

// The distcp action (uri:oozie:distcp-action) and the pig action (the <pig>
// element of uri:oozie:workflow).
const (
	TypeDistcp = "distcp"
	TypePig    = "pig"
)

// Cluster tools and files of the distcp and pig actions.
const (
	hadoopTool = "hadoop"
	pigTool    = "pig"
	// pigProperties holds the action configuration for pig's
	// -propertyFile, as Oozie's PigMain writes pig.properties.
	pigProperties = "pig.properties"
	// envHadoopClientOpts is the JVM options the hadoop script gives client
	// commands such as distcp: where a distcp action's <java-opts> go.
	envHadoopClientOpts = "HADOOP_CLIENT_OPTS"
)

// DistcpSpec is what a distcp action runs: the cluster's `hadoop distcp`
// with the action configuration as its -conf (so the job carries the child
// tag in mapreduce.job.tags, the queue, and every property the action
// sets, as Oozie's DistcpMain hands DistCp the action's configuration) and
// the action's <arg> entries. The launcher waits for DistCp, which waits for
// its MapReduce job; the job's application is then the run's new id.
type DistcpSpec struct {
	// Tool is the command; empty means "hadoop".
	Tool string `json:"tool,omitempty"`
	// JavaOpts are the <java-opts>, handed to the tool's JVM as
	// HADOOP_CLIENT_OPTS.
	JavaOpts string `json:"javaOpts,omitempty"`
	// Args are the <arg> entries: options, sources and the target.
	Args []string `json:"args,omitempty"`
}

// PigSpec is what a pig action runs: the cluster's `pig` with the action
// configuration as its -propertyFile (Oozie's PigMain writes it as
// pig.properties), -file with the localized script, -param for each
// <param>, and the <argument>s. The launcher waits for Pig; the last
// MapReduce job the script ran is then the run's new id.
type PigSpec struct {
	// Tool is the command; empty means "pig".
	Tool string `json:"tool,omitempty"`
	// Script is the link name of the localized script.
	Script string `json:"script"`
	// Params are the <param> entries, NAME=VALUE each.
	Params []string `json:"params,omitempty"`
	// Args are the <argument> entries, after Oozie's checks.
	Args []string `json:"args,omitempty"`
}

// validateDistcp and validatePig are Spec.Validate for the two types.
func (s *Spec) validateDistcp() error {
	if s.Distcp == nil {
		return fmt.Errorf("%w: a distcp action needs distcp", ErrBadSpec)
	}
	return nil
}

func (s *Spec) validatePig() error {
	p := s.Pig
	if p == nil || strings.TrimSpace(p.Script) == "" {
		return fmt.Errorf("%w: a pig action needs pig.script", ErrBadSpec)
	}
	if strings.HasPrefix(p.Script, "/") || strings.Contains(p.Script, "..") {
		return fmt.Errorf("%w: pig.script %q must be a relative link name", ErrBadSpec, p.Script)
	}
	for _, kv := range p.Params {
		if _, _, ok := strings.Cut(kv, "="); !ok {
			return fmt.Errorf("%w: pig param %q is not NAME=VALUE", ErrBadSpec, kv)
		}
	}
	return nil
}

// distcpCommand builds a distcp action's command: `hadoop distcp -conf
// <action configuration> args...`, with <java-opts> in HADOOP_CLIENT_OPTS.
func distcpCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	d := spec.Distcp
	env := baseEnv(spec, container, f, launched)
	if opts := strings.TrimSpace(d.JavaOpts); opts != "" {
		env[envHadoopClientOpts] = strings.TrimSpace(env[envHadoopClientOpts] + " " + opts)
	}
	tool := d.Tool
	if tool == "" {
		tool = hadoopTool
	}
	exe, err := lookPath(tool, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	args := append([]string{tool, "distcp", "-conf", f.actionConf}, d.Args...)
	return command{path: exe, args: args, env: env.slice(), dir: f.dir}, nil
}

// pigCommand builds a pig action's command: the action configuration
// written as pig.properties, then `pig -propertyFile pig.properties -file
// <script> -param k=v... args...`.
func pigCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	p := spec.Pig
	env := baseEnv(spec, container, f, launched)
	var buf bytes.Buffer
	if err := conf.WriteProperties(&buf, conf.PropertiesFromMap(spec.Conf)); err != nil {
		return command{}, fmt.Errorf("writing %s: %w", pigProperties, err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, pigProperties), buf.Bytes(), 0o644); err != nil {
		return command{}, fmt.Errorf("writing %s: %w", pigProperties, err)
	}
	tool := p.Tool
	if tool == "" {
		tool = pigTool
	}
	exe, err := lookPath(tool, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	args := []string{tool, "-propertyFile", pigProperties, "-file", p.Script}
	for _, kv := range p.Params {
		args = append(args, "-param", kv)
	}
	args = append(args, p.Args...)
	return command{path: exe, args: args, env: env.slice(), dir: f.dir}, nil
}

// waitsForChildren reports the types whose tool runs its MapReduce jobs to
// their end: once it exits, the last job it ran becomes the run's new id.
func waitsForChildren(typ string) bool {
	return typ == TypeDistcp || typ == TypePig || typ == TypeSqoop
}

// lastChild is the last application the tool's output named, or "".
func lastChild(sc *outputScanner) string {
	apps := sc.childApps()
	if len(apps) == 0 {
		return ""
	}
	return apps[len(apps)-1]
}

// toolError is a failed distcp or pig run's message: the tool's last error
// line (DistCp's "Input source ... doesn't exist", Pig's "ERROR 1000: ..."),
// else its exit code.
func toolError(spec *Spec, sc *outputScanner, code int) string {
	if line := sc.lastError(); line != "" {
		return line
	}
	what := pigTool
	if spec.Type == TypeDistcp {
		what = hadoopTool + " distcp"
	}
	return fmt.Sprintf("Main Class [%s], exit code [%d]", what, code)
}
