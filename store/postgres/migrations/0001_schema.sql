-- The whole schema of gozie's first release. Times are timestamptz;
-- strings are never NULL (empty means unset). Every entity row carries a
-- version for compare-and-set updates.

CREATE TABLE wf_jobs (
  id            TEXT PRIMARY KEY,
  app_name      TEXT NOT NULL DEFAULT '',
  app_path      TEXT NOT NULL DEFAULT '',
  user_name     TEXT NOT NULL DEFAULT '',
  group_name    TEXT NOT NULL DEFAULT '',
  acl           TEXT NOT NULL DEFAULT '',
  status        TEXT NOT NULL CHECK (status IN ('PREP','RUNNING','SUSPENDED','SUCCEEDED','KILLED','FAILED')),
  run           INTEGER NOT NULL DEFAULT 0,
  parent_id     TEXT NOT NULL DEFAULT '',
  external_id   TEXT NOT NULL DEFAULT '',
  conf          TEXT NOT NULL DEFAULT '',
  definition    TEXT NOT NULL DEFAULT '',
  instance      BYTEA,
  error_code    TEXT NOT NULL DEFAULT '',
  error_message TEXT NOT NULL DEFAULT '',
  created_time  TIMESTAMPTZ NOT NULL,
  start_time    TIMESTAMPTZ,
  end_time      TIMESTAMPTZ,
  last_modified TIMESTAMPTZ,
  version       BIGINT NOT NULL
);
CREATE INDEX wf_jobs_created ON wf_jobs (created_time);
CREATE INDEX wf_jobs_status ON wf_jobs (status, last_modified);
CREATE INDEX wf_jobs_parent ON wf_jobs (parent_id);
CREATE INDEX wf_jobs_app_name ON wf_jobs (app_name);
CREATE INDEX wf_jobs_external ON wf_jobs (external_id);
-- Listings filtered by user (GET jobs?filter=user=...;status=...), newest first:
-- the count and the page read only that user's entries, and status is checked in
-- the index, without a scan of every job.
CREATE INDEX wf_jobs_user ON wf_jobs (user_name, created_time, status);

CREATE TABLE wf_actions (
  id                  TEXT PRIMARY KEY,
  job_id              TEXT NOT NULL REFERENCES wf_jobs (id),
  name                TEXT NOT NULL,
  type                TEXT NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('PREP','RUNNING','OK','ERROR','USER_RETRY','START_RETRY','START_MANUAL','DONE','END_RETRY','END_MANUAL','KILLED','FAILED')),
  conf                TEXT NOT NULL DEFAULT '',
  transition          TEXT NOT NULL DEFAULT '',
  external_id         TEXT NOT NULL DEFAULT '',
  external_status     TEXT NOT NULL DEFAULT '',
  external_child_ids  TEXT NOT NULL DEFAULT '',
  tracker_uri         TEXT NOT NULL DEFAULT '',
  console_url         TEXT NOT NULL DEFAULT '',
  launch_tag          TEXT NOT NULL DEFAULT '',
  error_code          TEXT NOT NULL DEFAULT '',
  error_message       TEXT NOT NULL DEFAULT '',
  data                TEXT NOT NULL DEFAULT '',
  stats               TEXT NOT NULL DEFAULT '',
  retries             INTEGER NOT NULL DEFAULT 0,
  user_retry_count    INTEGER NOT NULL DEFAULT 0,
  user_retry_max      INTEGER NOT NULL DEFAULT 0,
  user_retry_interval INTEGER NOT NULL DEFAULT 0,
  created_time        TIMESTAMPTZ NOT NULL,
  start_time          TIMESTAMPTZ,
  end_time            TIMESTAMPTZ,
  last_check_time     TIMESTAMPTZ,
  last_modified       TIMESTAMPTZ,
  version             BIGINT NOT NULL,
  UNIQUE (job_id, name)
);
CREATE INDEX wf_actions_external ON wf_actions (external_id);
CREATE INDEX wf_actions_status ON wf_actions (status, last_modified);

