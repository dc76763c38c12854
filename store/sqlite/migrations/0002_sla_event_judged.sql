-- An SLA event keeps what was judged with it: the SLA status the
-- registration had as the event was judged (a START_MISS judged in the pass
-- that also judges END_MISS is NOT_STARTED, the END_MISS is MISS), the job's
-- status, and the expected and actual times then. Notifications and the event
-- history read these, never the registration as it is at delivery.

ALTER TABLE sla_events ADD COLUMN sla_status TEXT NOT NULL DEFAULT 'NOT_STARTED'
  CHECK (sla_status IN ('NOT_STARTED','IN_PROCESS','MET','MISS'));
ALTER TABLE sla_events ADD COLUMN job_status TEXT NOT NULL DEFAULT '';
ALTER TABLE sla_events ADD COLUMN expected_start INTEGER;
ALTER TABLE sla_events ADD COLUMN expected_end INTEGER;
ALTER TABLE sla_events ADD COLUMN expected_duration BIGINT NOT NULL DEFAULT -1;
ALTER TABLE sla_events ADD COLUMN actual_start INTEGER;
ALTER TABLE sla_events ADD COLUMN actual_end INTEGER;
ALTER TABLE sla_events ADD COLUMN actual_duration BIGINT NOT NULL DEFAULT -1;

-- Events judged before this migration: an end event's status is its outcome;
-- after an END_MISS the status stays MISS; otherwise the registration's
-- status if its job had ended by the event, IN_PROCESS if it had started,
-- else NOT_STARTED. Times are the registration's, the actual ones only where
-- they had happened by the event; the job status is the registration's.
UPDATE sla_events SET
  sla_status = CASE
    WHEN event_status = 'END_MISS' THEN 'MISS'
    WHEN event_status = 'END_MET' THEN 'MET'
    WHEN EXISTS (SELECT 1 FROM sla_events p WHERE p.sla_id = sla_events.sla_id AND p.seq < sla_events.seq
                 AND p.event_status = 'END_MISS') THEN 'MISS'
    ELSE COALESCE((SELECT CASE
        WHEN r.actual_end IS NOT NULL AND r.actual_end <= sla_events.event_time THEN r.sla_status
        WHEN r.actual_start IS NOT NULL AND r.actual_start <= sla_events.event_time THEN 'IN_PROCESS'
        ELSE 'NOT_STARTED' END
      FROM sla_registrations r WHERE r.id = sla_events.sla_id), 'NOT_STARTED')
  END,
  job_status = COALESCE((SELECT r.job_status FROM sla_registrations r WHERE r.id = sla_events.sla_id), ''),
  expected_start = (SELECT r.expected_start FROM sla_registrations r WHERE r.id = sla_events.sla_id),
  expected_end = (SELECT r.expected_end FROM sla_registrations r WHERE r.id = sla_events.sla_id),
  expected_duration = COALESCE((SELECT r.expected_duration FROM sla_registrations r WHERE r.id = sla_events.sla_id), -1),
  actual_start = (SELECT CASE WHEN r.actual_start <= sla_events.event_time THEN r.actual_start END
    FROM sla_registrations r WHERE r.id = sla_events.sla_id),
  actual_end = (SELECT CASE WHEN r.actual_end <= sla_events.event_time THEN r.actual_end END
    FROM sla_registrations r WHERE r.id = sla_events.sla_id),
  actual_duration = COALESCE((SELECT CASE WHEN r.actual_end <= sla_events.event_time THEN r.actual_duration END
    FROM sla_registrations r WHERE r.id = sla_events.sla_id), -1);
