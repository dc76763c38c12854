-- gozie's custom-main, pig node: the lines of the identity job's output
-- (offset TAB line), without their offsets.
records = LOAD '$INPUT' USING PigStorage('\t') AS (offset:long, line:chararray);
lines = FOREACH records GENERATE line;
STORE lines INTO '$OUTPUT' USING PigStorage('\t');
