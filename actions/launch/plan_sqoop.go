package launch

import (
	"strconv"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn/launcher"
)

// PropSqoopShellSplitter is Oozie's switch between its two ways of splitting
// a sqoop <command>: false (the default) splits on every space, true splits
// as a shell does, with quotes and backslashes.
const PropSqoopShellSplitter = "oozie.action.sqoop.shellsplitter"

// codeSqoopCommand is Oozie's error code for a <command> the shell splitter
// cannot parse.
const codeSqoopCommand = "SQOOP002"

// planSqoop fills a sqoop action's spec: Sqoop's arguments from <command>
// or the <arg> entries, as Oozie's SqoopActionExecutor works them out. The
// job configuration is the action configuration, whose mapreduce.job.tags
// already names the child tag, as Oozie's SqoopMain sets it (setYarnTag).
func planSqoop(p *plan, props map[string]string) error {
	args, err := sqoopArgs(p.sqoop.HasCommand, p.sqoop.Command, p.sqoop.Args, props[PropSqoopShellSplitter])
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return actions.Errorf(actions.ActionError, codeSqoopCommand, "Cannot parse sqoop command: [%s]", p.sqoop.Command)
	}
	props[propJobTags] = p.spec.ChildTag
	p.spec.Sqoop = &launcher.SqoopSpec{Args: args}
	return nil
}

// sqoopArgs are the arguments of a sqoop action: the <command> split (on
// spaces, or as a shell splits it when shellSplitter is "true"), else the
// <arg> entries as they are. A redundant leading "sqoop" ("sqoop import
// ...") is dropped, unless an option follows it ("sqoop --help"), as Oozie
// does.
func sqoopArgs(hasCommand bool, command string, args []string, shellSplitter string) ([]string, error) {
	out := args
	if hasCommand {
		command = strings.TrimSpace(command)
		if shell, _ := strconv.ParseBool(strings.TrimSpace(shellSplitter)); shell {
			var err error
			if out, err = ShellSplit(command); err != nil {
				return nil, actions.Errorf(actions.ActionError, codeSqoopCommand, "Cannot parse sqoop command: [%s]", command)
			}
		} else {
			out = SplitOnSpaces(command)
		}
	}
	if len(out) > 1 && strings.EqualFold(out[0], "sqoop") && !strings.HasPrefix(out[1], "-") {
		out = out[1:]
	}
	return out, nil
}

// SplitOnSpaces splits s on runs of the space character only, as Java's
// StringTokenizer(s, " ") does: tabs and newlines stay inside the tokens.
// It is Oozie's default splitting of a sqoop <command>.
func SplitOnSpaces(s string) []string {
	var out []string
	for _, f := range strings.Split(s, " ") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// errUnbalanced is ShellSplit's error for an open quote or a trailing
// backslash.
type errUnbalanced string

func (e errUnbalanced) Error() string { return "Unable to parse command " + string(e) }

// ShellSplit splits s into words as Oozie's ShellSplitter does (its
// oozie.action.sqoop.shellsplitter mode): whitespace separates words
// outside quotes; single quotes keep everything literally; double quotes
// keep whitespace and single quotes; a backslash outside single quotes
// takes the next character literally; a quoted empty string is a word
// when whitespace follows it, though not at the very end. An open quote or
// a trailing backslash is an error.
func ShellSplit(s string) ([]string, error) {
	var (
		words    []string
		cur      strings.Builder
		escaping bool
		quote    rune // 0 outside quotes
		keep     bool // a closed quote makes a word even when empty
	)
	emit := func() {
		words = append(words, cur.String())
		cur.Reset()
		keep = false
	}
	for _, c := range s {
		switch {
		case escaping:
			cur.WriteRune(c)
			escaping = false
		case c == '\\' && quote != '\'':
			escaping = true
		case quote != 0 && c == quote:
			quote, keep = 0, true
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote == 0 && isJavaWhitespace(c):
			if cur.Len() > 0 || keep {
				emit()
			}
		default:
			cur.WriteRune(c)
		}
	}
	if cur.Len() > 0 {
		emit()
	}
	if quote != 0 || escaping {
		return nil, errUnbalanced(s)
	}
	return words, nil
}

// isJavaWhitespace is Java's Character.isWhitespace for the characters a
// command holds: space, tab, line feed, vertical tab, form feed, carriage
// return and the file, group, record and unit separators (Unicode space
// separators other than the no-break ones count too).
func isJavaWhitespace(c rune) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	case 0x00a0, 0x2007, 0x202f:
		return false
	}
	return c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x205f || c == 0x3000
}
