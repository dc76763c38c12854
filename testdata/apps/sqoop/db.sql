-- gozie's sqoop examples import table TT of a PostgreSQL database. Create it
-- in the database that jdbcURL (job.properties) names, e.g.
--   psql "postgresql://gozie@localhost:5432/gozie_examples" -f db.sql
DROP TABLE IF EXISTS TT;
CREATE TABLE TT (I INTEGER NOT NULL PRIMARY KEY, S VARCHAR(256));
INSERT INTO TT VALUES (1, 'a');
INSERT INTO TT VALUES (2, 'a');
INSERT INTO TT VALUES (3, 'a');
