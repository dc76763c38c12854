package hive2

import (
	"strings"
)

// SplitStatements splits a HiveQL script into statements the way Beeline
// does: at semicolons outside quotes and backquotes, dropping "--"
// comments (outside quotes) and empty statements. A backslash inside a
// quoted string escapes the next character.
func SplitStatements(script string) []string {
	var out []string
	var cur strings.Builder
	var quote byte // the open quote: ' " or `; 0 outside
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case quote != 0:
			cur.WriteByte(c)
			if c == '\\' && quote != '`' && i+1 < len(script) {
				i++
				cur.WriteByte(script[i])
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
			cur.WriteByte(c)
		case c == '-' && i+1 < len(script) && script[i+1] == '-':
			for i < len(script) && script[i] != '\n' {
				i++
			}
			cur.WriteByte('\n')
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// maxSubstituteDepth is hive.variable.substitute.depth's default: how many
// rounds of substitution run, so that values may refer to variables.
const maxSubstituteDepth = 40

// Substitute replaces ${hivevar:name}, ${hiveconf:name} and ${name} (a
// variable, else a configuration value) as Hive does, up to 40 rounds
// deep. References it cannot resolve, and ${system:...} and ${env:...}
// (which would read the gozie server's environment), stay as written.
func Substitute(stmt string, vars, conf map[string]string) string {
	for range maxSubstituteDepth {
		next := substituteOnce(stmt, vars, conf)
		if next == stmt {
			break
		}
		stmt = next
	}
	return stmt
}

func substituteOnce(s string, vars, conf map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+2 : i+2+j]
		b.WriteString(s[:i])
		if v, ok := lookupVar(name, vars, conf); ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i : i+3+j])
		}
		s = s[i+3+j:]
	}
}

func lookupVar(name string, vars, conf map[string]string) (string, bool) {
	if k, ok := strings.CutPrefix(name, "hivevar:"); ok {
		v, ok := vars[k]
		return v, ok
	}
	if k, ok := strings.CutPrefix(name, "hiveconf:"); ok {
		v, ok := conf[k]
		return v, ok
	}
	if strings.HasPrefix(name, "system:") || strings.HasPrefix(name, "env:") {
		return "", false
	}
	if v, ok := vars[name]; ok {
		return v, true
	}
	v, ok := conf[name]
	return v, ok
}

// leadingWords returns the first n words of a statement in upper case.
func leadingWords(stmt string, n int) []string {
	words := strings.Fields(strings.ToUpper(stmt))
	if len(words) > n {
		words = words[:n]
	}
	return words
}

// sessionScoped reports statements whose effect lives in the session, not
// in the warehouse: they must be replayed on a new session when a run
// resumes (SET, USE, ADD JAR/FILE/ARCHIVE, RESET, temporary functions and
// macros).
func sessionScoped(stmt string) bool {
	w := leadingWords(stmt, 3)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "SET", "USE", "ADD", "RESET":
		return true
	case "CREATE":
		return len(w) >= 3 && w[1] == "TEMPORARY" && (w[2] == "FUNCTION" || w[2] == "MACRO")
	}
	return false
}

// rerunnable reports statements that are safe to submit again when it is
// unknown whether an earlier submission took effect: reads, session
// statements, INSERT OVERWRITE and LOAD ... OVERWRITE (they replace what
// they write), TRUNCATE, MSCK, ANALYZE, and DDL guarded by IF [NOT] EXISTS.
// INSERT INTO, LOAD without OVERWRITE, and unguarded DDL are not: running
// them twice adds rows twice or fails.
func rerunnable(stmt string) bool {
	if sessionScoped(stmt) {
		return true
	}
	w := leadingWords(stmt, 8)
	if len(w) == 0 {
		return true
	}
	upper := " " + strings.Join(strings.Fields(strings.ToUpper(stmt)), " ") + " "
	switch w[0] {
	case "SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "MSCK", "ANALYZE", "TRUNCATE":
		return true
	case "WITH", "FROM": // a CTE or multi-insert: as safe as its inserts
		return !strings.Contains(upper, " INSERT INTO ")
	case "INSERT":
		return len(w) >= 2 && w[1] == "OVERWRITE"
	case "LOAD":
		return strings.Contains(upper, " OVERWRITE INTO ")
	case "CREATE", "DROP", "ALTER":
		return strings.Contains(upper, " IF NOT EXISTS ") || strings.Contains(upper, " IF EXISTS ")
	}
	return false
}
