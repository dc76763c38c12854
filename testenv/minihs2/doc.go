// Package minihs2 is an in-process HiveServer2 stand-in for tests and local
// runs. It serves the TCLIService Thrift API through the processor of
// gohive's own generated hiveserver package, so the real gohive client
// talks to it unchanged, over the transports of
// hive.server2.transport.mode and hive.server2.authentication: binary with
// SASL PLAIN (NONE), binary without SASL (NOSASL), HTTP with basic
// authentication, and KERBEROS (AuthKerberos with Options.Kerberos): SASL
// GSSAPI with qop auth over binary, SPNEGO over HTTP, everything else
// refused (PLAIN "Unsupported mechanism type PLAIN", NOSASL, HTTP 401
// "WWW-Authenticate: Negotiate"). A Kerberos session runs as the
// principal's short name, or as the user named by the HTTP doAs parameter
// or else hive.server2.proxy.user when Options.HadoopConf's
// hadoop.proxyuser rules let the principal act for that user
// (ThriftCLIService.getProxyUser). GetDelegationToken, RenewDelegationToken
// and CancelDelegationToken manage HIVE_DELEGATION_TOKENs (service
// hiveserver2ClientToken; owner may differ from the caller only under the
// proxy-user rules; only the renewer renews, owner or renewer cancels).
// The binary transport takes such a token with SASL DIGEST-MD5 (the JDBC
// driver's auth=delegationToken), qop auth, and the session runs as its
// owner; a token the server does not hold (cancelled, issued elsewhere) or
// past its renew date is refused with BAD "DIGEST-MD5: IO error acquiring
// password" (the secret manager's reason is logged, as Hive logs it), a
// wrong password with "... Mismatched response.". Token authentication over
// HTTP (X-Hive-Delegation-Token) is not implemented.
//
// StartMetastore runs a Hive metastore over the Thrift binary protocol.
// Kerberized (MetastoreOptions.Kerberos) it takes SASL GSSAPI only and
// serves get_delegation_token, what Oozie's hcat credential asks for; its
// tokens (no service) come from its own store, as with Hive's default
// MemoryTokenStore, and PLAIN and DIGEST-MD5 are refused (a real metastore
// also takes its tokens back with DIGEST-MD5). Over a HiveServer2's
// catalog (MetastoreOptions.Hive), with or without Kerberos, it serves
// set_ugi, get_partition, get_partitions_by_filter, add_partition,
// drop_partition,
// get_current_notificationEventId and get_next_notification
// (metastore_catalog.go), with gohive's generated structs for the wire
// format: what HCatalog datasets need. Every other method gets
// UNKNOWN_METHOD.
//
// Partitioned tables (partitions.go): PARTITIONED BY columns, ALTER TABLE
// t ADD [IF NOT EXISTS] PARTITION (k='v', ...) [LOCATION '...'] ..., and
// INSERT {INTO|OVERWRITE} [TABLE] t PARTITION (k='v', ...) (static
// partitions only); each partition is a directory k1=v1/k2=v2 under the
// table's location, SELECT sees its values as trailing columns, and every
// addition is an ADD_PARTITION event of the metastore's notification log
// (metastore_events.go).
//
// Statements do real work. Tables live in an in-memory catalog (databases,
// columns, text-file row formats, locations) and their rows are the
// delimited text files under each table's location on Options.FS
// (MiniDFS in tests). The HiveQL subset:
//
//   - CREATE [TEMPORARY] [EXTERNAL] TABLE [IF NOT EXISTS] [db.]t (col type, ...)
//     [COMMENT '...'] [ROW FORMAT DELIMITED [FIELDS TERMINATED BY 'c'] [NULL DEFINED AS 's'] ...]
//     [STORED AS TEXTFILE] [LOCATION 'path'] [TBLPROPERTIES (...)]
//   - DROP TABLE [IF EXISTS] t (managed tables lose their data; a missing
//     table is ignored unless hive.exec.drop.ignorenonexistent=false)
//   - CREATE DATABASE / DROP DATABASE [CASCADE], USE db, SHOW TABLES,
//     SHOW DATABASES
//   - SELECT cols | * | count(*) | constants [FROM t [alias]] [WHERE predicate] [LIMIT n],
//     where predicates are comparisons, IS [NOT] NULL, [NOT] IN (...),
//     AND, OR, NOT and parentheses, with SQL's three-valued logic
//   - INSERT OVERWRITE DIRECTORY 'path' [ROW FORMAT DELIMITED ...] SELECT ...
//     (the directory is replaced by one file, 000000_0; fields split by ^A
//     unless a row format says otherwise)
//   - INSERT INTO [TABLE] t VALUES (...), INSERT {INTO|OVERWRITE} TABLE t SELECT ...
//   - SET, SET key, SET key=value (hiveconf:, hivevar: prefixes)
//
// Variable substitution (${var}, ${hivevar:var}) is the client's job: the
// server runs the text it receives. Errors carry Hive's codes and SQL
// states: parse errors 40000 ("ParseException line L:C cannot recognize
// input near ..."), unknown tables 10001, unknown columns 10004, unknown
// databases 10072, failed DDL tasks return code 1 and failed execution
// tasks return code 2 ("Execution Error, return code 2 from ...TezTask").
// Compile errors come back from ExecuteStatement itself; execution errors
// through the operation's ERROR state, as with HiveServer2.
//
// Every statement runs asynchronously: ExecuteStatement returns a handle
// at once, GetOperationStatus reports RUNNING, then FINISHED, ERROR or
// CANCELED, and FetchResults with fetchType 1 returns the operation log
// in HiveServer2's format, including the "Executing on YARN cluster with
// App id application_..." line that clients parse for child ids.
//
// With Options.YARN, every statement that Hive would run as a Tez DAG
// (INSERTs and aggregations; plain SELECTs are fetch tasks) submits an
// application to the ResourceManager, named and typed as Hive's are, in
// the queue and with the tags of the session's configuration
// (tez.application.tags, or mapreduce.job.tags when
// hive.execution.engine=mr). MiniHS2 plays the application's
// ApplicationMaster itself through the real AMRM protocol: the AM container
// is a small bash relay that hands the container's AMRM token to MiniHS2
// over a loopback socket and lives until MiniHS2 has unregistered with the
// statement's outcome (SUCCEEDED, FAILED with the error as diagnostics,
// KILLED when cancelled). MiniYARN's strict AM rule is thus met, and
// killing the application fails the statement, as killing a Tez
// application fails the query.
//
// Test hooks: FailNext makes the next statement fail during execution with
// a given error code and FailOn the next one containing a text; HangNext
// and HangOn make such a statement run until cancelled; DropConnections
// breaks every binary connection; Statements lists what ran, with the
// session user, database, configuration, tags and application.
//
// Not modelled: dynamic partitions, ALTER TABLE DROP PARTITION, SHOW PARTITIONS, joins, GROUP BY, ORDER BY, views,
// non-text storage formats, transactions, and per-session temporary tables
// (TEMPORARY tables are ordinary tables here).
package minihs2
