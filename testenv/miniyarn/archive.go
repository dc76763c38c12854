package miniyarn

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// unpackArchive unpacks file into dir by the file's suffix (.jar and .zip as
// zip; .tar; .tar.gz and .tgz as gzip-compressed tar), as the NodeManager's
// FSDownload does. It reports false, doing nothing, for any other suffix.
func unpackArchive(file, dir string) (bool, error) {
	lower := strings.ToLower(file)
	var err error
	switch {
	case strings.HasSuffix(lower, ".jar"), strings.HasSuffix(lower, ".zip"):
		err = unzip(file, dir)
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		err = untar(file, dir, true)
	case strings.HasSuffix(lower, ".tar"):
		err = untar(file, dir, false)
	default:
		return false, nil
	}
	return true, err
}

var errArchiveEscape = errors.New("archive entry escapes the target directory")

// safeJoin joins an archive entry name to dir, refusing names that leave it.
func safeJoin(dir, name string) (string, error) {
	clean := filepath.Clean("/" + filepath.FromSlash(name))
	p := filepath.Join(dir, clean)
	if p != dir && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %q", errArchiveEscape, name)
	}
	return p, nil
}

func unzip(file, dir string) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return fmt.Errorf("opening zip %s: %w", file, err)
	}
	defer zr.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range zr.File {
		p, err := safeJoin(dir, f.Name)
		if err != nil {
			return err
		}
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		if !f.Mode().IsRegular() {
			continue // symlinks and devices are not unpacked
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("reading %s from %s: %w", f.Name, file, err)
		}
		err = writeEntry(p, rc, f.Mode().Perm()|0o600)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func untar(file, dir string, gz bool) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("opening tar %s: %w", file, err)
	}
	defer f.Close()
	var r io.Reader = f
	if gz {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("opening gzip %s: %w", file, err)
		}
		defer zr.Close()
		r = zr
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading tar %s: %w", file, err)
		}
		p, err := safeJoin(dir, h.Name)
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := writeEntry(p, tr, os.FileMode(h.Mode).Perm()|0o600); err != nil {
				return err
			}
		default:
			// Links and special files are not unpacked.
		}
	}
}

func writeEntry(p string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return out.Close()
}