CREATE TABLE coord_jobs (
  id                     TEXT PRIMARY KEY,
  app_name               TEXT NOT NULL DEFAULT '',
  app_path               TEXT NOT NULL DEFAULT '',
  user_name              TEXT NOT NULL DEFAULT '',
  group_name             TEXT NOT NULL DEFAULT '',
  acl                    TEXT NOT NULL DEFAULT '',
  status                 TEXT NOT NULL CHECK (status IN ('PREP','RUNNING','RUNNINGWITHERROR','SUSPENDED','SUSPENDEDWITHERROR','PREPSUSPENDED','PAUSED','PAUSEDWITHERROR','PREPPAUSED','SUCCEEDED','DONEWITHERROR','KILLED','FAILED','IGNORED')),
  bundle_id              TEXT NOT NULL DEFAULT '',
  external_id            TEXT NOT NULL DEFAULT '',
  conf                   TEXT NOT NULL DEFAULT '',
  definition             TEXT NOT NULL DEFAULT '',
  orig_definition        TEXT NOT NULL DEFAULT '',
  frequency              TEXT NOT NULL DEFAULT '',
  time_unit              TEXT NOT NULL DEFAULT '',
  time_zone              TEXT NOT NULL DEFAULT '',
  concurrency            INTEGER NOT NULL DEFAULT 1,
  timeout                INTEGER NOT NULL DEFAULT 120,
  throttle               INTEGER NOT NULL DEFAULT 12,
  execution_order        TEXT NOT NULL DEFAULT 'FIFO' CHECK (execution_order IN ('FIFO','LIFO','LAST_ONLY','NONE')),
  start_time             TIMESTAMPTZ,
  end_time               TIMESTAMPTZ,
  pause_time             TIMESTAMPTZ,
  last_action_number     INTEGER NOT NULL DEFAULT 0,
  last_action_time       TIMESTAMPTZ,
  next_materialized_time TIMESTAMPTZ,
  done_materialization   BOOLEAN NOT NULL DEFAULT FALSE,
  pending                BOOLEAN NOT NULL DEFAULT FALSE,
  suspended_time         TIMESTAMPTZ,
  error_code             TEXT NOT NULL DEFAULT '',
  error_message          TEXT NOT NULL DEFAULT '',
  created_time           TIMESTAMPTZ NOT NULL,
  last_modified          TIMESTAMPTZ,
  version                BIGINT NOT NULL
);
CREATE INDEX coord_jobs_created ON coord_jobs (created_time);
CREATE INDEX coord_jobs_status ON coord_jobs (status, last_modified);
CREATE INDEX coord_jobs_bundle ON coord_jobs (bundle_id);

CREATE TABLE coord_actions (
  id                        TEXT PRIMARY KEY,
  job_id                    TEXT NOT NULL REFERENCES coord_jobs (id),
  action_number             INTEGER NOT NULL,
  status                    TEXT NOT NULL CHECK (status IN ('WAITING','READY','SUBMITTED','RUNNING','SUSPENDED','TIMEDOUT','SUCCEEDED','KILLED','FAILED','IGNORED','SKIPPED')),
  nominal_time              TIMESTAMPTZ NOT NULL,
  external_id               TEXT NOT NULL DEFAULT '',
  external_status           TEXT NOT NULL DEFAULT '',
  tracker_uri               TEXT NOT NULL DEFAULT '',
  console_url               TEXT NOT NULL DEFAULT '',
  error_code                TEXT NOT NULL DEFAULT '',
  error_message             TEXT NOT NULL DEFAULT '',
  created_conf              TEXT NOT NULL DEFAULT '',
  run_conf                  TEXT NOT NULL DEFAULT '',
  action_xml                TEXT NOT NULL DEFAULT '',
  missing_dependencies      TEXT NOT NULL DEFAULT '',
  push_missing_dependencies TEXT NOT NULL DEFAULT '',
  timeout                   INTEGER NOT NULL DEFAULT 120,
  pending                   BOOLEAN NOT NULL DEFAULT FALSE,
  created_time              TIMESTAMPTZ NOT NULL,
  last_modified             TIMESTAMPTZ,
  version                   BIGINT NOT NULL,
  UNIQUE (job_id, action_number)
);
CREATE INDEX coord_actions_job_nominal ON coord_actions (job_id, nominal_time);
CREATE INDEX coord_actions_job_status ON coord_actions (job_id, status);
CREATE INDEX coord_actions_external ON coord_actions (external_id);
CREATE INDEX coord_actions_pending ON coord_actions (job_id) WHERE pending;

-- The dataset URIs each waiting coordinator action is blocked on, so that a
-- notification about one URI finds its actions with one index lookup.
CREATE TABLE coord_waits (
  uri       TEXT NOT NULL,
  action_id TEXT NOT NULL REFERENCES coord_actions (id) ON DELETE CASCADE,
  PRIMARY KEY (uri, action_id)
);
CREATE INDEX coord_waits_action ON coord_waits (action_id);

