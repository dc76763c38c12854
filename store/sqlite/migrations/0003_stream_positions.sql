-- How far a follower of an outside stream has read, by stream name: the
-- edit-stream watcher keeps here the last transaction id of a NameNode's
-- edit stream (HDFS inotify) that it has handled, so that a restarted or
-- another server goes on from there.
CREATE TABLE stream_positions (
  name     TEXT PRIMARY KEY,
  position BIGINT NOT NULL
);
