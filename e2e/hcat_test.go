package e2e

import (
	"testing"
	"time"
)

// hcatCredentialApp is a workflow whose shell action names an hcat
// credential: it succeeds only when its container's token file holds the
// metastore delegation token gozie fetched for the user (a shell action
// gets no other HIVE_DELEGATION_TOKEN).
func hcatCredentialApp(uri, principal string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="with-hcat">
<credentials><credential name="meta" type="hcat">
<property><name>hcat.metastore.uri</name><value>` + uri + `</value></property>
<property><name>hcat.metastore.principal</name><value>` + principal + `</value></property>
</credential></credentials>
<start to="check"/>
<action name="check" cred="meta"><shell xmlns="uri:oozie:shell-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<exec>sh</exec><argument>-c</argument>
<argument>grep -qa HIVE_DELEGATION_TOKEN "$HADOOP_TOKEN_FILE_LOCATION"</argument>
</shell><ok to="end"/><error to="fail"/></action>
<kill name="fail"><message>no metastore token</message></kill><end name="end"/></workflow-app>`
}

// TestHcatCredentialOnAKerberizedCluster: on `gozie server -local
// -kerberos`, a workflow submitted by the Kerberos user with an hcat
// <credential> from local-cluster.properties' hcatMetastoreUri and
// hcatMetastorePrincipal succeeds, its container holding the token.
func TestHcatCredentialOnAKerberizedCluster(t *testing.T) {
	t.Parallel()
	k := kerberizedServer(t)
	uri, principal := k.cluster["hcatMetastoreUri"], k.cluster["hcatMetastorePrincipal"]
	if uri == "" || principal == "" {
		t.Fatalf("local-cluster.properties names no metastore: %v", k.cluster)
	}
	id := k.krbRun(t, k.writeApp(t, "with-hcat", hcatCredentialApp(uri, principal)))
	if status, info := k.krbWait(t, id, 2*time.Minute); status != "SUCCEEDED" {
		t.Errorf("%s ended %s:\n%s", id, status, info)
	}
}
