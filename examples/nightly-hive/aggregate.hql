-- The day's events (user id, amount in cents) as an external table over the
-- input directory; the paying ones go to the staging directory as CSV.
DROP TABLE IF EXISTS nightly_events;
CREATE EXTERNAL TABLE nightly_events (user_id STRING, amount INT)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
  STORED AS TEXTFILE
  LOCATION '${INPUT}';
INSERT OVERWRITE DIRECTORY '${STAGING}'
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
  SELECT user_id, amount FROM nightly_events WHERE amount > 0;
