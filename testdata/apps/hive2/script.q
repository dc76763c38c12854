-- gozie's hive2 example, run statement by statement on HiveServer2.
-- The integers under ${INPUT} become the table gozie_numbers, whose rows
-- the INSERT then writes to ${OUTPUT}.
DROP TABLE IF EXISTS gozie_numbers;
CREATE EXTERNAL TABLE gozie_numbers (n INT) STORED AS TEXTFILE LOCATION '${INPUT}';
INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT n FROM gozie_numbers;
