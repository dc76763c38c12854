package miniyarn

import (
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// decodeTokenURLString decodes a token of credentials.tokens as the RM
// does (Token.decodeFromUrlString); the codec is yarn's, shared with the
// client that encodes.
func decodeTokenURLString(s string) (hadoop.Token, error) { return yarn.DecodeTokenURLString(s) }
