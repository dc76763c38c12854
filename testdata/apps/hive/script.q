-- gozie's hive example. ${INPUT} holds text files of one integer per line;
-- an external table reads them in place, and the INSERT writes the same
-- integers into ${OUTPUT}.
DROP TABLE IF EXISTS gozie_hive_numbers;
CREATE EXTERNAL TABLE gozie_hive_numbers (n INT) STORED AS TEXTFILE LOCATION '${INPUT}';
INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT n FROM gozie_hive_numbers;
