package miniyarn

import "github.com/gozie/gozie/hadoop"

// TokenURLStringForTest exposes the token URL string encoder to the external
// tests.
func TokenURLStringForTest(t hadoop.Token) string { return encodeTokenURLString(t) }
