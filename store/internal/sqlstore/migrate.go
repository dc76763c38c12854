package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migration is one numbered schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads NNNN_name.sql files from dir of fsys in version order.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("reading migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", name)
		}
		body, err := fs.ReadFile(fsys, dir+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("reading migration %s: %w", name, err)
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i := range out {
		if out[i].Version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", out[i].Name, i+1)
		}
	}
	return out, nil
}

// Migrate applies the migrations not yet recorded in schema_migrations, each
// in its own transaction, and returns how many it applied. A database newer
// than this binary is an error.
func Migrate(ctx context.Context, db *sql.DB, d *Dialect, ms []Migration) (int, error) {
	applied := 0
	for {
		done, err := migrateOne(ctx, db, d, ms)
		if err != nil {
			return applied, err
		}
		if done {
			return applied, nil
		}
		applied++
	}
}

// migrateOne applies the next missing migration; done is true when none is missing.
func migrateOne(ctx context.Context, db *sql.DB, d *Dialect, ms []Migration) (done bool, err error) {
	tx, err := d.BeginTx(ctx, db)
	if err != nil {
		return false, fmt.Errorf("migrating: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if d.MigrationLock != "" {
		if _, err := tx.ExecContext(ctx, d.MigrationLock); err != nil {
			return false, fmt.Errorf("migrating: taking lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL)`); err != nil {
		return false, fmt.Errorf("migrating: %w", err)
	}
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return false, fmt.Errorf("migrating: reading version: %w", err)
	}
	if current > len(ms) {
		return false, fmt.Errorf("migrating: database schema version %d is newer than this gozie (%d)", current, len(ms))
	}
	if current == len(ms) {
		return true, tx.Commit()
	}
	m := ms[current]
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("migration %s: %w", m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
		m.Version, m.Name, time.Now().UnixMilli()); err != nil {
		return false, fmt.Errorf("migration %s: recording: %w", m.Name, err)
	}
	return false, tx.Commit()
}

// SchemaVersion returns the highest applied migration.
func SchemaVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v int
	err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}
