package ssh

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/gozie/gozie/workflow"
)

// RootDir is the directory below the remote user's home that holds the
// runs' directories.
const RootDir = "gozie-ssh"

// Dir returns the directory of a run on the remote host, relative to the
// remote user's home: gozie-ssh/<job id>/<node>--ssh/<run>.<attempt>, key
// being the run's key (<action id>#<run>.<attempt>). Characters other
// than letters, digits, '.', '_' and '-' become '_', and a name that
// changed so gets a hash of the key, so two runs never share a directory.
func Dir(jobID, node, key string) string {
	_, attempt, _ := strings.Cut(key, "#")
	if attempt == "" {
		attempt = "0"
	}
	parts := []string{safeName(jobID), safeName(node) + "--ssh", safeName(attempt)}
	if parts[0] != jobID || parts[1] != node+"--ssh" || parts[2] != attempt {
		sum := sha256.Sum256([]byte(key))
		parts[2] += "-" + hex.EncodeToString(sum[:4])
	}
	return RootDir + "/" + strings.Join(parts, "/")
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// shq quotes s for the POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// dirVar sets $d to the run's absolute directory.
func dirVar(dir string) string { return `d="$HOME"/` + shq(dir) + "\n" }

// Answers of the start script (first word of its first line).
const (
	answerStarted = "started" // this call started the wrapper
	answerRunning = "running" // an earlier call did
	answerNoPID   = "nopid"   // an earlier call made the directory but recorded no pid
)

// Exit statuses of the start script when it cannot set the run up.
const (
	setupMkdir   = 90
	setupWrapper = 91
	setupPID     = 92
)

// startScript creates the run's directory (mode 0700: the output may be
// private), which only one caller can do;
// that caller writes the wrapper (read from stdin), starts it detached in
// its own session and records its pid. Every other caller waits briefly for
// the pid of the first and answers it.
func startScript(dir string) string {
	return dirVar(dir) + fmt.Sprintf(`mkdir -p "$(dirname "$d")" || exit %[1]d
if (umask 077 && mkdir "$d") 2>/dev/null; then
  cat >"$d/run.sh" || exit %[2]d
  if command -v setsid >/dev/null 2>&1; then
    setsid /bin/sh "$d/run.sh" </dev/null >/dev/null 2>&1 &
  else
    /bin/sh "$d/run.sh" </dev/null >/dev/null 2>&1 &
  fi
  echo $! >"$d/pid.tmp" && mv -f "$d/pid.tmp" "$d/pid" || exit %[3]d
  echo "%[4]s $(cat "$d/pid")"
  exit 0
fi
cat >/dev/null
i=0
while [ ! -s "$d/pid" ] && [ $i -lt 10 ]; do sleep 1; i=$((i+1)); done
if [ -s "$d/pid" ]; then echo "%[5]s $(cat "$d/pid")"; else echo %[6]s; fi
`, setupMkdir, setupWrapper, setupPID, answerStarted, answerRunning, answerNoPID)
}

// wrapper is run.sh: it runs the command line of b from the remote user's
// home with its output in the run's directory, records the exit status
// (exit.tmp renamed to exit, so a reader never sees half of it) and calls
// callbackURL (ending in "status=") with OK or ERROR when there is one.
func wrapper(b *workflow.SSH, key, callbackURL string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "#!/bin/sh\n# gozie ssh action run %s\n", strings.ReplaceAll(key, "\n", " "))
	w.WriteString(`d=$(cd "$(dirname "$0")" && pwd)` + "\n")
	w.WriteString(`cd "$HOME" 2>/dev/null || cd /` + "\n")
	w.WriteString(commandLine(b) + ` >>"$d/stdout" 2>>"$d/stderr" </dev/null` + "\n")
	w.WriteString(`rc=$?
echo "$rc" >"$d/exit.tmp" && mv -f "$d/exit.tmp" "$d/exit"
`)
	if callbackURL != "" {
		w.WriteString(`if [ "$rc" -eq 0 ]; then s=OK; else s=ERROR; fi
if command -v curl >/dev/null 2>&1; then
  curl -s -m 30 -o /dev/null ` + shq(callbackURL) + `"$s" || echo "gozie: the callback failed" >>"$d/stderr"
fi
`)
	}
	w.WriteString("exit 0\n")
	return w.String()
}

// commandLine is the wrapper's line that runs the command. As Oozie's
// ssh-base.sh and ssh-wrapper.sh do: with <args>, the command and the args
// (joined by spaces) are read by the shell once and split on spaces once
// more; with <arg>, each argument is one word (spaces escaped unless the
// argument is quoted as a whole), read by the shell once.
func commandLine(b *workflow.SSH) string {
	if len(b.Arg) > 0 {
		words := []string{b.Command}
		for _, a := range b.Arg {
			words = append(words, preserveSpaces(a))
		}
		return "set -- " + strings.Join(words, " ") + "\n" + `"$@"`
	}
	line := b.Command
	if len(b.Args) > 0 {
		line += " " + strings.Join(b.Args, " ")
	}
	return "set -- " + line + "\n" + `cmnd="$*"` + "\n" + "$cmnd"
}

// preserveSpaces escapes the spaces of a, unless a is quoted as a whole,
// so that the shell reads it as one word (Oozie's StringUtils.escapeString
// of <arg> values).
func preserveSpaces(a string) string {
	if !strings.Contains(a, " ") {
		return a
	}
	if len(a) >= 2 && (a[0] == '"' && a[len(a)-1] == '"' || a[0] == '\'' && a[len(a)-1] == '\'') {
		return a
	}
	return strings.ReplaceAll(a, " ", `\ `)
}

// Answers of the check script.
const (
	stateExit    = "exit"    // exit <status>, then stdout (capture) or the end of stderr
	stateRunning = "running" // the wrapper is alive
	stateKilled  = "killed"  // killed, no status
	stateGone    = "gone"    // the wrapper died without a status
	stateMissing = "missing" // no such run on the host
)

// checkScript reports the run: its exit status and, after the first line,
// the first maxOut+1 bytes of stdout when capture is set and it exited 0,
// else the end of stderr.
func checkScript(dir string, capture bool, maxOut int) string {
	out := `tail -c ` + strconv.Itoa(maxRemoteMessageBytes) + ` "$d/stderr" 2>/dev/null`
	if capture {
		out = `if [ "$rc" = 0 ]; then head -c ` + strconv.Itoa(maxOut+1) + ` "$d/stdout" 2>/dev/null; else ` + out + `; fi`
	}
	return dirVar(dir) + fmt.Sprintf(`report() { rc=$(cat "$d/exit"); echo "%[1]s $rc"; %[2]s; exit 0; }
[ -f "$d/exit" ] && report
if [ -s "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null; then echo %[3]s; exit 0; fi
[ -f "$d/exit" ] && report
if [ -f "$d/killed" ]; then echo %[4]s; elif [ -d "$d" ]; then echo %[5]s; else echo %[6]s; fi
`, stateExit, out, stateRunning, stateKilled, stateGone, stateMissing)
}

// killScript kills the wrapper's process group (its own session, so the
// command with it), or the wrapper alone where setsid was missing, unless
// the run has ended, and marks the run killed.
func killScript(dir string) string {
	return dirVar(dir) + `[ -f "$d/exit" ] && exit 0
[ -s "$d/pid" ] || exit 0
p=$(cat "$d/pid")
: >"$d/killed"
kill -s KILL -- "-$p" 2>/dev/null || kill -s KILL "$p" 2>/dev/null
exit 0
`
}
