-- gozie's pig example: the lines longer than $MIN characters, upper-cased,
-- each with its length.
%default MIN 10
lines = LOAD '$INPUT' USING PigStorage('\t') AS (line:chararray);
longer = FILTER lines BY SIZE(line) > $MIN;
shout = FOREACH longer GENERATE UPPER(line) AS line, SIZE(line) AS length;
STORE shout INTO '$OUTPUT' USING PigStorage('\t');
