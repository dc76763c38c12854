// Package hadoop is gozie's access to Hadoop outside YARN's REST API:
//
//   - FileSystem, the filesystem operations the engine needs for dataset
//     done-flags, the fs action, staging and result files, with three
//     implementations: HDFS (through github.com/colinmarc/hdfs/v2),
//     LocalFS (file://), and Resolver, which routes full URIs
//     (hdfs://nn:port/p, hdfs://nameservice/p, file:///p, bare /p on the
//     default filesystem) to the right one and caches one HDFS client per
//     (NameNode addresses, user).
//   - Token storage files ("HDTS", as Hadoop's Credentials writes them, in
//     the Writable layout (version 0) and the protobuf layout (version 1)),
//     which YARN hands to containers through HADOOP_TOKEN_FILE_LOCATION.
//
// Sub-packages: ipc (Hadoop IPC client and server with SIMPLE, TOKEN and
// KERBEROS authentication) and hadooppb (the protocol messages).
//
// Paths: missing files are reported with errors that match fs.ErrNotExist
// under errors.Is, on every implementation. Writes through Create and
// WriteFile go to a hidden temporary sibling and are renamed into place on
// Close, so a reader (say, a coordinator waiting for a done-flag) never
// sees a half-written file.
package hadoop
