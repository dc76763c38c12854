package nmlogs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gozie/gozie/yarn"
)

// metaFile keeps, beside an application's aggregated logs, what the
// aggregated log file records besides the logs: the owner, the node and
// the application's VIEW_APP ACL.
const metaFile = ".meta.json"

// Store is a directory of aggregated container logs, laid out as
// yarn.nodemanager.remote-app-log-dir is:
// <Root>/<user>/logs/<application>/<container>/<file>.
type Store struct {
	// Root is the store's directory.
	Root string
}

// Aggregated is what the store knows of one container's logs.
type Aggregated struct {
	// Owner is the application's user.
	Owner string `json:"owner"`
	// Node is the NodeManager that ran the container (its nodeId).
	Node string `json:"node"`
	// ViewACL is the application's VIEW_APP ACL ("" when none was given).
	ViewACL string `json:"viewAcl"`
	// Dir holds the container's log files.
	Dir string `json:"-"`
}

// Add aggregates the logs of one application: each container's local log
// directory (container id → directory) is copied into the store.
func (s *Store) Add(app yarn.ApplicationID, meta Aggregated, containers map[string]string) error {
	appDir := filepath.Join(s.Root, meta.Owner, "logs", app.String())
	if err := os.MkdirAll(appDir, 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(appDir, metaFile), b, 0o644); err != nil {
		return err
	}
	for cid, src := range containers {
		if err := copyDir(src, filepath.Join(appDir, cid)); err != nil {
			return fmt.Errorf("aggregating the logs of %s: %w", cid, err)
		}
	}
	return nil
}

// ContainerDir returns the directory a container's logs go to once
// aggregated.
func (s *Store) ContainerDir(app yarn.ApplicationID, owner, container string) string {
	return filepath.Join(s.Root, owner, "logs", app.String(), container)
}

// Find finds the aggregated logs of a container; an error wrapping
// fs.ErrNotExist means none were aggregated.
func (s *Store) Find(containerID string) (Aggregated, error) {
	cid, err := yarn.ParseContainerID(containerID)
	if err != nil {
		return Aggregated{}, fmt.Errorf("container %q: %w", containerID, fs.ErrNotExist)
	}
	app := cid.Attempt.App.String()
	matches, err := filepath.Glob(filepath.Join(s.Root, "*", "logs", app))
	if err != nil || len(matches) == 0 {
		return Aggregated{}, fmt.Errorf("no aggregated logs of %s: %w", app, fs.ErrNotExist)
	}
	var a Aggregated
	b, err := os.ReadFile(filepath.Join(matches[0], metaFile))
	if err != nil {
		return Aggregated{}, fmt.Errorf("no aggregated logs of %s: %w", app, fs.ErrNotExist)
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return Aggregated{}, fmt.Errorf("reading the aggregated logs of %s: %w", app, err)
	}
	a.Dir = filepath.Join(matches[0], cid.String())
	if _, err := os.Stat(a.Dir); err != nil {
		return Aggregated{}, fmt.Errorf("no aggregated logs of %s: %w", cid, fs.ErrNotExist)
	}
	return a, nil
}

// copyDir copies the regular files of src into a new directory dst.
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dst, 0o755)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return out.Close()
}
