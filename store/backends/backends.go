// Package backends opens a store from the URL form the -db flag takes:
// "sqlite:PATH" or a "postgres://" / "postgresql://" URL.
package backends

import (
	"context"
	"fmt"
	"strings"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/store/sqlite"
)

// Open opens the store that dbURL names.
func Open(ctx context.Context, dbURL string) (store.Store, error) {
	switch {
	case strings.HasPrefix(dbURL, "sqlite:"):
		path := strings.TrimPrefix(dbURL, "sqlite:")
		path = strings.TrimPrefix(path, "//")
		if path == "" {
			return nil, fmt.Errorf("database URL %q: sqlite needs a file path (sqlite:PATH)", dbURL)
		}
		return sqlite.Open(ctx, path)
	case strings.HasPrefix(dbURL, "postgres://"), strings.HasPrefix(dbURL, "postgresql://"):
		return postgres.Open(ctx, dbURL)
	}
	return nil, fmt.Errorf("database URL %q: want sqlite:PATH or a postgres:// URL", dbURL)
}

// Validate checks the form of dbURL without opening anything.
func Validate(dbURL string) error {
	switch {
	case strings.HasPrefix(dbURL, "sqlite:") && strings.TrimPrefix(strings.TrimPrefix(dbURL, "sqlite:"), "//") != "":
		return nil
	case strings.HasPrefix(dbURL, "postgres://"), strings.HasPrefix(dbURL, "postgresql://"):
		return nil
	}
	return fmt.Errorf("database URL %q: want sqlite:PATH or a postgres:// URL", dbURL)
}
