package launcher

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// environ is a process environment being built: later sets win.
type environ map[string]string

func newEnviron(kvs []string) environ {
	e := environ{}
	for _, kv := range kvs {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e[k] = v
		}
	}
	return e
}

// slice returns the environment as KEY=VALUE entries in key order.
func (e environ) slice() []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + e[k]
	}
	return out
}

// expand replaces $NAME and ${NAME} in s with the environment's values, as
// the Unix convention of Oozie's <env-var> asks (PATH=$PATH:mypath).
func (e environ) expand(s string) string {
	return os.Expand(s, func(k string) string { return e[k] })
}

// files are the paths of the per-run files in the working directory.
type files struct {
	dir        string
	output     string
	childIDs   string
	actionConf string
	tokens     string // "" when the command gets no token file
}

func newFiles(dir string) files {
	return files{
		dir:        dir,
		output:     filepath.Join(dir, outputFile),
		childIDs:   filepath.Join(dir, childIDsFile),
		actionConf: filepath.Join(dir, actionConfFile),
	}
}

// baseEnv is the environment every command gets: the container's, with the
// action's token file instead of the launcher's, the spec's variables and the
// locations of the per-run files.
func baseEnv(spec *Spec, container []string, f files, launched time.Time) environ {
	env := newEnviron(container)
	delete(env, tokenFileEnv)
	if f.tokens != "" {
		env[tokenFileEnv] = f.tokens
	}
	for k, v := range spec.Env {
		env[k] = v
	}
	env[envConfXML] = f.actionConf
	env[propOutput] = f.output
	env[propChildIDs] = f.childIDs
	env[envOutput] = f.output
	env[envChildIDs] = f.childIDs
	env[propLaunchTime] = strconv.FormatInt(launched.UnixMilli(), 10)
	if spec.ChildTag != "" {
		env[envChildTag] = spec.ChildTag
	}
	return env
}

// shellCommand builds a shell action's command, as Oozie's ShellMain does:
// the exec's file name, looked up with "." first on PATH, its arguments, and
// the <env-var> entries over the container's environment. With
// capture-output, stdout also goes to the output file (the caller wires it).
func shellCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	env := baseEnv(spec, container, f, launched)
	env["PATH"] = "." + string(os.PathListSeparator) + env["PATH"]
	for _, kv := range spec.Shell.EnvVars {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = env.expand(v)
	}
	// Oozie runs the exec's last path element: the file is localized into
	// the working directory under that name.
	name := path.Base(strings.TrimSpace(spec.Shell.Exec))
	exe, err := lookPath(name, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	return command{
		path: exe,
		args: append([]string{name}, spec.Shell.Args...),
		env:  env.slice(),
		dir:  f.dir,
	}, nil
}

// javaCommand builds a java action's command: the JVM from JAVA_HOME (or
// PATH), the options, the system properties of Oozie's launcher contract, the
// class path, the main class and its arguments.
func javaCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	env := baseEnv(spec, container, f, launched)
	java := "java"
	if home := env["JAVA_HOME"]; home != "" {
		java = filepath.Join(home, "bin", "java")
	}
	exe, err := lookPath(java, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	cp := spec.Java.Classpath
	if cp == "" {
		cp = env["CLASSPATH"]
	}
	if cp == "" {
		cp = f.dir + string(os.PathListSeparator) + filepath.Join(f.dir, "*")
	}
	args := []string{java}
	args = append(args, spec.Java.Opts...)
	args = append(args,
		"-D"+propConfXML+"="+f.actionConf,
		"-D"+propOutput+"="+f.output,
		"-D"+propChildIDs+"="+f.childIDs,
		"-D"+propLaunchTime+"="+strconv.FormatInt(launched.UnixMilli(), 10),
		"-cp", cp,
		spec.Java.MainClass)
	args = append(args, spec.Java.Args...)
	return command{path: exe, args: args, env: env.slice(), dir: f.dir}, nil
}

// lookPath finds name: as given when it holds a slash, else in the PATH
// entries of the command's own environment, where "." and empty entries mean
// the working directory (exec.LookPath would search the launcher's PATH and
// refuse "." entries).
func lookPath(name, pathList, dir string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("empty command name")
	}
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := executable(p); err != nil {
			return "", fmt.Errorf("cannot run program [%s]: %w", name, err)
		}
		return p, nil
	}
	for _, d := range filepath.SplitList(pathList) {
		if d == "" || d == "." {
			d = dir
		} else if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("cannot run program [%s]: not found in the working directory or on PATH", name)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory", p)
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable", p)
	}
	return nil
}
