// Package fsaction is the executor of Oozie's fs action: delete, mkdir,
// move, chmod, touchz, chgrp and setrep on HDFS (or, where allowed, the
// local filesystem),
// run synchronously in the server through hadoop.FileSystem.
//
// Paths follow Oozie's rules (FsActionExecutor):
//
//   - Without a <name-node>, every path must be fully qualified
//     (hdfs://nn:8020/p): no scheme is FS001, a scheme the server does not
//     support is E0904. Which schemes are supported is the executor's
//     filesystem's to say (hadoop.CheckScheme): in the server, those of
//     gozie.filesystems.supported, so file, the server's own disk, is
//     refused unless an administrator adds it.
//   - With a <name-node>, absolute paths without a scheme or authority are put
//     on it; relative paths are FS011.
//   - delete, move (source), chmod and chgrp take Hadoop globs; a glob
//     matching more than GlobMax paths is FS013.
//   - A move target may leave out the filesystem but may not name another one
//     (FS007); a relative target is relative to the user's home directory. The
//     source must exist (FS006), several sources need an existing directory
//     as target (FS012), and the rename follows Hadoop: into an existing
//     directory, never over an existing file, only below an existing parent
//     (FS008 otherwise).
//   - chmod takes "755" or "-rwxr-xr-x" (FS010 otherwise), applies to a
//     directory and its children unless dir-files="false", and to every level
//     below with <recursive/>; a path matching nothing is FS009.
//   - touchz creates an empty file or touches an existing empty one.
//   - mkdir of an existing path and delete of a missing one do nothing.
//
// Every path is checked before the first operation runs. A refused access is
// FS014. Failures Oozie leaves unclassified, such as an unreachable NameNode,
// are transient here (JA009), so the action is retried rather than failed.
//
// A run that is started again after a crash finds the recovery marker it
// left in its action directory, and then tolerates moves whose sources are
// already gone, as Oozie does; the other operations are idempotent.
package fsaction
