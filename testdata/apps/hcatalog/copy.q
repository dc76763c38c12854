-- gozie's hcatalog example: copy the input partition into the output one.
INSERT INTO TABLE ${OUTPUT_DB}.${OUTPUT_TABLE} PARTITION (ds='${OUTPUT_DS}', region='${OUTPUT_REGION}')
SELECT foo, bar FROM ${DB}.${TABLE} WHERE ${FILTER};
