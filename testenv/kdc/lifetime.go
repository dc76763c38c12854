package kdc

import (
	"fmt"
	"testing"
	"time"
)

// SetLifetimes limits the tickets of principal name to life, renewable up
// to renew (0: not renewable), for tests of ticket expiry and renewal:
// the KDC issues the lesser of these and the realm's max_life (1h) and
// max_renewable_life (1d).
func (k *KDC) SetLifetimes(t testing.TB, name string, life, renew time.Duration) {
	t.Helper()
	k.kadmin(t, fmt.Sprintf(`modprinc -maxlife "%d seconds" -maxrenewlife "%d seconds" %s`,
		int(life.Seconds()), int(renew.Seconds()), name))
}
