-- gozie's demo, pig node: every non-empty line of $INPUT, upper-cased.
lines = LOAD '$INPUT' USING PigStorage('\t') AS (line:chararray);
filled = FILTER lines BY SIZE(line) > 0;
shout = FOREACH filled GENERATE UPPER(line) AS line;
STORE shout INTO '$OUTPUT' USING PigStorage('\t');
