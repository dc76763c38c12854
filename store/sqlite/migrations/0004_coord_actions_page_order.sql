-- A coordinator's actions are listed (REST job info, the CLI's -info) by
-- nominal time, then action number. With the action number in the index,
-- a page is read in index order, without sorting every action of the job
-- at the same nominal time range first; the index still serves every
-- lookup by job and nominal time. Rebuilding it reads the table once.
DROP INDEX coord_actions_job_nominal;
CREATE INDEX coord_actions_job_nominal ON coord_actions (job_id, nominal_time, action_number);
