// Package minidfs is an in-process HDFS stand-in for tests and local runs:
// a NameNode speaking Hadoop IPC (the ClientProtocol methods that
// colinmarc/hdfs v2 calls) and a minimal DataNode speaking the
// data-transfer protocol, both on random 127.0.0.1 ports.
//
// The namespace is a plain local directory: HDFS path /a/b is the file
// <Root>/a/b, so files can be copied in and out with ordinary tools, and
// modification times, sizes and permission bits are those of the local
// files (times in milliseconds). Owners and groups are kept in memory per
// inode (files that appear on disk belong to Options.Owner).
//
// Blocks: a file of size n is cut into blocks of Options.BlockSize bytes;
// each block is served straight from (and written straight into) its range
// of the backing file. Block ids are handed out as blocks are located or
// allocated, and data carries real CRC32C checksums in both directions.
// There is one DataNode and replication is 1.
//
// Not modelled: snapshots, extended attributes, ACLs, encryption zones,
// erasure coding, quotas, a lease that moves with a renamed file, and
// DataNode-side SASL. Kerberos SASL on the NameNode is available through
// Options.Kerberos.
package minidfs
