// Package hadoop is gozie's access to Hadoop outside YARN's REST API:
//
//   - FileSystem, the filesystem operations the engine needs for dataset
//     done-flags, the fs action, staging and result files, with three
//     implementations: HDFS (through github.com/colinmarc/hdfs/v2),
//     LocalFS (file://), and Resolver, which routes full URIs
//     (hdfs://nn:port/p, hdfs://nameservice/p, file:///p, bare /p on the
//     default filesystem) to the right one and caches one HDFS client per
//     (NameNode addresses, effective user), at most MaxClients idle.
//   - SchemePolicy, the one judge of which filesystem schemes the paths users
//     name may use (gozie.filesystems.supported: hdfs by default, so never the
//     server's own disk), case-insensitive, a path without a scheme judged by
//     its default filesystem's; and Restricted, the FileSystem view that
//     applies it before anything is touched, refusing with Oozie's E0904
//     (*SchemeError). The server gives Restricted to everything that acts on
//     user-named paths and keeps the Resolver for its own internals. The
//     policy judges names, not implementations: a scheme it allows (say under
//     "*") that no FileSystem implements fails where it is used with Hadoop's
//     "No FileSystem for scheme" (*NoFileSystemError, Oozie's E0902), a
//     filesystem failure like an unreachable NameNode.
//   - Token storage files ("HDTS", as Hadoop's Credentials writes them, in
//     the Writable layout (version 0) and the protobuf layout (version 1)),
//     which YARN hands to containers through HADOOP_TOKEN_FILE_LOCATION.
//
// Identity: work done for a job carries the job's user in its context
// (AsUser). A Resolver then reaches HDFS for that user through Hadoop's
// proxy-user mechanism: the connection context names the job's user as the
// effective user and the server's (ResolverConfig.User) as the real one, as
// Hadoop's own client does for a proxy UGI (ProtoUtil.makeIpcConnectionContext),
// and the NameNode decides by its hadoop.proxyuser.<server user>.* rules;
// yarn.Client sends doAs likewise. colinmarc/hdfs names one user only, so the
// Resolver's clients rewrite the context in flight (nnConn) and keep the
// NameNode's refusal messages (RemoteException) that colinmarc drops.
// A Kerberized NameNode's refusal of a client without Kerberos (SIMPLE
// authentication) becomes a *SimpleRefusedError naming the setting to
// change (ResolverConfig.SimpleRefusedHint), where colinmarc would say
// "unexpected sequence number". ResolverConfig.RequireUser makes a call that names no user an error
// (ErrNoUser) instead of acting as the server.
//
// HA nameservices: hdfs://<ns> resolves through ResolverConfig.Conf
// (dfs.ha.namenodes.<ns>, dfs.namenode.rpc-address.<ns>.<nn>), and the
// paths and URIs the Resolver returns keep the nameservice, never a
// NameNode's address. colinmarc fails over on StandbyException within a
// call; the Resolver gives it each NameNode several times over (colinmarc
// skips a NameNode for 5 seconds after a failure, which would break a
// failover back in that time), and a call that no NameNode served (all
// standby, unreachable) is tried again as Hadoop's client does
// (dfs.client.failover.*; NoActiveNameNodeError when they run out). A file
// open for writing survives a failover; one whose block or completion no
// NameNode served fails as a whole and never appears at its path.
//
// Kerberos: with ResolverConfig.Kerberos (the server's login, see
// krblogin) gozie authenticates each NameNode connection itself (SASL
// GSSAPI through ipc.Authenticate, with hadoop.rpc.protection's security
// layer) and hands colinmarc the authenticated, wrapped stream (nnConn).
//
// Delegation tokens: Resolver.DelegationToken fetches (and caches, see its
// rule) an HDFS delegation token for a job's user over gozie's own IPC;
// inside a container ResolverConfig.Tokens (TokensFromEnv) makes the
// NameNodes of a filesystem with a matching token (TokenForFilesystem)
// be reached with TOKEN authentication (DIGEST-MD5) as the token's owner.
//
// Sub-packages: ipc (Hadoop IPC client and server with SIMPLE, TOKEN and
// KERBEROS authentication), krblogin (the server's keytab login),
// delegation (delegation token identifiers and passwords), digestmd5 (the
// SASL mechanism of TOKEN, both sides) and hadooppb (the protocol
// messages).
//
// Paths: missing files are reported with errors that match fs.ErrNotExist
// under errors.Is, on every implementation. Writes through Create and
// WriteFile go to a hidden temporary sibling and are renamed into place on
// Close, so a reader (say, a coordinator waiting for a done-flag) never
// sees a half-written file.
package hadoop