CREATE TABLE bundle_jobs (
  id             TEXT PRIMARY KEY,
  app_name       TEXT NOT NULL DEFAULT '',
  app_path       TEXT NOT NULL DEFAULT '',
  user_name      TEXT NOT NULL DEFAULT '',
  group_name     TEXT NOT NULL DEFAULT '',
  acl            TEXT NOT NULL DEFAULT '',
  status         TEXT NOT NULL CHECK (status IN ('PREP','RUNNING','RUNNINGWITHERROR','SUSPENDED','SUSPENDEDWITHERROR','PREPSUSPENDED','PAUSED','PAUSEDWITHERROR','PREPPAUSED','SUCCEEDED','DONEWITHERROR','KILLED','FAILED','IGNORED') AND status <> 'IGNORED'),
  external_id    TEXT NOT NULL DEFAULT '',
  conf           TEXT NOT NULL DEFAULT '',
  definition     TEXT NOT NULL DEFAULT '',
  orig_definition TEXT NOT NULL DEFAULT '',
  kickoff_time   TIMESTAMPTZ,
  start_time     TIMESTAMPTZ,
  end_time       TIMESTAMPTZ,
  pause_time     TIMESTAMPTZ,
  suspended_time TIMESTAMPTZ,
  time_out       INTEGER NOT NULL DEFAULT 0,
  created_time   TIMESTAMPTZ NOT NULL,
  last_modified  TIMESTAMPTZ,
  version        BIGINT NOT NULL
);
CREATE INDEX bundle_jobs_created ON bundle_jobs (created_time);
CREATE INDEX bundle_jobs_status ON bundle_jobs (status, last_modified);

CREATE TABLE bundle_actions (
  id            TEXT PRIMARY KEY,
  bundle_id     TEXT NOT NULL REFERENCES bundle_jobs (id),
  coord_name    TEXT NOT NULL,
  coord_id      TEXT NOT NULL DEFAULT '',
  status        TEXT NOT NULL CHECK (status IN ('PREP','RUNNING','RUNNINGWITHERROR','SUSPENDED','SUSPENDEDWITHERROR','PREPSUSPENDED','PAUSED','PAUSEDWITHERROR','PREPPAUSED','SUCCEEDED','DONEWITHERROR','KILLED','FAILED','IGNORED')),
  critical      BOOLEAN NOT NULL DEFAULT FALSE,
  last_modified TIMESTAMPTZ,
  version       BIGINT NOT NULL,
  UNIQUE (bundle_id, coord_name)
);

CREATE TABLE sla_registrations (
  id                TEXT PRIMARY KEY,
  parent_id         TEXT NOT NULL DEFAULT '',
  bundle_id         TEXT NOT NULL DEFAULT '',
  app_name          TEXT NOT NULL DEFAULT '',
  app_type          TEXT NOT NULL CHECK (app_type IN ('WORKFLOW_JOB','WORKFLOW_ACTION','COORDINATOR_ACTION','COORDINATOR_JOB','BUNDLE_JOB','BUNDLE_ACTION')),
  user_name         TEXT NOT NULL DEFAULT '',
  nominal_time      TIMESTAMPTZ,
  expected_start    TIMESTAMPTZ,
  expected_end      TIMESTAMPTZ,
  expected_duration BIGINT NOT NULL DEFAULT -1,
  actual_start      TIMESTAMPTZ,
  actual_end        TIMESTAMPTZ,
  actual_duration   BIGINT NOT NULL DEFAULT -1,
  job_status        TEXT NOT NULL DEFAULT '',
  sla_status        TEXT NOT NULL CHECK (sla_status IN ('NOT_STARTED','IN_PROCESS','MET','MISS')),
  event_status      TEXT NOT NULL DEFAULT '',
  alert_events      TEXT NOT NULL DEFAULT '',
  alert_contact     TEXT NOT NULL DEFAULT '',
  notification_msg  TEXT NOT NULL DEFAULT '',
  upstream_apps     TEXT NOT NULL DEFAULT '',
  alerts_enabled    BOOLEAN NOT NULL DEFAULT TRUE,
  created_time      TIMESTAMPTZ NOT NULL,
  last_modified     TIMESTAMPTZ,
  version           BIGINT NOT NULL
);
CREATE INDEX sla_registrations_nominal ON sla_registrations (nominal_time);
CREATE INDEX sla_registrations_parent ON sla_registrations (parent_id);
CREATE INDEX sla_registrations_app ON sla_registrations (app_name, nominal_time);
-- For the filters of GET /v2/sla and the dashboard's views.
CREATE INDEX sla_registrations_status ON sla_registrations (sla_status, nominal_time);
CREATE INDEX sla_registrations_created ON sla_registrations (created_time);
CREATE INDEX sla_registrations_bundle ON sla_registrations (bundle_id);

