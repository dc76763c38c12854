package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/gozie/gozie/conf"
)

// defines collects repeated -D name=value flags, in order; a later definition of a name
// wins. "-D name" alone sets name to "true", as Oozie's option parser does.
type defines struct {
	props conf.Properties
}

// String lists the definitions.
func (d *defines) String() string {
	var parts []string
	for k, v := range d.props.All() {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

// Set adds one definition.
func (d *defines) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		value = "true"
	}
	if name == "" {
		return fmt.Errorf("-D %q: want name=value", s)
	}
	d.props.Set(name, value)
	return nil
}

// splitDefines rewrites "-Dname=value" (Java's form) into "-D" "name=value" for the flag
// package, up to a "--".
func splitDefines(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-D") && len(a) > 2 && a[2] != '=' {
			out = append(out, "-D", a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// errNoConfiguration is Oozie's complaint when neither -config nor -D gives a
// configuration.
var errNoConfiguration = errors.New("configuration is not specified")

// configured reports whether a configuration was given: a -config file or any -D.
// Oozie's CLI counts a -config file only if it exists, so that a misspelt file name
// reads "configuration is not specified" (or, for -rerun, reruns with no configuration);
// gozie counts the option, and jobConfiguration says the file was not found, naming it.
func configured(file string, defs *defines) bool {
	return file != "" || defs.props.Len() > 0
}

// jobConfiguration builds a job configuration the way Oozie's CLI does: user.name is the
// user running the command, then the -config file (.properties or .xml) is read over it,
// then the -D definitions win over both.
func jobConfiguration(env Env, file string, defs *defines) (*conf.Properties, error) {
	if !configured(file, defs) {
		return nil, errNoConfiguration
	}
	user, err := env.user()
	if err != nil {
		return nil, err
	}
	props := conf.NewProperties("user.name", user)
	if file != "" {
		data, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("configuration file [%s] not found", file)
		}
		if err != nil {
			return nil, fmt.Errorf("reading configuration file [%s]: %w", file, err)
		}
		var fileProps *conf.Properties
		switch {
		case strings.HasSuffix(file, ".properties"):
			fileProps, err = conf.ReadProperties(bytes.NewReader(data), file)
		case strings.HasSuffix(file, ".xml"):
			fileProps, err = conf.ReadConfigurationXML(bytes.NewReader(data), file)
		default:
			return nil, errors.New("configuration must be a '.properties' or a '.xml' file")
		}
		if err != nil {
			return nil, fmt.Errorf("reading configuration file: %w", err)
		}
		props.Merge(fileProps)
	}
	props.Merge(&defs.props)
	return props, nil
}
