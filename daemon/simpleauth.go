package daemon

import "github.com/gozie/gozie/conf"

// simpleRefusedHint is the advice of the error a Kerberized NameNode's
// refusal of SIMPLE authentication becomes (hadoop.SimpleRefusedError):
// gozie spoke SIMPLE because its Hadoop configuration does not enable
// Kerberos, so it names the settings that do, and where they are read.
func simpleRefusedHint(hc *conf.Hadoop) string {
	where := "the directory of gozie.hadoop.conf.dir (or HADOOP_CONF_DIR)"
	if hc.Dir != "" {
		where += ", " + hc.Dir
	}
	return "gozie's Hadoop configuration does not enable Kerberos: set hadoop.security.authentication=kerberos in core-site.xml of " +
		where + ", and gozie.kerberos.principal and gozie.kerberos.keytab to the server's principal and its keytab"
}
