package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gozie/gozie/server/client"
)

// runValidate is `gozie validate FILE`: the server checks a workflow, coordinator or bundle
// document against its schema. A local file (a path, or file://path) is sent to the server; a
// file on the cluster (hdfs://...) is read by the server. It prints the server's verdict, as
// Oozie's CLI does: "Valid workflow-app"; for a workflow with actions gozie does not run, the
// server's "Warning: ..." naming them (E0723), since a submission would be refused; or
// "Error: <message>" for an invalid document.
func runValidate(ctx context.Context, args []string, env Env) error {
	fset := newFlagSet("validate", env)
	var c common
	c.register(fset)
	files, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return &plainError{"One file must be specified"}
	}
	file := strings.TrimPrefix(files[0], "file://")
	var doc []byte
	if !strings.Contains(file, "://") {
		abs, err := filepath.Abs(file)
		if err != nil {
			return fmt.Errorf("resolving %s: %w", file, err)
		}
		file = abs
		doc, err = os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.EISDIR) {
			return &plainError{"File does not exist : " + file}
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", file, err)
		}
	}
	user, err := env.user()
	if err != nil {
		return err
	}
	cl, err := c.client(env)
	if err != nil {
		return err
	}
	msg, err := cl.Validate(ctx, file, doc, user)
	var ce *client.Error
	if errors.As(err, &ce) {
		// Oozie's CLI prints only the server's message for validate.
		return &plainError{ce.Message}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, msg)
	return nil
}
