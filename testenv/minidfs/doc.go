// Package minidfs is an in-process HDFS stand-in for tests and local runs:
// a NameNode speaking Hadoop IPC (the ClientProtocol methods that
// colinmarc/hdfs v2 calls) and a minimal DataNode speaking the
// data-transfer protocol, on random 127.0.0.1 ports or the fixed
// addresses of Options.NameNodeAddrs and Options.DataNodeAddr.
//
// HA (Options.HA): two NameNodes, nn1 and nn2, serve one namespace, each
// with its own HA state; nn1 starts active. The cluster is named by a
// nameservice (Options.Nameservice, default "minicluster", so URI is
// hdfs://minicluster) that no DNS knows: clients reach the NameNodes
// through ClientConf, the hdfs-site.xml properties of the nameservice. A
// standby refuses every client call with Hadoop's StandbyException and
// category; Failover, TransitionToStandby and TransitionToActive are the
// haadmin commands. A failover loses nothing: owners, leases and blocks
// belong to the namespace, the new active renews every lease, and the one
// DataNode serves both NameNodes, so a file open for writing carries on.
// The HAServiceProtocol itself (getServiceStatus over IPC) is not served;
// the hooks are Go methods.
//
// The namespace is a plain local directory: HDFS path /a/b is the file
// <Root>/a/b, so files can be copied in and out with ordinary tools, and
// modification times, sizes and permission bits are those of the local
// files (times in milliseconds). Owners and groups are kept in memory per
// inode; a file that appeared on disk belongs to <u> below /user/<u> (as if
// <u> had put it there) and to Options.Owner (the superuser) elsewhere, in
// Options.Group.
//
// Users: the NameNode enforces HDFS permissions as FSPermissionChecker does
// (owner, group and other bits, traversal, the sticky bit, ownership for
// chmod and chown), with Hadoop's AccessControlException messages; the user
// that started it (Options.Superuser) and the members of the supergroup pass
// every check. New files and directories belong to the caller and take
// their parent's group. A connection may act for another user (a proxy: the
// context names a real user besides the effective one) only under the
// hadoop.proxyuser.<u>.users|groups|hosts rules of Options.Conf, and is
// refused as Hadoop's Server refuses it otherwise. CreateHome (or, for every
// user at first sight, Options.CreateHomes) makes /user/<u> <u>'s, as a
// cluster's administrator does. The rules and their Hadoop sources are
// listed in package testenv.
//
// Blocks: a file of size n is cut into blocks of Options.BlockSize bytes;
// each block is served straight from (and written straight into) its range
// of the backing file. Block ids are handed out as blocks are located or
// allocated, and data carries real CRC32C checksums in both directions.
// There is one DataNode and replication is 1.
//
// WebHDFS: each NameNode serves /webhdfs/v1 on its HTTP address
// (Options.NameNodeHTTPAddrs, HTTPConf's dfs.namenode.http-address) and
// the DataNode on its own (Options.DataNodeHTTPAddr, its info port):
// LISTSTATUS, GETFILESTATUS, GETHOMEDIRECTORY, MKDIRS, DELETE and RENAME
// on the NameNode, OPEN and CREATE redirected (307) to the DataNode, which
// streams and writes the data, as NamenodeWebHdfsMethods and the
// DataNode's WebHdfsHandler do. Both run the NameNode's own ClientProtocol
// handlers as the caller (user.name, doas under the proxy-user rules; on
// a Kerberized MiniDFS SPNEGO with Options.WebKerberos and the delegation
// tokens of the redirects), so the permission checks, HA state, leases and
// namespace are RPC's. Errors are Hadoop's RemoteException JSON with
// ExceptionHandler's statuses. Hadoop's other operations are answered
// UnsupportedOperationException.
//
// Not modelled: snapshots, extended attributes, ACLs, encryption zones,
// ownership kept across a restart (owners live in memory),
// erasure coding, quotas, a lease that moves with a renamed file, and
// DataNode-side SASL. Kerberos SASL on the NameNode is available through
// Options.Kerberos. hadoop.rpc.protection in Options.Conf sets what the
// NameNode's SASL connections are offered and must meet (SaslRpcServer,
// SaslPropertiesResolver); SIMPLE connections have no SASL and are not
// affected, as on a real NameNode; KERBEROS connections get the GSSAPI
// security layer of the level (integrity, privacy: RFC 4121 Wrap tokens).
// Stricter than a real NameNode, a plain request on a wrapping connection
// is refused, so colinmarc's own GSSAPI (which sends requests in the
// clear) works only under authentication; gozie's Resolver wraps them.
//
// A Kerberos NameNode is a secure one: it issues, renews and cancels
// HDFS_DELEGATION_TOKENs (getDelegationToken and friends, with
// Options.TokenRenewInterval and TokenMaxLifetime) and offers TOKEN
// (DIGEST-MD5) authentication before KERBEROS. Its tokens live in memory
// under one master key for the NameNode's life: no key roll
// (dfs.namenode.delegation.key.update-interval), no expired-token remover
// (an expired token stays refused until cancelled), nothing kept across a
// restart.
package minidfs
