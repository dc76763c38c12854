-- The large text columns are compressed with LZ4 where the server has it
-- (PostgreSQL 14 and later, built with lz4, as the common packages are).
-- Reads decompress these columns on every listing: a page of 50 coordinator
-- actions compares each action's configurations with its job's, and pglz,
-- the default, took about half of PostgreSQL's time for that page. Only
-- values written from now on use LZ4; older ones stay readable as they are.
-- Elsewhere the columns keep the server's default.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings
             WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    EXECUTE 'ALTER TABLE coord_actions
      ALTER COLUMN created_conf SET COMPRESSION lz4,
      ALTER COLUMN run_conf SET COMPRESSION lz4,
      ALTER COLUMN action_xml SET COMPRESSION lz4,
      ALTER COLUMN missing_dependencies SET COMPRESSION lz4,
      ALTER COLUMN push_missing_dependencies SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE coord_jobs
      ALTER COLUMN conf SET COMPRESSION lz4,
      ALTER COLUMN definition SET COMPRESSION lz4,
      ALTER COLUMN orig_definition SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE wf_jobs
      ALTER COLUMN conf SET COMPRESSION lz4,
      ALTER COLUMN definition SET COMPRESSION lz4,
      ALTER COLUMN instance SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE wf_actions
      ALTER COLUMN conf SET COMPRESSION lz4,
      ALTER COLUMN data SET COMPRESSION lz4,
      ALTER COLUMN stats SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE bundle_jobs
      ALTER COLUMN conf SET COMPRESSION lz4,
      ALTER COLUMN definition SET COMPRESSION lz4,
      ALTER COLUMN orig_definition SET COMPRESSION lz4';
  END IF;
END
$$;
