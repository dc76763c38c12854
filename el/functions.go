package el

import (
	"errors"
	"strings"
	"time"

	"github.com/gozie/gozie/oozietime"
)

// Oozie's size constants (ELConstantsFunctions), usable in workflow EL as ${KB} ... ${PB}.
const (
	KB int64 = 1024
	MB       = KB * 1024
	GB       = MB * 1024
	TB       = GB * 1024
	PB       = TB * 1024
)

// Constants returns Oozie's basic constants as variables: KB, MB, GB, TB and PB (int64). They
// are the constants of workflow EL; add them to Env.Vars with MapVars. The other constant sets
// Oozie defines live in SLAConstants and DateEchoConstants.
func Constants() map[string]any {
	return map[string]any{"KB": KB, "MB": MB, "GB": GB, "TB": TB, "PB": PB}
}

// SLAConstants returns the constants of sla:info EL, in minutes: MINUTES = 1, HOURS = 60,
// DAYS = 1440 (int64), as in ${10 * MINUTES}.
func SLAConstants() map[string]any {
	return map[string]any{"MINUTES": int64(1), "HOURS": int64(60), "DAYS": int64(1440)}
}

// DateEchoConstants returns the date variables of dataset URI templates as they are bound at
// coordinator submission, where they are not known yet: each evaluates to itself (MINUTE is
// "${MINUTE}", likewise HOUR, DAY, MONTH and YEAR), so the template survives until an action
// is materialized and binds them to the instance's date.
func DateEchoConstants() map[string]any {
	return map[string]any{
		"MINUTE": "${MINUTE}", "HOUR": "${HOUR}", "DAY": "${DAY}", "MONTH": "${MONTH}", "YEAR": "${YEAR}",
	}
}

// basic is the shared registry used when Env.Funcs is nil. It is never modified.
var basic = Basic()

// Basic returns a new registry with Oozie's basic functions (the functions every EL
// evaluator of Oozie has, with no prefix):
//
//	firstNotNull(a, b)              a if it is not null, else b
//	concat(a, b)                    a + b as strings (null is "")
//	replaceAll(src, regex, repl)    Java's String.replaceAll: regex syntax, $1 and \ in repl
//	appendAll(src, append, delim)   appends append to every delim-separated piece of src
//	trim(s)                         s without leading and trailing blanks and controls
//	urlEncode(s)                    application/x-www-form-urlencoded, UTF-8
//	timestamp()                     current time in the processing zone, "2009-01-01T12:00Z"
//	toJsonStr(map)                  the map as JSON, XML-escaped
//	toPropertiesStr(map)            the map as a Java properties file, XML-escaped
//	toConfigurationStr(map)         the map as Hadoop configuration XML, XML-escaped
//
// String arguments are coerced with ToString, as Oozie's Java signatures coerce them, so a
// null argument reads as "".
func Basic() *Registry {
	r := NewRegistry()
	r.RegisterArity("firstNotNull", 2, fnFirstNotNull)
	r.RegisterArity("concat", 2, fnConcat)
	r.RegisterArity("replaceAll", 3, fnReplaceAll)
	r.RegisterArity("appendAll", 3, fnAppendAll)
	r.RegisterArity("trim", 1, fnTrim)
	r.RegisterArity("urlEncode", 1, fnURLEncode)
	r.RegisterArity("timestamp", 0, fnTimestamp)
	r.RegisterArity("toJsonStr", 1, fnToJSONStr)
	r.RegisterArity("toPropertiesStr", 1, fnToPropertiesStr)
	r.RegisterArity("toConfigurationStr", 1, fnToConfigurationStr)
	return r
}

func fnFirstNotNull(_ *Env, args []any) (any, error) {
	if args[0] != nil {
		return args[0], nil
	}
	return args[1], nil
}

// maxResultLen bounds the strings the basic functions build, so that nested calls such as
// replaceAll(replaceAll(x, "", x), "", x) cannot exhaust memory.
const maxResultLen = 64 << 20

var errResultTooLong = errors.New("result longer than 64 MiB")

func fnConcat(_ *Env, args []any) (any, error) {
	a, b := ToString(args[0]), ToString(args[1])
	if len(a)+len(b) > maxResultLen {
		return nil, errResultTooLong
	}
	return a + b, nil
}

func fnReplaceAll(_ *Env, args []any) (any, error) {
	src, expr, repl := ToString(args[0]), ToString(args[1]), ToString(args[2])
	re, err := compileRegexp(expr)
	if err != nil {
		return nil, err
	}
	return javaReplaceAll(re, src, repl, maxMatches)
}

// fnAppendAll splits src around matches of the regular expression delim (Java's
// String.split, trailing empty pieces dropped), appends append to every piece and joins them
// with delim itself. Like Oozie, when src starts with delim and the first piece is not empty,
// append is also put in front.
func fnAppendAll(_ *Env, args []any) (any, error) {
	src, app, delim := ToString(args[0]), ToString(args[1]), ToString(args[2])
	re, err := compileRegexp(delim)
	if err != nil {
		return nil, err
	}
	pieces, err := javaSplit(re, src, maxMatches)
	if err != nil {
		return nil, err
	}
	if len(src)+len(pieces)*(len(app)+len(delim)) > maxResultLen {
		return nil, errResultTooLong
	}
	var b strings.Builder
	for i, p := range pieces {
		b.WriteString(p)
		b.WriteString(app)
		if i < len(pieces)-1 {
			b.WriteString(delim)
		}
	}
	out := b.String()
	if strings.HasPrefix(src, delim) && len(pieces) > 0 && pieces[0] != "" {
		out = app + out
	}
	return out, nil
}

func fnTrim(_ *Env, args []any) (any, error) {
	return javaTrim(ToString(args[0])), nil
}

// fnURLEncode encodes like Java's URLEncoder with UTF-8: letters, digits and ".-*_" stay,
// space becomes "+", every other byte becomes %XX (upper-case hex).
func fnURLEncode(_ *Env, args []any) (any, error) {
	s := ToString(args[0])
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String(), nil
}

func fnTimestamp(env *Env, _ []any) (any, error) {
	return formatOozieTime(env.Time(), env.Zone()), nil
}

// formatOozieTime formats t as Oozie formats datetimes in processing time zone loc: minute
// precision with a literal "Z" in UTC ("2009-09-08T23:59Z"), or the zone's offset otherwise
// ("2009-09-09T05:29+0530").
func formatOozieTime(t time.Time, loc *time.Location) string {
	if loc == nil || loc == time.UTC || loc.String() == "UTC" {
		return t.In(time.UTC).Format(oozietime.Layout)
	}
	return t.In(loc).Format(oozietime.OffsetLayout)
}

func fnToJSONStr(_ *Env, args []any) (any, error) {
	s, err := jsonString(args[0])
	if err != nil {
		return nil, err
	}
	return escapeXMLChars(s), nil
}

func fnToPropertiesStr(env *Env, args []any) (any, error) {
	s, err := propertiesString(args[0], env.Time().In(env.Zone()))
	if err != nil {
		return nil, err
	}
	return escapeXMLChars(s), nil
}

func fnToConfigurationStr(_ *Env, args []any) (any, error) {
	s, err := configurationString(args[0])
	if err != nil {
		return nil, err
	}
	return escapeXMLChars(s), nil
}
