package yarn

import (
	"crypto/md5"
	"math/big"
	"strings"
)

// OozieTagPrefix starts the tags Apache Oozie puts on the YARN applications
// of a workflow action (its launcher and the jobs the launcher submits).
const OozieTagPrefix = "oozie-"

// OozieLauncherTag is the string Oozie derives an action's tag from
// (LauncherHelper.getActionYarnTag): "<parent id>@<action name>" when the
// workflow has a parent (a coordinator action or a parent workflow), else
// the action's id.
func OozieLauncherTag(parentID, actionID, name string) string {
	if parentID != "" {
		return parentID + "@" + name
	}
	return actionID
}

// OozieTag returns the application tag Oozie gives an action
// (LauncherHelper.getTag): "oozie-" followed by the MD5 digest of
// launcherTag written as a hex number without leading zeros, as Java's
// BigInteger.toString(16) writes it.
func OozieTag(launcherTag string) string {
	sum := md5.Sum([]byte(launcherTag))
	return OozieTagPrefix + new(big.Int).SetBytes(sum[:]).Text(16)
}

// IsOozieTag reports whether tag is one Oozie made (see OozieTag), never
// one of [ActionTag]'s: an action recorded with it runs in an Oozie
// launcher that gozie adopted at the migration.
func IsOozieTag(tag string) bool { return strings.HasPrefix(tag, OozieTagPrefix) }
