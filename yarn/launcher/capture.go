package launcher

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Local files through which the command hands data back, in the container's
// working directory; their absolute paths are given to the command in the
// system properties (java) and environment variables of the same name.
const (
	outputFile     = "output.properties"
	childIDsFile   = "externalChildIDs"
	actionConfFile = "action.xml"
)

// Names under which the command learns where those files are (Oozie's
// LauncherAM contract), plus the environment variable shell actions get.
const (
	propOutput     = "oozie.action.output.properties"
	propChildIDs   = "oozie.action.externalChildIDs"
	propConfXML    = "oozie.action.conf.xml"
	propLaunchTime = "oozie.job.launch.time"
	envConfXML     = "OOZIE_ACTION_CONF_XML"
	envChildTag    = "GOZIE_CHILD_TAG"
	// Shells cannot read variables with dots in their names, so the files
	// also have names a script can use.
	envOutput   = "GOZIE_OUTPUT_PROPERTIES"
	envChildIDs = "GOZIE_EXTERNAL_CHILD_IDS"
)

// outputLimitError is the failure of a capture-output over its limit, with
// Oozie's message.
type outputLimitError struct{ max int }

func (e *outputLimitError) Error() string {
	return fmt.Sprintf("%s data exceeds its limit [%d]", outputFile, e.max)
}

// readOutput returns the captured output file's text. A missing file is no
// output (a java main class that wrote nothing); a file over max bytes fails
// with Oozie's message ("output.properties data exceeds its limit [2048]").
func readOutput(path string, max int) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading captured output: %w", err)
	}
	defer f.Close()
	// Read one byte past the limit to tell "at the limit" from "over it"
	// without trusting the size of a file the command may still hold open.
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return "", fmt.Errorf("reading captured output: %w", err)
	}
	if len(b) > max {
		return "", &outputLimitError{max: max}
	}
	return string(b), nil
}

// maxChildIDsBytes bounds the child id file; ids are short and few.
const maxChildIDsBytes = 64 << 10

// readChildIDs returns the application ids the command listed (comma or
// line separated) in its child id file; a missing file lists none.
func readChildIDs(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading child ids: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxChildIDsBytes))
	if err != nil {
		return nil, fmt.Errorf("reading child ids: %w", err)
	}
	var ids []string
	for _, id := range strings.FieldsFunc(string(b), func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