CREATE TABLE sla_events (
  seq          BIGSERIAL PRIMARY KEY,
  sla_id       TEXT NOT NULL,
  app_name     TEXT NOT NULL DEFAULT '',
  event_status TEXT NOT NULL CHECK (event_status IN ('START_MET','START_MISS','DURATION_MET','DURATION_MISS','END_MET','END_MISS')),
  lateness_ms  BIGINT NOT NULL,
  event_time   TIMESTAMPTZ NOT NULL
);
CREATE INDEX sla_events_sla ON sla_events (sla_id, seq);
CREATE INDEX sla_events_time ON sla_events (event_time);
CREATE INDEX sla_events_app ON sla_events (app_name, seq);
CREATE INDEX sla_events_status ON sla_events (event_status, seq);

-- One row per pending piece of engine work (see package store).
CREATE TABLE triggers (
  id            BIGSERIAL PRIMARY KEY,
  kind          TEXT NOT NULL,
  entity_id     TEXT NOT NULL,
  payload       TEXT NOT NULL DEFAULT '',
  due_at        TIMESTAMPTZ NOT NULL,
  attempts      INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT NOT NULL DEFAULT '',
  lease_owner   TEXT NOT NULL DEFAULT '',
  lease_expires TIMESTAMPTZ,
  lease_seq     BIGINT NOT NULL DEFAULT 0,
  requeue_at    TIMESTAMPTZ,
  cancelled     BOOLEAN NOT NULL DEFAULT FALSE,
  created_time  TIMESTAMPTZ NOT NULL,
  UNIQUE (entity_id, kind), -- entity first: purge and commands find triggers by entity
  CHECK ((lease_owner = '') = (lease_expires IS NULL))
);
CREATE INDEX triggers_due ON triggers (due_at, id) WHERE lease_owner = '';
CREATE INDEX triggers_lease ON triggers (lease_expires) WHERE lease_owner <> '';

CREATE TABLE server_instances (
  id         TEXT PRIMARY KEY,
  host       TEXT NOT NULL DEFAULT '',
  version    TEXT NOT NULL DEFAULT '',
  started_at TIMESTAMPTZ NOT NULL,
  heartbeat  TIMESTAMPTZ NOT NULL
);

CREATE TABLE leases (
  name    TEXT PRIMARY KEY,
  owner   TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL
);

-- The attempts of workflow actions that their user-retry policy ran again
-- (GET job/<action id>?show=retries). The rows of an action go with it: a
-- rerun that runs the action again, or a purge, deletes them.
CREATE TABLE wf_action_attempts (
  action_id          TEXT NOT NULL REFERENCES wf_actions (id) ON DELETE CASCADE,
  attempt            INTEGER NOT NULL CHECK (attempt >= 1),
  job_id             TEXT NOT NULL,
  start_time         TIMESTAMPTZ,
  end_time           TIMESTAMPTZ,
  console_url        TEXT NOT NULL DEFAULT '',
  external_id        TEXT NOT NULL DEFAULT '',
  external_child_ids TEXT NOT NULL DEFAULT '',
  external_status    TEXT NOT NULL DEFAULT '',
  error_code         TEXT NOT NULL DEFAULT '',
  error_message      TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (action_id, attempt)
);
CREATE INDEX wf_action_attempts_job ON wf_action_attempts (job_id);

-- The audit trail: one row per REST operation on a job (GET job/<id>?show=auditlog).
-- job_id is the job whose trail holds the row, '' when the request named no
-- existing job (purged by age); target is the id as the request named it.
CREATE TABLE job_audit (
  seq           BIGSERIAL PRIMARY KEY,
  job_id        TEXT NOT NULL DEFAULT '',
  target        TEXT NOT NULL DEFAULT '',
  at            TIMESTAMPTZ NOT NULL,
  ip            TEXT NOT NULL DEFAULT '',
  user_name     TEXT NOT NULL DEFAULT '',
  group_name    TEXT NOT NULL DEFAULT '',
  app_name      TEXT NOT NULL DEFAULT '',
  operation     TEXT NOT NULL DEFAULT '',
  parameter     TEXT NOT NULL DEFAULT '',
  status        TEXT NOT NULL CHECK (status IN ('SUCCESS','FAILED')),
  http_code     INTEGER NOT NULL,
  error_code    TEXT NOT NULL DEFAULT '',
  error_message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX job_audit_job ON job_audit (job_id, at);
