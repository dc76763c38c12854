// Package hcat reads HCatalog URIs, the hcat:// dataset URIs of Oozie
// coordinators that name Hive table partitions:
//
//	hcat://metastore-host:port/db/table/partkey=value;partkey2=value2
//
// A URI names one metastore (or several, comma-separated: host:port,host:port),
// a database, a table and a partition specification, and stands for the
// partitions that match the specification. Parse follows Oozie's HCatURI
// rules, message for message; the formatting methods give the partition
// filters and strings of the coord: HCatalog EL functions
// (HCatELFunctions). The package holds no I/O: hcat/metastore asks a Hive
// metastore whether the partitions exist and follows its notification log.
package hcat
