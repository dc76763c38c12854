package conf

import (
	"flag"
	"maps"
)

// Flags binds the server configuration to command-line flags. Create it with RegisterFlags
// before parsing; after parsing, Sources returns what Load needs.
type Flags struct {
	// ConfigDir is the value of -config-dir when it was given, else "" (DefaultConfigDir).
	ConfigDir string
	set       map[string]string
}

// RegisterFlags defines -config-dir and one flag per setting on fs, named by FlagName
// (gozie.http.address → -http.address). Only flags given on the command line override the
// other layers, so a flag's documented default is the table's default.
func RegisterFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{set: map[string]string{}}
	fs.Func("config-dir", "directory holding "+SiteFile+" (default "+DefaultConfigDir+")", func(v string) error {
		f.ConfigDir = v
		return nil
	})
	for _, st := range settings {
		key := st.Key
		usage := st.Doc + " (default " + quoteDefault(st.Default) + ")"
		fs.Func(FlagName(key), usage, func(v string) error {
			f.set[key] = v
			return nil
		})
	}
	return f
}

// Values returns the explicitly set flags by configuration key.
func (f *Flags) Values() map[string]string { return maps.Clone(f.set) }

// Sources returns Load's sources for the parsed flags and the process environment.
func (f *Flags) Sources() Sources {
	return Sources{ConfigDir: f.ConfigDir, Flags: f.Values()}
}

// quoteDefault shows an empty default visibly in usage text.
func quoteDefault(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
