package coordrun

import (
	"context"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hcat"
)

// HCatDatasets answers whether the partitions an hcat:// dataset URI names
// exist, as ctx's user (hadoop.AsUser); hcat/metastore.Datasets is the
// server's, which also wakes waiting actions (Notify) when the metastore
// logs the partition.
type HCatDatasets interface {
	Exists(ctx context.Context, uri string) (bool, error)
	// Delete drops the partitions of an hcat:// output (a rerun's
	// cleanup, Oozie's HCatURIHandler.delete).
	Delete(ctx context.Context, uri string) error
}

// hcatExists checks an hcat:// dependency. The scheme is judged by the
// server's policy first (gozie.filesystems.supported must list hcat, as
// Oozie's URIHandlerService must list HCatURIHandler; E0904 otherwise);
// without a metastore client the URI fails like a scheme gozie has no
// filesystem for, and the action waits, as it would on an unreachable
// metastore.
func (r *Runner) hcatExists(ctx context.Context, uri string) (bool, error) {
	if err := hadoop.CheckScheme(r.cfg.FS, uri); err != nil {
		return false, err
	}
	if r.cfg.HCat == nil {
		return false, &hadoop.NoFileSystemError{Scheme: hcat.Scheme, URI: uri}
	}
	return r.cfg.HCat.Exists(ctx, uri)
}

// removeOutput deletes a data-out instance before a rerun: an hcat://
// output's partitions are dropped through the metastore, anything else is
// removed from its filesystem.
func (r *Runner) removeOutput(ctx context.Context, uri string) error {
	if !hcat.IsURI(uri) {
		return r.cfg.FS.RemoveAll(ctx, uri)
	}
	if err := hadoop.CheckScheme(r.cfg.FS, uri); err != nil {
		return err
	}
	if r.cfg.HCat == nil {
		return &hadoop.NoFileSystemError{Scheme: hcat.Scheme, URI: uri}
	}
	return r.cfg.HCat.Delete(ctx, uri)
}
